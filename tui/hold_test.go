package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"

	tea "github.com/charmbracelet/bubbletea"
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
			scale := max(4, int(scenes.Find(c.id).Shortest/(500*time.Millisecond)))
			b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(scale))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close(context.Background()) })
			live := openScene(t, b, c.id, 1, 80, 24, c.presses)
			emb := openScene(t, embedded(t), c.id, 1, 80, 24, c.presses)
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
						if c.id != "crash-gap" {
							t.Errorf("a held key shows PTTL -1: %+v", k)
						}
					}
				}
			}
			got, want := storyReplies(live.pl.Snap), storyReplies(emb.pl.Snap)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("live replies differ from the embedded server's:\n%s\n--- embedded ---\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if !shown {
				t.Errorf("no step held a TTL:\n%s", live.View())
			}
		})
	}
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
