package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/transcript"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
)

// openCourse opens the course with progress kept in a temporary file.
func openCourse(t *testing.T, o Options, presses string) (*App, *progress.Store) {
	t.Helper()
	store, _ := o.Store.(*progress.Store)
	if store == nil {
		store = &progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
		o.Store = store
	}
	a, err := NewCourse(embedded(t), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	drive(t, a, keys(presses)...)
	return a, store
}

// TestContentsOpensScenes: the contents come first; enter opens the chosen
// scene, esc comes back, and the scene is as the learner left it.
func TestContentsOpensScenes(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	v := a.View()
	// every scene is listed; at 80x24 the first page shows the first ones
	var listed []string
	for _, it := range a.toc.list().Items() {
		if e, ok := it.(entry); ok {
			listed = append(listed, e.id)
		}
	}
	for _, sc := range scenes.All() {
		if !slices.Contains(listed, sc.ID) {
			t.Errorf("the contents lack %s: %v", sc.ID, listed)
		}
	}
	if !strings.Contains(v, listed[0]) {
		t.Errorf("the contents' first page lacks %s:\n%s", listed[0], v)
	}
	golden(t, "contents-80x24", v)
	drive(t, a, keys("[down][down][enter]nn")...)
	if a.onContents() || a.pl.Scene.ID != "crash-gap" || a.pl.Snap.Pos != 2 {
		t.Fatalf("enter should open crash-gap and n step it: contents %v, %s at %d", a.onContents(), a.pl.Scene.ID, a.pl.Snap.Pos)
	}
	drive(t, a, keys("[esc]")...)
	if !a.onContents() {
		t.Fatalf("esc with nothing to cancel should return to the contents:\n%s", a.View())
	}
	drive(t, a, keys("[up][enter]")...)
	drive(t, a, keys("[esc][down][enter]")...)
	if a.pl.Scene.ID != "crash-gap" || a.pl.Snap.Pos != 2 {
		t.Errorf("coming back to crash-gap should replay it to step 2: %s at %d", a.pl.Scene.ID, a.pl.Snap.Pos)
	}
}

// TestPredictionIsRecordedAndRevealed: the race stops before its replies
// and asks; the answer is recorded, and the reveal matches the real reply.
func TestPredictionIsRecordedAndRevealed(t *testing.T) {
	a, store := openCourse(t, Options{Seed: 1, Scene: "race"}, "")
	if !a.pl.Asking || len(a.pl.Snap.Events) != 0 || !strings.Contains(strings.ReplaceAll(a.View(), "\n", " "), "How many of them get OK?") {
		t.Fatalf("the race should ask before it fires:\n%s", a.View())
	}
	drive(t, a, keys("h")...)
	if !strings.Contains(a.View(), "hint:") {
		t.Errorf("h should show a hint:\n%s", a.View())
	}
	drive(t, a, keys("2")...)
	if n := strings.Count(a.View(), "OK · holder"); n != 1 || a.pl.Asking {
		t.Fatalf("after the answer the race runs: %d holders\n%s", n, a.View())
	}
	if !strings.Contains(strings.ReplaceAll(a.View(), "\n", " "), `You predicted "exactly one": right.`) {
		t.Errorf("the readout should say the guess was right:\n%s", a.View())
	}
	p, err := store.Load()
	if err != nil || p.Answers["race"] != (progress.Answer{Chosen: 1, Right: true}) || !p.Done["race"] {
		t.Errorf("progress: %+v %v", p, err)
	}
}

// TestStepOpensAtAStep: -scene X -step N opens the scene at step N.
func TestStepOpensAtAStep(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "gc-pause", Step: 3, NoQuiz: true}, "")
	if a.pl.Snap.Pos != 3 || a.onContents() {
		t.Fatalf("gc-pause should open at step 3: %d", a.pl.Snap.Pos)
	}
}

// TestBurstWithNamedKeys: n, home and 3 sent together are all kept.
func TestBurstWithNamedKeys(t *testing.T) {
	a := openScene(t, embedded(t), "options", 1, 80, 24, "")
	cmd := a.pl.seekTo(1)
	drive(t, a, keys("n[home]3")...)
	drive(t, a, cmd())
	if a.pl.Snap.Pos != 0 || a.Selected() != 2 {
		t.Fatalf("n, home, 3 during a move: pos %d, selected %d; want 0 and 2", a.pl.Snap.Pos, a.Selected())
	}
}

// TestPresenterClicker drives a whole scene with clicker keys only: the
// decisive point pauses with its question, the next click reveals the
// replies' answer, and the story runs to its end. N shows the notes.
func TestPresenterClicker(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		store := &progress.Store{Path: filepath.Join(t.TempDir(), "p.json")}
		// the class clock stands still: the footer shows it
		still := func() time.Time { return time.Time{} }
		a, err := NewCourse(embedded(t), Options{Seed: 1, Scene: "gc-pause", Present: true, Store: store, Clock: still})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Shutdown(context.Background()) })
		drive(t, a, tea.WindowSizeMsg{Width: size.w, Height: size.h})
		runCmd(t, a, a.Init())
		clicks := 0
		for ; clicks < 30 && a.pl.Snap.Pos < len(a.pl.Snap.Moves); clicks++ {
			drive(t, a, keys(".")...)
			if a.pl.Asking {
				name := "present-asking-" + itoa(int64(size.w)) + "x" + itoa(int64(size.h))
				golden(t, name, a.View())
				drive(t, a, tea.KeyMsg{Type: tea.KeyPgDown})
				// the readout (below the log at 80x24, beside it at 120x40)
				if !strings.Contains(a.pl.verdictOnGuess(), `The replies answer: "OK: A's key has expired, so B gets the lock".`) ||
					size.w == 80 && !strings.Contains(strings.ReplaceAll(a.View(), "\n", " "), `The replies answer: "OK: A's key has expired`) {
					t.Errorf("the click after the question should reveal B's reply:\n%s", a.View())
				}
			}
		}
		if a.pl.Snap.Pos != len(a.pl.Snap.Moves) {
			t.Fatalf("the clicker should play the story to its end, at %d of %d", a.pl.Snap.Pos, len(a.pl.Snap.Moves))
		}
		drive(t, a, keys("N")...)
		if !strings.Contains(a.View(), "speaker notes") {
			t.Errorf("N should show the speaker notes:\n%s", a.View())
		}
		golden(t, "present-notes-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
	}
}

// TestExportForRedisCLI: y writes the story's commands so that redis-cli
// can run them, waits included: from the embedded server every key goes
// under the replay's prefix, locksim:replay:<id>:, which its first command
// registers; a live run's export (÷100, so it replays in a fraction of a
// second) replayed on another server tells the same story.
func TestExportForRedisCLI(t *testing.T) {
	dir := exportDir(t)
	a := openScene(t, embedded(t), "fencing", 1, 120, 40, "nnnnnnnny")
	b, err := os.ReadFile(filepath.Join(dir, "locksim-fencing-seed1.redis"))
	if err != nil || !strings.Contains(a.View(), "wrote, for redis-cli < file:") || !strings.Contains(a.View(), homeShort(filepath.Join(dir, "locksim-fencing-seed1.redis"), os.Getenv("HOME"))) {
		t.Fatalf("%v\n%s", err, a.View())
	}
	script := string(b)
	p := replayPrefixOf(t, script)
	for _, want := range []string{"SET " + p + "resource:fence 32 PX 3600000", `EVAL "if redis.call(\"SET\", KEYS[1]`, "2 " + p + "resource:lock " + p + "resource:fence", "WAIT 100 32000\n"} {
		if !strings.Contains(script, want) {
			t.Errorf("the script lacks %q:\n%s", want, script)
		}
	}
	out, _, err := replayLiveExport(t, dir, "fencing", "nnnnnnnny")
	got := strings.Fields(strings.ReplaceAll(string(out), "\n", " "))
	if err != nil || strings.Contains(string(out), "ERR") || !strings.Contains(string(out), "(error) STALE token 33, seen 34") && !strings.Contains(string(out), "STALE token 33, seen 34") {
		t.Errorf("redis-cli replaying the script: %v\n%s", err, out)
	}
	// the registration's OK, the fence's OK, then the acquire
	if len(got) < 3 || got[2] != "33" {
		t.Errorf("the replay's fenced acquire should answer 33 first: %q", out)
	}
}

// TestExportClaimLease: from the embedded server, the claim scene's
// export puts its keys and the job prefix its scripts build keys from under
// locksim:replay:, and leaves EVALSHA's SHA alone; a live run's export (÷100)
// replays on a fresh server by redis-cli with no error, one NOSCRIPT as in
// the story, and every key under locksim:.
func TestExportClaimLease(t *testing.T) {
	dir := exportDir(t)
	steps := strings.Repeat("n", 12) + "y"
	openScene(t, embedded(t), "claim-lease", 1, 80, 24, steps)
	b, err := os.ReadFile(filepath.Join(dir, "locksim-claim-lease-seed1.redis"))
	if err != nil {
		t.Fatal(err)
	}
	script := string(b)
	if !strings.Contains(script, replayPrefixOf(t, script)+"emq:{q}:job:") || strings.Contains(script, "EVALSHA locksim:") || strings.Contains(script, " emq:") {
		t.Errorf("the embedded export's keys and job prefix:\n%s", script)
	}
	out, url, err := replayLiveExport(t, dir, "claim-lease", steps)
	if err != nil || strings.Contains(string(out), "ERR") || strings.Count(string(out), "NOSCRIPT") != 1 {
		t.Errorf("redis-cli replaying the script: %v\n%s", err, out)
	}
	if keys := simtest.Keys(t, url); len(keys) != 0 {
		t.Errorf("the replay's last command should delete its keys: %v", keys)
	}
}

// replayPrefixOf is the replay prefix an exported script registers with
// its first line.
func replayPrefixOf(t *testing.T, script string) string {
	t.Helper()
	m := regexp.MustCompile(`^SET (locksim:replay:[0-9a-f]{8}:)registration `).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("the script does not start by registering its prefix:\n%s", script)
	}
	return m[1]
}

// exportDir points the user's config directory at a temporary one and
// returns where y writes there by default: its locksim/exports. The
// working directory is made one the test cannot write to, so a script
// written there fails the test.
func exportDir(t *testing.T) string {
	t.Helper()
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", cfg) // macOS: ~/Library/Application Support
	cwd := t.TempDir()
	if err := os.Chmod(cwd, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Chdir(cwd)
	dir, err := scenes.Export{}.Where()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// replayLiveExport plays scene id on a live server at ÷100 with presses
// (ending in y), then replays the exported file by redis-cli on a fresh
// server: its output, that server's URL and redis-cli's error. It skips
// the test when redis-cli is not installed.
func replayLiveExport(t *testing.T, dir, id, presses string) ([]byte, string, error) {
	t.Helper()
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Skip("redis-cli is not installed: the replay is not tried")
	}
	live, err := sim.OpenLive(context.Background(), simtest.StartRedis(t), simtest.LiveOptions(100))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { live.Close(context.Background()) })
	openScene(t, live, id, 1, 80, 24, presses)
	b, err := os.ReadFile(filepath.Join(dir, "locksim-"+id+"-seed1.redis"))
	if err != nil {
		t.Fatal(err)
	}
	url := simtest.StartRedis(t)
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	cmd := exec.Command(cli, "-p", port)
	cmd.Stdin = strings.NewReader(string(b))
	out, err := cmd.CombinedOutput()
	return out, url, err
}

// TestExportScaled: -export-dir puts the script where it says, and
// -export-scale 20 divides every duration of the embedded story by 20:
// PX, the TTLs the scripts are given (the fenced acquire's lease, the
// resource's safety expiry) and the waits; the tokens and the fencing
// numbers stay as they are.
func TestExportScaled(t *testing.T) {
	exportDir(t) // the default directory must stay empty
	dir := filepath.Join(t.TempDir(), "handout")
	a := openScene(t, embedded(t), "fencing", 1, 120, 40, "nnnnnnnn")
	a.com.Export, a.com.Sink = scenes.Export{Dir: dir, Scale: 20}, transcript.Files{Dir: dir}
	drive(t, a, keys("y")...)
	path := filepath.Join(dir, "locksim-fencing-seed1-div20.redis")
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(a.View(), homeShort(path, os.Getenv("HOME"))) {
		t.Fatalf("%v\n%s", err, a.View())
	}
	script := string(b)
	p := replayPrefixOf(t, script)
	for _, want := range []string{"SET " + p + "resource:fence 32 PX 180000\n", p + "resource:fence 6ae6783f4fbde91b6eb88b73a48ed247 1500\n", "WAIT 100 1600\n", "WAIT 100 150\n", "edit-A 33 180000\n"} {
		if !strings.Contains(script, want) {
			t.Errorf("the scaled script lacks %q:\n%s", want, script)
		}
	}
	for _, gone := range []string{"PX 3600000", " 30000\n", "WAIT 100 32000", " 3600000\n"} {
		if strings.Contains(script, gone) {
			t.Errorf("the scaled script still has %q:\n%s", gone, script)
		}
	}
}

// TestExportScaledClaim: the claim script's lease (added to the server's
// TIME) and safety expiry, sent by EVALSHA before its EVAL, are scaled too.
func TestExportScaledClaim(t *testing.T) {
	dir := exportDir(t)
	a := openScene(t, embedded(t), "claim-lease", 1, 120, 40, strings.Repeat("n", 12))
	a.com.Export = scenes.Export{Scale: 10}
	drive(t, a, keys("y")...)
	b, err := os.ReadFile(filepath.Join(dir, "locksim-claim-lease-seed1-div10.redis"))
	if err != nil {
		t.Fatal(err)
	}
	plain := transcript.RedisCLIScript(a.pl.Snap, 0, false)
	if strings.Count(string(b), "\n") != strings.Count(plain, "\n") || string(b) == plain {
		t.Fatalf("the scaled script should differ from the unscaled one only in its numbers:\n%s", b)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "EVALSHA") && strings.Contains(l, " 3600000") {
			t.Errorf("an EVALSHA kept its unscaled safety expiry: %s", l)
		}
	}
}

// TestExportScaledReplay: the embedded fencing story exported at ÷20
// replays by redis-cli on a live server in about two seconds with the same
// replies (33, 34, the refusal of 33) and leaves no key; the same replay
// cut short before its last command leaves its keys and registration,
// which -cleanup's sweep then removes, and says so.
func TestExportScaledReplay(t *testing.T) {
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		simtest.SkipUnlessSlow(t)
		t.Skip("redis-cli is not installed: the replay is not tried")
	}
	url := simtest.StartRedis(t)
	a := openScene(t, embedded(t), "fencing", 1, 120, 40, "nnnnnnnnnn")
	script := transcript.RedisCLIScript(a.pl.Snap, 20, false)
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	cmd := exec.Command(cli, "-p", port)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	replies := strings.Fields(string(out))
	if err != nil || len(replies) < 3 || replies[2] != "33" || !strings.Contains(string(out), "STALE token 33, seen 34") {
		t.Fatalf("redis-cli replaying the scaled script: %v\n%s\n%s", err, out, script)
	}
	if keys := simtest.Keys(t, url); len(keys) != 0 {
		t.Fatalf("the replay's last command should delete its keys: %v", keys)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(script, "\n"), "\n")
	cmd = exec.Command(cli, "-p", port)
	cmd.Stdin = strings.NewReader(strings.Join(lines[:len(lines)-1], ""))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("redis-cli replaying all but the last line: %v\n%s", err, out)
	}
	left := simtest.Keys(t, url)
	if len(left) < 2 {
		t.Fatalf("the cut replay should leave keys and its registration: %v", left)
	}
	r, err := sim.CleanupLive(context.Background(), url, simtest.LiveTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if keys := simtest.Keys(t, url); len(keys) != 0 || len(r.Removed) != 1 || !r.Removed[0].Replay || r.Keys() != len(left) {
		t.Errorf("after -cleanup: %v left, removed %+v of %v", keys, r.Removed, left)
	}
	if l := r.Lines(); len(l) != 1 || !strings.HasPrefix(l[0], "replay "+r.Removed[0].ID+": "+sim.KeyCount(len(left))+" removed") {
		t.Errorf("-cleanup says %q", l)
	}
}

// TestHomeShort: an export under the home directory is named from ~.
func TestHomeShort(t *testing.T) {
	for _, c := range []struct{ path, home, want string }{
		{"/home/ann/.config/locksim/exports/x.redis", "/home/ann", "~/.config/locksim/exports/x.redis"},
		{"/home/ann/.config/x.redis", "/home/ann/", "~/.config/x.redis"},
		{"/home/annie/x.redis", "/home/ann", "/home/annie/x.redis"},
		{"/tmp/x.redis", "", "/tmp/x.redis"},
		{"/x.redis", "/", "/x.redis"},
	} {
		if got := homeShort(c.path, c.home); got != c.want {
			t.Errorf("homeShort(%q, %q) = %q, want %q", c.path, c.home, got, c.want)
		}
	}
}

// TestNoticeUntilNextKey: the notice said at start (keys of killed runs
// removed) is the contents' status line, or a scene's one-time note when
// one opens at once, and goes with the next key.
func TestNoticeUntilNextKey(t *testing.T) {
	const note = "removed 2 keys left by killed locksim runs (their heartbeat had expired)"
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true, Notice: note}, "")
	if !strings.Contains(a.View(), note) {
		t.Fatalf("the contents should say the notice:\n%s", a.View())
	}
	drive(t, a, keys("[down]")...)
	if v := a.View(); strings.Contains(v, note) || !strings.Contains(v, "enter open") || a.toc.list().SelectedItem().(entry).n != 2 {
		t.Errorf("the next key should put back the contents' keys and move down: at %v\n%s", a.toc.list().SelectedItem(), v)
	}
	a, _ = openCourse(t, Options{Seed: 1, Scene: "gc-pause", NoQuiz: true, Notice: note}, "")
	if !strings.Contains(a.View(), note) {
		t.Fatalf("a scene opened at once should say the notice:\n%s", a.View())
	}
	drive(t, a, keys("n")...)
	if v := a.View(); strings.Contains(v, note) || a.pl.Snap.Pos != 1 {
		t.Errorf("the next key should take the notice away and do what it does: pos %d\n%s", a.pl.Snap.Pos, v)
	}
}

// TestFilterEnterOpens: /, a few letters and enter open the scene the
// filter selects at once, even when enter comes before the list has had
// its filter's results back; a filter with no match stays open.
func TestFilterEnterOpens(t *testing.T) {
	// a steady cursor: the driver runs every command, a blink's for ever
	contents := func() *App {
		a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
		a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic)
		return a
	}
	a := contents()
	drive(t, a, keys("/ext[enter]")...)
	if a.onContents() || a.pl.Scene.ID != "extend" {
		t.Fatalf("/ext enter should open extend: contents %v, scene %s\n%s", a.onContents(), a.pl.Scene.ID, a.View())
	}
	a = contents()
	for _, k := range keys("/fenc") {
		a.Update(k) // the filter's results never come back
	}
	drive(t, a, keys("[enter]")...)
	if a.onContents() || a.pl.Scene.ID != "fencing" {
		t.Fatalf("/fenc enter should open fencing: contents %v, scene %s\n%s", a.onContents(), a.pl.Scene.ID, a.View())
	}
	a = contents()
	drive(t, a, keys("/qqq[enter]")...)
	if !a.onContents() || a.toc.list().FilterState() != list.Filtering || a.toc.list().FilterInput.Value() != "qqq" {
		t.Fatalf("a filter with no match should stay open: contents %v, state %v, %q", a.onContents(), a.toc.list().FilterState(), a.toc.list().FilterInput.Value())
	}
}

// TestContentsShowTheParts: the contents group the scenes under the
// course's parts, each with its time, the lab in a part of its own; the
// header counts the scenes played; ↑/↓ never rest on a heading; a scene
// played to the end counts.
func TestContentsShowTheParts(t *testing.T) {
	a, store := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	var got []string
	for _, it := range a.toc.list().Items() {
		switch it := it.(type) {
		case partItem:
			if it.n > 0 { // not a blank row that keeps a heading off a page's foot
				got = append(got, "["+it.Title+"]")
			}
		case entry:
			got = append(got, it.id)
		}
	}
	var want []string
	for _, p := range play.Parts() {
		want = append(want, "["+p.Title+"]")
		want = append(want, p.Scenes...)
		if p.Lab {
			want = append(want, "lab")
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the contents should follow the parts:\n got %v\nwant %v", got, want)
	}
	v := a.View()
	if !strings.Contains(v, "part 1 · one lock, one server · about "+play.Parts()[0].Minutes+" min") || !strings.Contains(v, fmt.Sprintf("0 of %d played", len(scenes.All()))) {
		t.Errorf("the contents should head the first part with its time, and count what was played:\n%s", v)
	}
	// every ↓ from the top lands on an entry, down to the last, and back up
	n := len(a.toc.list().Items()) - len(play.Parts())
	for i := 0; i < n+2; i++ {
		if _, ok := a.toc.list().SelectedItem().(entry); !ok {
			t.Fatalf("↓ %d times rests on %v", i, a.toc.list().SelectedItem())
		}
		drive(t, a, keys("[down]")...)
	}
	if e := a.toc.list().SelectedItem().(entry); e.id != "choose" {
		t.Errorf("↓ to the end should rest on the last scene, not %s", e.id)
	}
	for i := 0; i < n+2; i++ {
		drive(t, a, keys("[up]")...)
		if _, ok := a.toc.list().SelectedItem().(entry); !ok {
			t.Fatalf("↑ %d times rests on %v", i+1, a.toc.list().SelectedItem())
		}
	}
	if e := a.toc.list().SelectedItem().(entry); e.id != "race" {
		t.Errorf("↑ to the top should rest on the first scene, not %s", e.id)
	}
	// the race run and answered is played: the count says so back on the contents
	drive(t, a, keys("[enter][esc]")...)
	if p, err := store.Load(); err != nil || !p.Done["race"] {
		t.Fatalf("the race should be played: %+v %v", p, err)
	}
	if v := a.View(); !a.onContents() || !strings.Contains(v, fmt.Sprintf("1 of %d played", len(scenes.All()))) {
		t.Errorf("back on the contents the race should count as played:\n%s", v)
	}
}

// TestContentsGoldens: the contents at 120x40, where a part's heading and
// its scenes show whole.
func TestContentsGoldens(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	drive(t, a, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "contents-120x40", a.View())
}

// TestContentsFooterFitsAt80: the contents' footer, with a long "last
// time" (a long scene id, a late step, settings), keeps q quit at 80
// columns: the last time has a row of its own, none is cut mid-item.
func TestContentsFooterFitsAt80(t *testing.T) {
	for _, o := range []Options{
		{Seed: 1, Scene: "crash-gap", Step: 7},
		{Seed: 1, Scene: "gc-pause", Settings: scenes.Params{"pause": 1, "TTL": 2}, Step: 4},
	} {
		a, store := openCourse(t, o, "")
		a.SaveProgress()
		b, _ := openCourse(t, Options{Seed: 1, Store: store}, "")
		foot := contentsFoot(b.View())
		if !strings.Contains(foot, "last time: "+o.Scene) || !strings.HasSuffix(strings.TrimRight(foot, " "), "q quit") || strings.Contains(foot, "…") {
			t.Errorf("%s: the footer should say last time and end with q quit, uncut: %q", o.Scene, foot)
		}
	}
}
