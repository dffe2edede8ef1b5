package tui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim/simtest"
	"locksim/storycode"
	"locksim/transcript"

	"github.com/charmbracelet/x/vt"
)

// castEvent is one event of an asciicast v2 file.
type castEvent struct {
	T    float64
	Code string
	Data string
}

// castHeader is the header fields a test reads; Extra is every field.
type castHeader struct {
	Version       int
	Width, Height int
	IdleTimeLimit float64 `json:"idle_time_limit"`
	Title         string
	Extra         map[string]any `json:"-"`
}

// readCast parses data as asciicast v2: a header line of JSON, then one
// [time, code, data] array a line, with codes o and m only and times that
// never go back ("o" times rising).
func readCast(t *testing.T, data []byte) (castHeader, []castEvent) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	if !sc.Scan() {
		t.Fatal("an empty cast")
	}
	var h castHeader
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		t.Fatalf("header %s: %v", sc.Bytes(), err)
	}
	json.Unmarshal(sc.Bytes(), &h.Extra)
	if h.Version != 2 || h.Width < MinWidth || h.Height < MinHeight || h.IdleTimeLimit <= 0 || h.Title == "" {
		t.Errorf("header %s: want version 2, a size, an idle-time limit and a title", sc.Bytes())
	}
	for _, k := range []string{"timestamp", "env", "duration"} {
		if _, ok := h.Extra[k]; ok {
			t.Errorf("header %s has %s: the bytes would depend on the machine or the moment", sc.Bytes(), k)
		}
	}
	var events []castEvent
	lastO := -1.0
	for sc.Scan() {
		var raw []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 3 {
			t.Fatalf("event %s: %v", sc.Bytes(), err)
		}
		var e castEvent
		if json.Unmarshal(raw[0], &e.T) != nil || json.Unmarshal(raw[1], &e.Code) != nil || json.Unmarshal(raw[2], &e.Data) != nil {
			t.Fatalf("event %s is not [number, string, string]", sc.Bytes())
		}
		switch {
		case e.Code != "o" && e.Code != "m":
			t.Errorf("event %s: code %q", sc.Bytes(), e.Code)
		case len(events) > 0 && e.T < events[len(events)-1].T:
			t.Errorf("event %s goes back in time", sc.Bytes())
		case e.Code == "o" && e.T <= lastO:
			t.Errorf("frame %s does not come after the last", sc.Bytes())
		}
		if e.Code == "o" {
			lastO = e.T
		}
		events = append(events, e)
	}
	return h, events
}

// screens feeds each frame of events to a terminal emulator of the cast's
// size and returns the screen after it, as text with no trailing spaces;
// marks are the frames each marker follows.
func screens(h castHeader, events []castEvent) (out []string, marks map[int]string) {
	term := vt.NewEmulator(h.Width, h.Height)
	marks = map[int]string{}
	for _, e := range events {
		switch {
		case e.Code == "o" && e.Data == castEnd:
			// the player's terminal given back: the recorded screens are over
		case e.Code == "o":
			term.WriteString(e.Data)
			out = append(out, trimScreen(term.String()))
		case e.Code == "m":
			marks[len(out)-1] = e.Data
		}
	}
	return out, marks
}

// trimScreen is s without trailing spaces on its lines or empty lines at
// its end: what a reader sees.
func trimScreen(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// castOf is the cast of pos on a fresh embedded server.
func castOf(t *testing.T, pos play.Position, o CastOptions) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := Cast(context.Background(), &out, embedded(t), pos, o); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestCastOfScene: gc-pause's story as a cast is asciicast v2 with one
// frame per step and one for its question, the marker after the question's
// frame labelled with it, and, fed through a terminal emulator, a last
// frame that is the golden screen of its last step, drawn at 80x24.
func TestCastOfScene(t *testing.T) {
	t.Parallel()
	sc := scenes.Find("gc-pause")
	moves := len(sc.Script(nil).Moves)
	data := castOf(t, play.Position{Version: play.PositionVersion, Scene: sc.ID, Seed: 1, Step: moves}, CastOptions{})
	h, events := readCast(t, data)
	if h.Width != 80 || h.Height != 24 || !strings.Contains(h.Title, "gc-pause") {
		t.Errorf("header %+v", h)
	}
	frames, marks := screens(h, events)
	// the question shows as the story reaches its step
	if len(frames) != moves+1 {
		t.Errorf("%d frames for a story of %d steps", len(frames), moves)
	}
	if len(marks) != 1 {
		t.Fatalf("markers %v, want one, at the question", marks)
	}
	for i, label := range marks {
		q := strings.TrimPrefix(label, "predict: ")
		if !strings.HasPrefix(label, "predict: ") || !strings.Contains(strings.Join(strings.Fields(frames[i]), " "), q) {
			t.Errorf("marker %q after a frame that does not ask it:\n%s", label, frames[i])
		}
		// the question stands before the decisive move, B's SET
		if !strings.Contains(frames[i], "next: B acquires") || strings.Contains(frames[i+1], "(hidden until you predict)") {
			t.Errorf("the marker is not at the question:\n%s\nthen\n%s", frames[i], frames[i+1])
		}
	}
	// the class was asked, and the replies answered
	golden(t, "cast-gc-pause-end-80x24", frames[len(frames)-1])
	// it plays on the alternate screen and gives the player's terminal
	// back, its cursor shown, once the last frame has stood a while
	if first, last := events[0], events[len(events)-1]; !strings.HasPrefix(first.Data, castStart) || last.Code != "o" || last.Data != castEnd || last.T <= events[len(events)-2].T {
		t.Errorf("the cast opens with %q and ends with %+v", first.Data[:min(len(first.Data), 20)], last)
	}
}

// TestCastEndsAtGoldenStep: without the question, the cast of -step 8
// ends on the screen the player's golden shows after eight steps.
func TestCastEndsAtGoldenStep(t *testing.T) {
	t.Parallel()
	data := castOf(t, play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1, Step: 8}, CastOptions{NoQuiz: true})
	h, events := readCast(t, data)
	frames, marks := screens(h, events)
	want, err := os.ReadFile(filepath.Join("testdata", "gc-pause-80x24.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 9 || len(marks) != 0 || frames[8] != trimScreen(string(want)) {
		t.Errorf("%d frames, markers %v; the last:\n%s\nwant testdata/gc-pause-80x24.golden:\n%s", len(frames), marks, frames[len(frames)-1], want)
	}
}

// TestCastIsTheCodesScreen: a code's cast ends on the screen the code
// opens in the player (own moves, the prediction given, the actor picked),
// at another size.
func TestCastIsTheCodesScreen(t *testing.T) {
	t.Parallel()
	walk := "nn1pnnwnn2n"
	a := openPosition(t, play.Position{}, "gc-pause", walk)
	code, err := storycode.Encode(a.Position())
	if err != nil {
		t.Fatal(err)
	}
	pos, err := storycode.Decode(code)
	if err != nil {
		t.Fatal(err)
	}
	h, events := readCast(t, castOf(t, pos, CastOptions{Width: 100, Height: 32}))
	frames, _ := screens(h, events)
	want := trimScreen(openPosition(t, pos, "", "").View())
	if got := frames[len(frames)-1]; got != want {
		t.Errorf("after %q, code %s: the cast ends on\n%s\nwant the code's screen\n%s", walk, code, got, want)
	}
}

// TestCastSameBytes: one position makes the same bytes whatever the
// environment says of the terminal.
func TestCastSameBytes(t *testing.T) {
	pos := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 3, Step: 6}
	first := castOf(t, pos, CastOptions{})
	for _, env := range [][3]string{{"xterm-256color", "truecolor", ""}, {"dumb", "", "1"}, {"", "", ""}} {
		t.Setenv("TERM", env[0])
		t.Setenv("COLORTERM", env[1])
		t.Setenv("NO_COLOR", env[2])
		if again := castOf(t, pos, CastOptions{}); !bytes.Equal(first, again) {
			t.Errorf("TERM=%q COLORTERM=%q NO_COLOR=%q: other bytes", env[0], env[1], env[2])
		}
	}
	// the file writes ESC as \u001b
	if !regexp.MustCompile(`\\u001b\[[0-9;]*38;5;`).Match(first) || regexp.MustCompile(`\\u001b\[[0-9;]*38;2;`).Match(first) {
		t.Errorf("the cast is not drawn in 256 colours: %q", first[:min(len(first), 600)])
	}
}

// TestCastTranscriptExportAgree: for one code, the plain transcript, the
// redis-cli script and the cast show the same commands with the same
// replies in the same order, and the same verdict at the end.
func TestCastTranscriptExportAgree(t *testing.T) {
	t.Parallel()
	pos, err := play.ParsePosition([]byte(`{"version":1,"scene":"fencing","seed":5,"own":[{"at":2,"kind":"wait","ms":5000}],"step":11,"prediction":{"chosen":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	if pos, err = storycode.Decode(code); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// the transcript: "t=+0.000s A> SET … → OK", wrapped at 80 columns
	var plain bytes.Buffer
	if err := transcript.PlainPosition(ctx, &plain, embedded(t), pos); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(plain.String(), "\n    ", " ")
	var fromPlain []string
	for _, m := range regexp.MustCompile(`(?m)^t=\+\S+ (\S+)> (\S+) .* → (.*)$`).FindAllStringSubmatch(text, -1) {
		// the log names the resource's server in short
		fromPlain = append(fromPlain, strings.Replace(m[1], "→resource", "→res", 1)+" "+m[2]+" "+m[3])
	}
	verdict := regexp.MustCompile(`(?m)^verdict: (.*)$`).FindStringSubmatch(text)
	// the redis-cli script of the session the code opens
	s := startedAt(t, ctx, pos, embedded(t))
	defer s.Close(ctx)
	var fromScript []string
	script := strings.Split(strings.TrimSpace(transcript.RedisCLIScript(s.Snap, 0, false)), "\n")
	// the first line registers the replay's prefix, the last deletes its keys
	for _, l := range script[1 : len(script)-1] {
		if !strings.HasPrefix(l, "WAIT ") {
			fromScript = append(fromScript, strings.Fields(l)[0])
		}
	}
	// the cast, wide enough for every line of the log: each log line as it
	// first shows
	h, events := readCast(t, castOf(t, pos, CastOptions{Width: 140, Height: 60}))
	frames, _ := screens(h, events)
	seen := map[string]bool{}
	var fromCast []string
	line := regexp.MustCompile(`^ \+\S+\s+(\S+)> (\S+) .*?\s{2,}(\S.*)$`)
	for _, f := range frames {
		for _, l := range strings.Split(f, "\n") {
			if m := line.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[2], "[") && !seen[l] {
				seen[l] = true
				fromCast = append(fromCast, m[1]+" "+m[2]+" "+m[3])
			}
		}
	}
	if len(fromPlain) == 0 || strings.Join(fromPlain, "\n") != strings.Join(fromCast, "\n") {
		t.Errorf("the transcript's commands\n%s\nthe cast's\n%s", strings.Join(fromPlain, "\n"), strings.Join(fromCast, "\n"))
	}
	var names []string
	for _, p := range fromPlain {
		names = append(names, strings.Fields(p)[1])
	}
	if strings.Join(names, " ") != strings.Join(fromScript, " ") {
		t.Errorf("the transcript sends %v, the redis-cli script %v", names, fromScript)
	}
	if last := frames[len(frames)-1]; verdict == nil || !strings.Contains(last, "verdict "+verdict[1]) {
		t.Errorf("the transcript's verdict %q is not the cast's:\n%s", verdict, last)
	}
}

// TestCastCourse: without a scene, the cast is the whole course, each
// scene opened by a marker that names it, in the course's order.
func TestCastCourse(t *testing.T) {
	simtest.SkipUnlessSlow(t) // about 150 frames through the emulator
	t.Parallel()
	var out bytes.Buffer
	if err := CastCourse(context.Background(), &out, embedded(t), 1, CastOptions{}); err != nil {
		t.Fatal(err)
	}
	h, events := readCast(t, out.Bytes())
	frames, marks := screens(h, events)
	var got []string
	for i := range frames {
		if m, ok := marks[i]; ok && strings.HasPrefix(m, "scene ") {
			got = append(got, m)
			// the marker goes with the scene's first frame
			if id := strings.Fields(strings.Split(m, " · ")[1])[0]; !strings.Contains(strings.Split(frames[i], "\n")[0], strings.TrimSuffix(id, ":")) {
				t.Errorf("marker %q on a frame of another scene:\n%s", m, frames[i])
			}
		}
	}
	all := scenes.All()
	if len(got) != len(all) {
		t.Fatalf("scene markers %q, want one for each of %d scenes", got, len(all))
	}
	for i, sc := range all {
		if !strings.Contains(got[i], " · "+sc.ID+": ") {
			t.Errorf("marker %d is %q, want scene %s", i+1, got[i], sc.ID)
		}
	}
}
