package tui

import (
	"bufio"
	"context"
	"crypto/sha1"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/transcript"

	tea "github.com/charmbracelet/bubbletea"
)

// monitorLine is one line of MONITOR: the server's time in µs and the
// command as MONITOR prints it ("SET" "k" "v" …).
type monitorLine struct {
	at  int64
	cmd string
}

// monitor runs MONITOR on a connection of its own to the server at url
// and collects its lines until the test ends; lines returns those so far.
func monitor(t *testing.T, url string) (lines func() []monitorLine) {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, "MONITOR\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	if ok, err := r.ReadString('\n'); err != nil || ok != "+OK\r\n" {
		t.Fatalf("MONITOR answered %q, %v", ok, err)
	}
	var mu sync.Mutex
	var got []monitorLine
	go func() {
		for {
			s, err := r.ReadString('\n')
			if err != nil {
				return
			}
			// +1764560000.123456 [0 127.0.0.1:5555] "SET" "k" …
			stamp, rest, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(s, "+")), " ")
			_, cmd, _ := strings.Cut(rest, "] ")
			sec, frac, _ := strings.Cut(stamp, ".")
			si, _ := strconv.ParseInt(sec, 10, 64)
			fi, _ := strconv.ParseInt(frac, 10, 64)
			mu.Lock()
			got = append(got, monitorLine{si*1_000_000 + fi, cmd})
			mu.Unlock()
		}
	}()
	return func() []monitorLine {
		mu.Lock()
		defer mu.Unlock()
		return append([]monitorLine(nil), got...)
	}
}

// TestIdleLiveScreenIsQuiet runs a scene on a live server in a real Bubble
// Tea program, with its timers, takes two steps and lets it sit: while it
// is idle (the clock held) MONITOR shows only the run's heartbeat, at most
// ten lines in ten seconds.
func TestIdleLiveScreenIsQuiet(t *testing.T) {
	t.Parallel()
	srv := simtest.StartServer(t)
	b, err := sim.OpenLive(context.Background(), srv.URL, simtest.LiveOptions(100))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	a, err := NewApp(b, "gc-pause", 1)
	if err != nil {
		t.Fatal(err)
	}
	started, idle := make(chan struct{}), make(chan struct{})
	var once1, once2 sync.Once
	watch := func(_ tea.Model, msg tea.Msg) tea.Msg {
		if m, ok := msg.(play.RunMsg); ok && m.Snap.Held {
			switch m.Snap.Pos {
			case 0:
				once1.Do(func() { close(started) })
			case 2:
				once2.Do(func() { close(idle) })
			}
		}
		return msg
	}
	p := tea.NewProgram(a, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithFilter(watch))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = p.Run()
	}()
	defer func() {
		p.Quit()
		<-done
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.Shutdown(ctx)
	}()
	p.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	wait := func(c chan struct{}, what string) {
		select {
		case <-c:
		case <-time.After(time.Minute):
			t.Fatalf("the scene never got %s", what)
		}
	}
	wait(started, "started")
	for _, k := range keys("nn") {
		p.Send(k)
	}
	wait(idle, "to its second step")

	lines := monitor(t, srv.URL)
	time.Sleep(10*time.Second + 500*time.Millisecond)
	got := lines()
	if len(got) == 0 {
		t.Fatal("MONITOR showed nothing in ten seconds: not even the heartbeat")
	}
	beat := `"SET" "` + b.Prefix + `heartbeat"`
	in := 0
	for _, l := range got {
		if !strings.HasPrefix(l.cmd, beat) || !strings.Contains(l.cmd, `"PX" "15000" "GET"`) {
			t.Errorf("an idle screen sent %s", l.cmd)
		}
		if l.at < got[0].at+10_000_000 {
			in++
		}
	}
	if in > 10 || in < 5 {
		t.Errorf("MONITOR showed %d heartbeats in ten seconds; want one a second at most (and some)", in)
	}
}

// TestLabelMarksStepsInTheStream: with -label each step starts with an
// ECHO "step N: label" in MONITOR, and the clock-hold scripts cross the
// wire as source once (the first EVAL after NOSCRIPT), then by EVALSHA.
func TestLabelMarksStepsInTheStream(t *testing.T) {
	t.Parallel()
	srv := simtest.StartServer(t)
	lines := monitor(t, srv.URL)
	b, err := sim.OpenLive(context.Background(), srv.URL, simtest.LiveOptions(100))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	b.Label = true
	a := openScene(t, b, "gc-pause", 1, 80, 24, "nnnn")
	want := []string{}
	for i := range 4 {
		want = append(want, `"ECHO" "`+sim.StepEcho(i, a.pl.Snap.Moves[i])+`"`)
	}
	// MONITOR lines arrive on a connection of their own: wait for the last
	hold := `"EVALSHA" "` + fmt.Sprintf("%x", sha1.Sum([]byte(sim.HoldLua.Src))) + `"`
	var got []monitorLine
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got = lines()
		if i := indexLine(got, want[3]); i >= 0 && indexLine(got[i:], hold) >= 0 {
			break
		}
	}
	at := -1
	for _, w := range want {
		i := indexLine(got, w)
		if i <= at {
			t.Errorf("MONITOR should show %s after the step before it; at %d (the one before at %d)", w, i, at)
		}
		at = i
	}
	evals, shas := 0, 0
	for _, l := range got {
		if strings.Contains(l.cmd, "PERSIST") && strings.HasPrefix(l.cmd, `"EVAL" `) {
			evals++
		}
		if strings.HasPrefix(l.cmd, hold) {
			shas++
		}
	}
	if evals != 1 || shas < 4 {
		t.Errorf("the hold script went %d times as EVAL with its source (want once) and %d times by EVALSHA (want one a step)", evals, shas)
	}
}

func indexLine(ls []monitorLine, prefix string) int {
	for i, l := range ls {
		if strings.HasPrefix(l.cmd, prefix) {
			return i
		}
	}
	return -1
}

// TestExportLabelsSteps: with -label the y export starts each move's
// commands with the ECHO the live stream shows; without it, none.
func TestExportLabelsSteps(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "nnnn")
	s := a.pl.Snap
	// one salt for both: each export draws its own replay id otherwise
	labelled, plain := transcript.RedisCLIScript(s, 0, true, transcript.Salt("x")), transcript.RedisCLIScript(s, 0, false, transcript.Salt("x"))
	if strings.Contains(plain, "ECHO") {
		t.Errorf("without -label the export has no ECHO:\n%s", plain)
	}
	// each ECHO stands right before the first line of its move
	var lines []string
	for _, l := range strings.Split(labelled, "\n") {
		if !strings.HasPrefix(l, "ECHO ") {
			lines = append(lines, l)
		}
	}
	if strings.Join(lines, "\n") != plain {
		t.Errorf("the labelled export should be the plain one with ECHO lines added:\n%s\n---\n%s", labelled, plain)
	}
	for i := range 4 {
		w := sim.FormatCommand([]any{"ECHO", sim.StepEcho(i, s.Moves[i])})
		j := strings.Index(labelled, w+"\n")
		if j < 0 {
			t.Errorf("the export lacks %s:\n%s", w, labelled)
			continue
		}
		first := firstLineOfMove(s, i)
		if next := labelled[j+len(w)+1:]; first != "" && !strings.HasPrefix(next, first) {
			t.Errorf("%s should come right before %q:\n%s", w, first, labelled)
		}
	}
}

// firstLineOfMove is the start of the first command move i sent, as the
// export writes it (key names aside), or "" if it sent none.
func firstLineOfMove(s sim.Snapshot, i int) string {
	for _, e := range s.Events {
		if e.Move == i && e.Kind == sim.Command {
			return e.Args[0]
		}
		if e.Move == i && e.Kind == sim.Clock {
			return "WAIT 100"
		}
	}
	return ""
}

// leaseRead is each member of the claim scene's active set with the lease
// its deadline gives, read on the server's clock, in story ms: the time
// left (score − TIME, times the scale) plus the story time since its claim
// was sent. While the story's clock runs it stays the lease granted; a
// hold that let deadlines run would shrink it by the time held.
func leaseRead(s sim.Snapshot) map[string]int64 {
	claimed := map[string]time.Duration{}
	for _, e := range s.Events {
		if id, _, _, ok := sim.Claimed(e.Val, e.Err); ok && e.Kind == sim.Command {
			claimed[id] = e.At
		}
	}
	out := map[string]int64{}
	for _, k := range s.Keys {
		if k.Type != "zset" || !strings.HasSuffix(k.Name, "active") {
			continue
		}
		for _, f := range k.Fields {
			score, _ := strconv.ParseFloat(f.Value, 64)
			left := (int64(score) - k.Clock) * int64(max(s.Scale, 1))
			out[f.Name] = left + (s.Now - claimed[f.Name]).Milliseconds()
		}
	}
	return out
}

// scores are the deadlines of the active set, as the server holds them:
// epoch ms on its TIME.
func scores(s sim.Snapshot) map[string]int64 {
	out := map[string]int64{}
	for _, k := range s.Keys {
		if k.Type == "zset" && strings.HasSuffix(k.Name, "active") {
			for _, f := range k.Fields {
				score, _ := strconv.ParseFloat(f.Value, 64)
				out[f.Name] = int64(score)
			}
		}
	}
	return out
}

// TestLiveHoldKeepsDeadlines steps the claim scene on a live server with
// pauses between steps far longer than its lease's margins: the hold moves
// each deadline scored on TIME on by the time held, so after every step
// each deadline still gives the lease the embedded server's gives, on the
// story's clock (which runs only while a step runs), and the replies agree.
func TestLiveHoldKeepsDeadlines(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	// the story runs in real time inside a step, where its margin is the
	// story's (claim-lease's 5 s, 250 ms of wire at ÷20): a stall past
	// half of it excuses a difference, as in TestLiveSteppingHoldsTheClock
	untilJudged(t, scenes.Find("claim-lease").Shortest, func() (string, time.Duration) {
		live, emb, diff := stepDeadlines(t, url)
		if diff == "" {
			diff = replyDiff(live.pl.Snap, emb.pl.Snap)
		}
		return diff, stepLateness(live.pl.Snap, emb.pl.Snap)
	})
}

// stepDeadlines steps claim-lease to its end on the live server at url at
// ÷20 and on the embedded one, checking after each step that the hold
// moved the deadlines on and that each still gives the embedded lease. It
// stops early, saying how, when the two active sets differ.
func stepDeadlines(t *testing.T, url string) (live, emb *App, diff string) {
	t.Helper()
	const scale = 20
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(scale))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	stepStart := time.Now() // opening the scene may hold the clock already
	live = openScene(t, b, "claim-lease", 1, 80, 24, "")
	emb = openScene(t, embedded(t), "claim-lease", 1, 80, 24, "")
	// 1.5 s held is 30 s of story at ÷20: unheld, every deadline would
	// move that much nearer at each step
	const pause = 1500 * time.Millisecond
	// spent is the wall time the live steps took, and since[id] what it
	// was when id's lease began: while a step runs, the story's clock (the
	// client's) and the server's TIME are read at different moments, and a
	// stall between two readings on a loaded machine shows as that much
	// wire time lost or gained, so the margin grows by the steps' own time
	var spent time.Duration
	since := map[string]time.Duration{}
	for range len(live.pl.Snap.Moves) {
		time.Sleep(pause)
		before, seen := scores(live.pl.Snap), len(live.pl.Snap.Events)
		heldFrom := stepStart // the hold began inside the last step
		stepStart = time.Now()
		drive(t, live, keys("n")...)
		took := time.Since(stepStart)
		drive(t, emb, keys("n")...)
		// on the server's own scores: each deadline that stayed moved on
		// by the time held, at least the pause and at most the wall time
		// from the last step's start to this one's end
		claimedNow := map[string]bool{}
		for _, e := range live.pl.Snap.Events[seen:] {
			if id, _, _, ok := sim.Claimed(e.Val, e.Err); ok && e.Kind == sim.Command {
				claimedNow[id] = true
			}
		}
		held := time.Since(heldFrom)
		for id, s1 := range scores(live.pl.Snap) {
			s0, ok := before[id]
			if !ok || claimedNow[id] {
				continue
			}
			if moved := time.Duration(s1-s0) * time.Millisecond; moved < pause || moved > held {
				t.Errorf("step %d: the hold moved %s's deadline on by %v; it was held at least %v and at most %v", live.pl.Snap.Pos, id, moved, pause, held)
			}
		}
		got, want := leaseRead(live.pl.Snap), leaseRead(emb.pl.Snap)
		if len(got) != len(want) {
			return live, emb, fmt.Sprintf("step %d: active set live %v, embedded %v", live.pl.Snap.Pos, got, want)
		}
		for id, w := range want {
			if _, ok := since[id]; !ok {
				since[id] = spent
			}
			// a claim's time is taken as it is sent, and TIME read in
			// the script, a round trip apart (as the snapshot's clock and
			// its TIME): allow 10 s of story (500 ms of wire), a third of
			// one pause, and the steps' own time since the claim
			margin := 10_000 + (spent+took-since[id]).Milliseconds()*scale
			if g := got[id]; g < w-margin || g > w+margin {
				t.Errorf("step %d: %s's deadline gives a lease of %d ms of story live, %d embedded (±%d)", live.pl.Snap.Pos, id, g, w, margin)
			}
		}
		spent += took
	}
	if n := len(live.pl.Snap.Moves); live.pl.Snap.Pos != n || emb.pl.Snap.Pos != n {
		t.Errorf("the story should have played to its end (%d): live at %d, embedded at %d", n, live.pl.Snap.Pos, emb.pl.Snap.Pos)
	}
	return live, emb, ""
}
