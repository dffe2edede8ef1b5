package tui

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/redis/go-redis/v9"
)

// storyReplies is a run's story commands with their replies, tokens and
// prefix left out: what must agree between the two servers.
func storyReplies(s sim.Snapshot) []string {
	var out []string
	for _, e := range s.Events {
		if e.Kind == sim.Command && e.Move >= 0 {
			reply := scenes.ShortenTokens(e.Reply, s.Actors, s.Events)
			if n, ok := e.Int(); ok && e.Args[0] == "PTTL" && n > 0 {
				reply = "(integer) a positive PTTL" // wire ms: divided by the scale on a live server
			}
			out = append(out, e.Actor+" "+e.Args[0]+" → "+reply)
		}
	}
	return out
}

// TestLiveSteppingHoldsTheClock steps through stories on a live server with
// a pause longer than a whole lease between steps: with the clock held
// while the learner reads, the replies are the embedded server's, each
// story command is sent once, and a held key shows its held PTTL.
func TestLiveSteppingHoldsTheClock(t *testing.T) {
	t.Parallel()
	// The hold is read on the server itself: while the learner reads,
	// every key that had a TTL has none (PTTL -1), so no pause between
	// steps is needed to tell held from run out. The story still runs in
	// real time inside a step, where the margins are the story's: GET
	// then DEL's is A's GET 2 s of story before its lease ends, 500 ms of
	// wire at ÷4. At ÷20 (a 30 s lease is PX 1500, its watchdog's margin
	// 1 s) a CPU hog on each core beside the package's other tests made
	// leases lapse inside extend's and fencing's steps, so each story runs
	// at the scale that leaves its shortest margin (Scene.Shortest) 500 ms
	// of wire, the tightest story's at ÷4: ÷4 for release, gc-pause and
	// fencing (2 s), ÷10 for extend (5 s), ÷20 for options and crash-gap
	// (10 s), whose waits of 40 s and more were 10 s of wire at ÷4.
	url := simtest.StartRedis(t)
	admin := simtest.Client(t, url)
	for _, c := range []struct {
		id      string
		presses string
	}{
		{"options", ""},
		{"crash-gap", ""},
		{"release", "m"},
		{"release", "mm"},
		{"gc-pause", ""},
		{"fencing", ""},
		{"extend", ""},
		{"extend", "ss"},
	} {
		t.Run(c.id+c.presses, func(t *testing.T) {
			t.Parallel()
			shortest := scenes.Find(c.id).Shortest
			scale := max(4, int(shortest/(500*time.Millisecond)))
			untilJudged(t, shortest, func() (string, time.Duration) {
				live, emb := stepHeld(t, url, admin, c.id, c.presses, scale)
				return replyDiff(live.pl.Snap, emb.pl.Snap), stepLateness(live.pl.Snap, emb.pl.Snap)
			})
		})
	}
}

// untilJudged steps a story live beside the embedded server by step, which
// returns how the live stepping differs ("" when it does not) and how late
// of the embedded story times its commands ran (stepLateness). A step runs
// in real time: a machine that stalls it longer than half the story's
// margin (its commands that much later of story time than the embedded
// server's, or a round trip that long) has carried a command across a
// deadline the story keeps clear of. Such a stepping proves nothing either
// way and is stepped again, up to three times, then skipped; a difference
// with less lateness fails. As TestSameOnEveryServer judges a live play.
func untilJudged(t *testing.T, margin time.Duration, step func() (diff string, late time.Duration)) {
	t.Helper()
	for try := 1; ; try++ {
		diff, late := step()
		if diff == "" {
			return
		}
		if late < margin/2 {
			t.Errorf("%s\n(its commands at most %s late of story time)", diff, sim.FormatDuration(late))
			return
		}
		if try == 3 {
			t.Skipf("three steppings were stalled past half the %s margin: the machine is too loaded to judge", sim.FormatDuration(margin))
		}
		t.Logf("try %d: a command ran %s late of story time, more than half the %s margin: stepping again\n%s",
			try, sim.FormatDuration(late), sim.FormatDuration(margin), diff)
	}
}

// replyDiff says how the live run's story replies differ from the
// embedded run's, "" when they agree.
func replyDiff(live, emb sim.Snapshot) string {
	got, want := storyReplies(live), storyReplies(emb)
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return ""
	}
	return "live replies differ from the embedded server's:\n" + strings.Join(got, "\n") + "\n--- embedded ---\n" + strings.Join(want, "\n")
}

// stepHeld opens story id (after presses) on a live server at scale and on
// the embedded one, and steps both to the end, checking at each step that
// the live clock is held between steps and that the log says so.
func stepHeld(t *testing.T, url string, admin *redis.Client, id, presses string, scale int) (live, emb *App) {
	t.Helper()
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(scale))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	live = openScene(t, b, id, 1, 80, 24, presses)
	emb = openScene(t, embedded(t), id, 1, 80, 24, presses)
	{
		shown := false
		for range len(live.pl.Snap.Moves) {
			// between steps, the server says every key the last step
			// left with a TTL has none: held, however long the learner
			// reads and however slow the machine
			for _, k := range live.pl.Snap.Keys {
				if k.PTTL > 0 {
					if ms, err := admin.Do(context.Background(), "PTTL", k.Name).Int64(); err != nil || ms != -1 {
						t.Errorf("step %d: %s, held with %d ms, reads PTTL %d (%v) on the server while the learner reads", live.pl.Snap.Pos, k.Name, k.PTTL, ms, err)
					}
				}
			}
			// a step runs only the next move, never a replay of the
			// story so far
			m := live.pl.Run.Moves()[live.pl.Snap.Pos]
			before := live.pl.Snap.Events
			drive(t, live, keys("n")...)
			if !keptPrefix(before, live.pl.Snap.Events) {
				t.Errorf("step %d (%s) replayed the story: the events before it changed", live.pl.Snap.Pos, sim.MoveLabel(m))
			}
			drive(t, emb, keys("n")...)
			if !live.pl.Snap.Held {
				t.Fatalf("after a step the clock should be held")
			}
			// a step that leaves a key with a TTL holds it, and the log
			// says so as its latest line (not at the story's end: its
			// last steps may leave no TTL to hold, and a stall note on
			// a loaded machine, true as it is, scrolls an older line
			// out of the log's few rows)
			ttls := 0
			for _, k := range live.pl.Snap.Keys {
				if k.PTTL > 0 {
					ttls++
				}
			}
			// every step's hold says so in the same words, whatever
			// keys it held: a count of TTLs, or a line only when some
			// key had one, would tell whether a key expired before a
			// question about it is answered
			{
				said := false
				for _, e := range live.pl.Snap.Events[len(before):] {
					if e.Kind == sim.Aside && strings.Contains(e.Note, "held while you read") {
						said = true
						if strings.ContainsAny(e.Note, "0123456789") {
							t.Errorf("step %d: the hold's line counts what it held: %q", live.pl.Snap.Pos, e.Note)
						}
					}
				}
				if !said {
					t.Errorf("step %d left %d key(s) with a TTL but did not say it held the clock", live.pl.Snap.Pos, ttls)
				} else if !strings.Contains(live.View(), "held while you read") {
					t.Errorf("step %d: the log should show the hold:\n%s", live.pl.Snap.Pos, live.View())
				} else {
					shown = true
				}
			}
			for _, k := range live.pl.Snap.Keys {
				if k.PTTL == -1 && strings.HasSuffix(k.Name, ":resource:lock") && k.Value != "" {
					// only crash-gap's split lane may truly have no TTL
					if id != "crash-gap" {
						t.Errorf("a held key shows PTTL -1: %+v", k)
					}
				}
			}
		}
		if !shown {
			t.Errorf("no step held a TTL:\n%s", live.View())
		}
	}
	return live, emb
}

// stallMs is the round trip of a stall note (sim.StallNoted).
var stallMs = regexp.MustCompile(`the server took ([0-9]+) ms to answer`)

// stepLateness is how far the live run's story commands ran from the
// embedded run's story times, at most, each with the round trip the log
// noted as a stall (the server may run a command anywhere in it), up to
// and including the first whose reply differs: past it the two runs tell
// different stories, whose commands pair up by chance.
func stepLateness(live, emb sim.Snapshot) time.Duration {
	type cmd struct{ at, took time.Duration }
	commands := func(s sim.Snapshot) []cmd {
		var out []cmd
		for _, e := range s.Events {
			if e.Kind == sim.Command && e.Move >= 0 {
				out = append(out, cmd{at: e.At})
			} else if m := stallMs.FindStringSubmatch(e.Note); e.Kind == sim.Aside && m != nil && len(out) > 0 {
				ms, _ := strconv.Atoi(m[1])
				out[len(out)-1].took = time.Duration(ms) * time.Millisecond * time.Duration(max(s.Scale, 1))
			}
		}
		return out
	}
	l, e := commands(live), commands(emb)
	n := min(len(l), len(e))
	if got, want := storyReplies(live), storyReplies(emb); len(got) == len(l) && len(want) == len(e) {
		for i := range n {
			if got[i] != want[i] {
				n = i + 1
				break
			}
		}
	}
	var most time.Duration
	for i := range n {
		most = max(most, (l[i].at-e[i].at).Abs()+l[i].took)
	}
	return most
}

// keptPrefix reports whether after starts with before's events: a step
// that replayed the story from the top would lose the holds between moves.
func keptPrefix(before, after []sim.Event) bool {
	if len(after) < len(before) {
		return false
	}
	for i, e := range before {
		if a := after[i]; a.Kind != e.Kind || a.Cmd != e.Cmd || a.Note != e.Note || a.Move != e.Move {
			return false
		}
	}
	return true
}

// TestCancelledReplayHoldsTheClock: esc during a live step back, in the
// middle of a wait, starts the story again from the top (a wait cut short
// is not the story's), with the clock held.
func TestCancelledReplayHoldsTheClock(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	// ÷10: the 32 s wait is 3.2 s of wire, so the 100 ms below lands
	// inside it even when a loaded machine oversleeps
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(10))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	a := openScene(t, b, "gc-pause", 1, 80, 24, "nnnn")
	cmd := a.pl.seekTo(a.pl.Snap.Pos - 1) // a step back replays from the start, waits included
	done := make(chan tea.Msg)
	go func() { done <- cmd() }()
	time.Sleep(100 * time.Millisecond) // inside the 32 s wait
	if !a.pl.Cancel() {
		t.Fatal("esc should cancel the replay")
	}
	runCmd(t, a, func() tea.Msg { return <-done })
	if !a.pl.Snap.Held || a.pl.Busy || a.pl.Snap.Pos != 0 {
		t.Errorf("a cancelled replay starts the story again, held: pos %d, held %v, busy %v", a.pl.Snap.Pos, a.pl.Snap.Held, a.pl.Busy)
	}
	for _, e := range a.pl.Snap.Events {
		if e.Kind == sim.Clock {
			t.Errorf("a wait cut short is not the story's: %s", e.Note)
		}
	}
}
