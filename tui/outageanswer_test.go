package tui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/sim/simtest"

	tea "github.com/charmbracelet/bubbletea"
)

// TestAnswerDuringOutageIsRefused: the server dies while a story's
// question is open (lost-reply, release), before the heartbeat has
// noticed or after: the answer is refused with a line saying it waits
// for the server, and the question stays open with everything it hides
// still hidden (the bar's "N/?", the keys); once the server is back and
// the story replayed, it is asked again, and an answer is judged on the
// replies of a move the server answered.
func TestAnswerDuringOutageIsRefused(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"lost-reply", "release"} {
		for _, noticed := range []bool{false, true} {
			name := id + "/before-the-heartbeat"
			if noticed {
				name = id + "/after-the-heartbeat"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv := simtest.StartServer(t)
				b := openFlaky(t, srv, simtest.LiveTimeout)
				a := openLiveCourse(t, b, id)
				for i := 0; i < 40 && !a.pl.Asking; i++ {
					drive(t, a, keys("n")...)
				}
				if !a.pl.Asking {
					t.Fatalf("%s never asks its question:\n%s", id, a.View())
				}
				at := a.pl.Snap.Pos
				srv.Stop()
				if noticed {
					waitBanner(t, a, "server unreachable")
				}
				drive(t, a, keys("1")...)
				d := a.pl.Disclose(play.Learner)
				v := a.View()
				if !d.Open || !a.pl.Asking || a.pl.Guess >= 0 || a.pl.Snap.Pos != at || !strings.Contains(v, "/?") {
					t.Errorf("an answer during the outage: open %v, asking %v, guess %d, at step %d (question at %d):\n%s", d.Open, a.pl.Asking, a.pl.Guess, a.pl.Snap.Pos, at, v)
				}
				if !strings.Contains(strings.Join(strings.Fields(v), " "), "your answer waits until it is back") {
					t.Errorf("the refusal should say why:\n%s", v)
				}
				srv.Start()
				waitBanner(t, a, "the server is back")
				if !a.pl.Asking || a.pl.Snap.Pos != at || a.pl.Revealed {
					t.Fatalf("after recovery: asking %v, at step %d (question at %d), revealed %v\n%s", a.pl.Asking, a.pl.Snap.Pos, at, a.pl.Revealed, a.View())
				}
				drive(t, a, keys("1")...)
				if !a.pl.Revealed || a.pl.Snap.Pos != at+1 || a.pl.Err != "" {
					t.Errorf("the answer after recovery: revealed %v, at step %d, err %q\n%s", a.pl.Revealed, a.pl.Snap.Pos, a.pl.Err, a.View())
				}
			})
		}
	}
}

// openLiveCourse opens the course at scene id on backend b, predictions
// on, its progress in a temporary file.
func openLiveCourse(t *testing.T, b *sim.Backend, id string) *App {
	t.Helper()
	store := &progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	a, err := NewCourse(b, Options{Seed: 1, Scene: id, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	return a
}

// TestPlaybackAtOutageDoesNotAsk: space plays lost-reply towards its
// question and the server dies on the way: the move that reaches the
// question is made with its commands refused, playback pauses, and the
// question is not asked on that state (the keys, the replies were never
// read); once the server is back the replay asks it.
func TestPlaybackAtOutageDoesNotAsk(t *testing.T) {
	t.Parallel()
	srv := simtest.StartServer(t)
	b := openFlaky(t, srv, simtest.LiveTimeout)
	a := openLiveCourse(t, b, "lost-reply")
	at := a.pl.QuestionAt()
	for a.pl.Snap.Pos < at-2 {
		drive(t, a, keys("n")...)
	}
	// space: the first move runs while the server answers; the next, to
	// the question, after it has stopped
	_, cmd := a.Update(keys(" ")[0])
	replies := runReplies(cmd)
	srv.Stop()
	drive(t, a, replies...)
	if a.pl.Asking || a.pl.Playing || !a.pl.Disclose(play.Learner).Open {
		t.Errorf("playback into the outage: asking %v, playing %v, at step %d (question at %d), err %q\n%s", a.pl.Asking, a.pl.Playing, a.pl.Snap.Pos, at, a.pl.Err, a.View())
	}
	srv.Start()
	waitBanner(t, a, "the server is back")
	if a.pl.Snap.Pos == at && !a.pl.Asking {
		t.Errorf("the replay to the question should ask it:\n%s", a.View())
	}
}
