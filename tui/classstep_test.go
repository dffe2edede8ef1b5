package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"

	tea "github.com/charmbracelet/bubbletea"
)

// TestClassViewStepSaysWhoAnswered: from the class view (l), the
// instructor's first → at the question while one of two students has not
// answered runs nothing and says how many have, in the class view; the
// note goes with the next key, and a second → runs the move.
func TestClassViewStepSaysWhoAnswered(t *testing.T) {
	t.Parallel()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	teacher := joinAs(t, hub, code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 100, 30)
	ann := joinAs(t, hub, code, class.Student, "k-ann", "ann", Options{Seed: 2}, 100, 30)
	bob := joinAs(t, hub, code, class.Student, "k-bob", "bob", Options{Seed: 3}, 100, 30)
	drive(t, teacher.a, keys("F")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	if !teacher.a.pl.Asking {
		t.Fatalf("the instructor is not at the question (step %d, question before %d)", teacher.a.pl.Snap.Pos, at)
	}
	for _, s := range []member{ann, bob} {
		hear(t, s, "the instructor at the question", leadAt("gc-pause", at))
		drive(t, s.a, keys("F")...)
	}
	drive(t, ann.a, keys("1")...)
	hear(t, teacher, "ann's prediction", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Prediction != nil }))
	if bob := teacher.a.cls.row("k-bob"); !bob.Following || bob.Pos.Step != at {
		hear(t, teacher, "bob at the question", rowOf("k-bob", func(m class.Member) bool { return m.Following && m.Pos.Step == at }))
	}

	right := tea.KeyMsg{Type: tea.KeyRight}
	const note = "1 of 2 have answered · → again to step"
	drive(t, teacher.a, keys("l")...)
	if v := teacher.a.View(); !isDesk(teacher.a.pages.top()) || strings.Contains(v, note) {
		t.Fatalf("l did not open the class view, or it says the note before any step:\n%s", v)
	}
	drive(t, teacher.a, right)
	v := teacher.a.View()
	if teacher.a.pl.Snap.Pos != at || !teacher.a.pl.Asking {
		t.Fatalf("the first → with bob's answer missing ran the move (at %d, asking %v)", teacher.a.pl.Snap.Pos, teacher.a.pl.Asking)
	}
	if !isDesk(teacher.a.pages.top()) || !strings.Contains(v, note) {
		t.Fatalf("the class view does not say who has answered after the first →:\n%s", v)
	}
	screenFits(t, v, 100, 30)

	// the note goes with the next key (a pick), and the help line is back
	drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyDown})
	if v := teacher.a.View(); strings.Contains(v, note) || !strings.Contains(v, "pick") {
		t.Errorf("the note outlived the next key:\n%s", v)
	}
	// the pick was a key, but no new answer: the second → runs the move
	drive(t, teacher.a, right)
	for _, s := range []member{ann, bob} {
		hear(t, s, "the move", leadAt("gc-pause", at+1))
	}
	if teacher.a.pl.Snap.Pos != at+1 {
		t.Fatalf("the second → did not run the move: at %d, want %d", teacher.a.pl.Snap.Pos, at+1)
	}
}
