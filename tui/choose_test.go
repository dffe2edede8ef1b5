package tui

import (
	"context"
	"locksim/sim/simtest"
	"path/filepath"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/scenes/progress"

	tea "github.com/charmbracelet/bubbletea"
)

// openQuiz opens choose through the course (the quiz asks, as it does for
// a learner) at w x h, with progress in a temporary file, and presses keys.
func openQuiz(t *testing.T, o Options, w, h int, presses string) (*App, *progress.Store) {
	t.Helper()
	store, _ := o.Store.(*progress.Store)
	if store == nil {
		store = &progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
		o.Store = store
	}
	o.Scene, o.Seed = "choose", 1
	a, err := NewCourse(embedded(t), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	runCmd(t, a, a.Init())
	drive(t, a, keys(presses)...)
	return a, store
}

// TestChooseScoreIsSaved: the score goes to the progress once every
// situation is answered, not before; an answer given stays; home starts
// a fresh attempt whose score replaces the last; no command was sent.
func TestChooseScoreIsSaved(t *testing.T) {
	// all right but the fourth (answered e, it is c) and the last (1 for c)
	a, store := openQuiz(t, Options{}, 80, 24, "enenc")
	if a.pl.OpenQuiz().At != 2 || a.pl.OpenQuiz().Answers[0] != int(scenes.Efficiency) || a.pl.OpenQuiz().Answers[1] != int(scenes.Efficiency) || a.pl.OpenQuiz().Answers[2] != int(scenes.Correctness) {
		t.Fatalf("e, n, e, n, c: at %d, answers %v", a.pl.OpenQuiz().At, a.pl.OpenQuiz().Answers)
	}
	drive(t, a, keys("e")...)
	if a.pl.OpenQuiz().Answers[2] != int(scenes.Correctness) || !strings.Contains(a.View(), "already answered") {
		t.Errorf("a second answer must not replace the first: %v\n%s", a.pl.OpenQuiz().Answers, a.View())
	}
	drive(t, a, keys("nen1[right]cne")...)
	if p, _ := store.Load(); len(p.Scores) != 0 || p.Done["choose"] {
		t.Fatalf("with one situation left, nothing is scored yet: %+v", p)
	}
	drive(t, a, keys("n1")...)
	p, err := store.Load()
	if err != nil || p.Scores["choose"] != (progress.Score{Right: 6, Of: 8}) || !p.Done["choose"] {
		t.Fatalf("progress after the last answer: %+v %v (answers %v)", p, err, a.pl.OpenQuiz().Answers)
	}
	drive(t, a, keys("n")...)
	if v := strings.ReplaceAll(a.View(), "\n", " "); !strings.Contains(v, "6 of 8 sorted right") {
		t.Errorf("the score page should say 6 of 8:\n%s", a.View())
	}
	// a fresh attempt, all right
	drive(t, a, keys("[home]enenc nc ne nc ne nc")...)
	if p, _ := store.Load(); p.Scores["choose"] != (progress.Score{Right: 8, Of: 8}) {
		t.Errorf("the second attempt's score should replace the first: %+v (answers %v)", p.Scores, a.pl.OpenQuiz().Answers)
	}
	if n := len(a.pl.Snap.Events); n != 0 {
		t.Errorf("a quiz sends no command, but the run logged %d events", n)
	}
	// the contents say the score
	drive(t, a, keys("[esc]")...)
	if !a.onContents() || !strings.Contains(a.View(), "8 of 8 right") {
		t.Errorf("the contents should show the quiz's score:\n%s", a.View())
	}
}

// TestChooseNavigation: → and ← move between situations and the score
// page and stop at both ends; keys that mean nothing in a quiz say so; the
// answers survive a visit to another scene.
func TestChooseNavigation(t *testing.T) {
	a, _ := openQuiz(t, Options{}, 80, 24, "[left]b")
	if a.pl.OpenQuiz().At != 0 {
		t.Fatalf("← on the first situation stays there: %d", a.pl.OpenQuiz().At)
	}
	drive(t, a, keys("nnnnnnnnnnn")...)
	if _, ok := a.pages.top().(*endingPage); !ok {
		t.Fatalf("→ past the score should open the quiz's ending:\n%s", a.View())
	}
	drive(t, a, keys("[esc]")...)
	if a.pl.OpenQuiz().At != 8 || !strings.Contains(a.View(), "your score") {
		t.Fatalf("→ past the last situation stops at the score: %d\n%s", a.pl.OpenQuiz().At, a.View())
	}
	drive(t, a, keys("[left]c")...)
	if a.pl.OpenQuiz().At != 7 || a.pl.OpenQuiz().Answers[7] != int(scenes.Correctness) {
		t.Fatalf("← from the score is the last situation: %d %v", a.pl.OpenQuiz().At, a.pl.OpenQuiz().Answers)
	}
	for _, k := range []string{"x", " ", "3"} {
		drive(t, a, keys(k)...)
		if !strings.Contains(a.View(), "does nothing") {
			t.Errorf("%q should say it does nothing in a quiz:\n%s", k, a.View())
		}
	}
	drive(t, a, keys("<>")...)
	if a.pl.Scene.ID != "choose" || a.pl.OpenQuiz().At != 7 || a.pl.OpenQuiz().Answers[7] != int(scenes.Correctness) {
		t.Errorf("back from another scene the quiz is as it was: %s at %d, %v", a.pl.Scene.ID, a.pl.OpenQuiz().At, a.pl.OpenQuiz().Answers)
	}
	drive(t, a, keys("h")...)
	if strings.Contains(a.View(), "hint:") {
		t.Errorf("an answered situation needs no hint:\n%s", a.View())
	}
	drive(t, a, keys("[left]hh")...)
	if v := a.View(); !strings.Contains(v, "hint: Picture") || !strings.Contains(v, "hint: Read the assumption") {
		t.Errorf("h twice shows both hints:\n%s", v)
	}
}

// TestChoosePresenterAndNoQuiz: the clicker shows each situation's key to
// the class, then moves on, and nothing is scored; with -no-quiz the key
// is shown at once and the answers are refused.
func TestChoosePresenterAndNoQuiz(t *testing.T) {
	a, store := openQuiz(t, Options{Present: true}, 80, 24, "")
	for range 16 {
		drive(t, a, keys(".")...)
	}
	if a.pl.OpenQuiz().At != 8 || !strings.Contains(strings.ReplaceAll(a.View(), "\n", " "), "shown without answers") {
		t.Fatalf("sixteen clicks show eight keys and reach the score:\n%s", a.View())
	}
	if p, _ := store.Load(); len(p.Scores) != 0 {
		t.Errorf("a key shown to the class is no answer: %+v", p.Scores)
	}
	b, _ := openQuiz(t, Options{NoQuiz: true}, 80, 24, "e")
	if b.pl.OpenQuiz().Answers[0] != -1 || !strings.Contains(b.View(), "The key: an efficiency lock.") {
		t.Errorf("-no-quiz shows the key and takes no answer: %v\n%s", b.pl.OpenQuiz().Answers, b.View())
	}
}

// TestGoldensChoose draws the quiz at 80x24 and 120x40: a question, an
// answered one (wrong, so the verdict says both), and the final score.
func TestGoldensChoose(t *testing.T) {
	cases := []struct{ name, presses string }{
		{"choose-question", "nn"},
		{"choose-answered", "nne"},
		{"choose-score", "enencncnenenencn"}, // the sixth wrong
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a, _ := openQuiz(t, Options{}, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}

// TestChooseSaysTheWayOn: once a situation is answered the screen says
// that → goes on (at 80 columns the help line leaves → out for the
// answers' keys), and not before; on the last situation → goes to the
// score.
func TestChooseSaysTheWayOn(t *testing.T) {
	a, _ := openQuiz(t, Options{}, 80, 24, "")
	if v := a.View(); strings.Contains(v, "→ next situation") {
		t.Errorf("before the answer the way on is no news:\n%s", v)
	}
	drive(t, a, keys("e")...)
	if v := a.View(); !strings.Contains(v, "→ next situation") {
		t.Errorf("answered, the screen does not say → goes on:\n%s", v)
	}
	drive(t, a, keys("nnnnnnnc")...)
	if v := a.View(); a.pl.OpenQuiz().At != 7 || !strings.Contains(v, "→ the score") {
		t.Errorf("the last situation answered, the screen does not say → shows the score:\n%s", v)
	}
}
