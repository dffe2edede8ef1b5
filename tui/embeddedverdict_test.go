package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/sim"
	"locksim/sim/simtest"

	tea "github.com/charmbracelet/bubbletea"
)

// TestEmbeddedOnlyAnswerNotJudgedLive: a prediction saved on the embedded
// server for Redlock's clock jump, opened again on a live server (which
// cannot play the jump, so the story asks nothing there), is not judged
// against the live replies: no verdict on it is shown, and the settings
// line says the story needs the embedded server.
func TestEmbeddedOnlyAnswerNotJudgedLive(t *testing.T) {
	a, store := openCourse(t, Options{Seed: 1, Scene: "redlock"}, "kkkk")
	for i := 0; i < 40 && !a.pl.Asking; i++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("the clock jump never asks its question:\n%s", a.View())
	}
	if !strings.Contains(a.View(), "clock jump") {
		t.Fatalf("k four times should pick the clock jump:\n%s", a.View())
	}
	drive(t, a, keys("1")...)
	if !a.pl.Revealed {
		t.Fatalf("the answer on the embedded server was not judged:\n%s", a.View())
	}
	a.SaveProgress()

	b, err := sim.OpenLive(context.Background(), simtest.StartRedis(t), simtest.LiveOptions(10))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	l, err := NewCourse(b, Options{Seed: 1, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Shutdown(context.Background()) })
	drive(t, l, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, l, l.Init())
	drive(t, l, keys("[enter]")...) // the contents open where the learner left
	v := l.View()
	flat := strings.Join(strings.Fields(v), " ")
	if l.pl.Actual >= 0 || strings.Contains(flat, "the replies say") || strings.Contains(flat, "You predicted") || !strings.Contains(flat, "needs the embedded server") {
		t.Errorf("on a live server the clock jump's saved answer: judged %d, at step %d\n%s", l.pl.Actual, l.pl.Snap.Pos, v)
	}
}
