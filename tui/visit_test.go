package tui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"locksim/class"
	"locksim/play"
	"locksim/scenes/progress"

	tea "github.com/charmbracelet/bubbletea"
)

// savedPlace reads the place a store keeps, for a test: its position.
func savedPlace(t *testing.T, st play.Store) (progress.Progress, play.Position) {
	t.Helper()
	p, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	pos, err := play.ParsePosition(p.Place)
	if err != nil {
		t.Fatalf("the saved place %s: %v", p.Place, err)
	}
	return p, pos
}

// TestShownRunIsNotTheInstructorsPlace: the instructor stands at
// gc-pause before its question and puts a student's run (their seed,
// their prediction) on screen from the class view, then quits. The saved
// place is still the instructor's own, without the student's prediction,
// and reopening it asks the question again. Before, the shown run became
// the instructor's saved place, whose question was never asked again.
func TestShownRunIsNotTheInstructorsPlace(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	store := &progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Store: store}, 100, 32)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 5, Scene: "gc-pause"}, 100, 32)
	at := ann.a.pl.Scene.PredictAt(ann.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat("n", at-1))...)
	own := teacher.a.pl.Position()
	drive(t, ann.a, keys(strings.Repeat("n", at)+"1")...) // the answer runs the move: ann stands at at+1
	if ann.a.pl.Guess != 0 || !ann.a.pl.Revealed {
		t.Fatalf("ann's run: guess %d, revealed %v", ann.a.pl.Guess, ann.a.pl.Revealed)
	}
	hear(t, teacher, "ann's prediction", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Prediction != nil && m.Pos.Step == at+1 }))
	drive(t, teacher.a, keys("l[enter]")...)
	if p := teacher.a.pl.Position(); p.Seed != 5 || p.Step != at+1 || p.Prediction == nil {
		t.Fatalf("the instructor shows %+v, want ann's run", p)
	}
	if v := teacher.a.View(); !strings.Contains(v, "showing ann's run · esc goes back to your own place") {
		t.Errorf("the shown run does not say how to go back:\n%s", v)
	}
	teacher.a.SaveProgress()
	p, pos := savedPlace(t, store)
	if pos.Scene != "gc-pause" || pos.Step != own.Step || pos.Seed != 1 || pos.Prediction != nil || p.Moment.Seed != 1 {
		t.Fatalf("the instructor's saved place is %+v (moment %+v), want their own gc-pause at step %d, seed 1, no prediction", pos, p.Moment, own.Step)
	}
	if _, ok := p.Answers["gc-pause"]; ok {
		t.Errorf("ann's prediction was kept as the instructor's answer: %v", p.Answers)
	}

	// reopened, the instructor's place asks its question again
	again, _ := openCourse(t, Options{Store: store}, "[enter]")
	if again.pl.Scene.ID != "gc-pause" || again.pl.Snap.Pos != own.Step || again.pl.Guess != -1 {
		t.Fatalf("reopened at %s step %d, guess %d", again.pl.Scene.ID, again.pl.Snap.Pos, again.pl.Guess)
	}
	drive(t, again, keys("n")...)
	if !again.pl.Asking {
		t.Errorf("the instructor's own place does not ask its question again:\n%s", again.View())
	}
}

// TestEscLeavesTheShownRun: esc on a student's run shown on the
// instructor's screen goes back to the instructor's own place, as it was.
func TestEscLeavesTheShownRun(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 4, Scene: "release"}, 80, 24)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 5, Scene: "fencing"}, 80, 24)
	drive(t, teacher.a, keys("nnn")...)
	own := teacher.a.pl.Position()
	drive(t, ann.a, keys("nnnn")...)
	hear(t, teacher, "ann's row", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Scene == "fencing" && m.Pos.Step == 4 }))
	drive(t, teacher.a, keys("l[enter]nn")...)
	if p := teacher.a.pl.Position(); p.Scene != "fencing" || p.Step != 6 {
		t.Fatalf("the shown run is at %s %d, want fencing 6", p.Scene, p.Step)
	}
	drive(t, teacher.a, keys("[esc]")...)
	if p := teacher.a.pl.Position(); p.Scene != own.Scene || p.Step != own.Step || p.Seed != own.Seed || teacher.a.onContents() {
		t.Fatalf("esc went to %+v (contents %v), want the instructor's own %+v", p, teacher.a.onContents(), own)
	}
	if teacher.a.course.Visiting() != play.NotVisiting || strings.Contains(teacher.a.View(), "esc goes back") {
		t.Errorf("still visiting after esc:\n%s", teacher.a.View())
	}
}

// TestStoryCodeIsAVisit: a story code opened over a saved place says it
// is a visit; a question answered in it, and the place, are not the
// learner's: quitting leaves the saved place as it was, and esc goes back
// to it.
func TestStoryCodeIsAVisit(t *testing.T) {
	first, store := openCourse(t, Options{Seed: 7, Scene: "fencing"}, "nnn")
	first.SaveProgress()
	code := play.Position{Version: play.PositionVersion, Scene: "race", Seed: 9}
	a, _ := openCourse(t, Options{Seed: 1, Position: &code, Visit: true, Store: store}, "")
	if a.onContents() || a.pl.Scene.ID != "race" || !a.pl.Asking {
		t.Fatalf("the code opened %s (contents %v, asking %v)", a.pl.Scene.ID, a.onContents(), a.pl.Asking)
	}
	if v := a.View(); !strings.Contains(v, "visiting a story code · 1-3 predict · esc back to your place · ? keys · q quit") {
		t.Errorf("the code does not say it is a visit:\n%s", v)
	}
	drive(t, a, keys("2")...)
	if a.pl.Asking || a.pl.Guess != 1 {
		t.Fatalf("the answer in the code: asking %v, guess %d", a.pl.Asking, a.pl.Guess)
	}
	a.SaveProgress()
	p, pos := savedPlace(t, store)
	if pos.Scene != "fencing" || pos.Step != 3 || pos.Seed != 7 || p.Moment.Scene != "fencing" || p.Moment.Step != 3 {
		t.Fatalf("after the code the saved place is %+v (moment %+v), want fencing at step 3, seed 7", pos, p.Moment)
	}
	if _, ok := p.Answers["race"]; ok || p.Done["race"] {
		t.Errorf("the code's answer counted as the learner's: %v %v", p.Answers, p.Done)
	}
	if v := a.View(); !strings.Contains(v, "visiting a story code · esc goes back to your own place") {
		t.Errorf("no visit line after the answer:\n%s", v)
	}
	drive(t, a, keys("[esc]")...)
	if a.onContents() || a.pl.Scene.ID != "fencing" || a.pl.Snap.Pos != 3 || a.pl.Seed != 7 {
		t.Fatalf("esc from the code went to %s at %d, seed %d (contents %v), want fencing at 3, seed 7", a.pl.Scene.ID, a.pl.Snap.Pos, a.pl.Seed, a.onContents())
	}
	if strings.Contains(a.View(), "visiting") {
		t.Errorf("the own place still says visiting:\n%s", a.View())
	}
}

// TestFollowerKeepsTheirOwnPlace: a student at their own release, step 2,
// follows the instructor to fencing. Quitting while following, or after
// leaving follow mode and stepping on, saves their own place, not the
// instructor's; esc after leaving goes back to it.
func TestFollowerKeepsTheirOwnPlace(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	store := &progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 100, 32)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2, Scene: "release", Store: store}, 100, 32)
	drive(t, ann.a, keys("nn")...)
	drive(t, teacher.a, keys("F")...)
	hear(t, ann, "the instructor asking", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
	drive(t, ann.a, keys("F")...)
	drive(t, teacher.a, keys("nnnn")...)
	hear(t, ann, "the instructor's step 4", leadAt("fencing", 4))
	if p := ann.a.pl.Position(); p.Scene != "fencing" || p.Step != 4 {
		t.Fatalf("the follower is at %s %d, want fencing 4", p.Scene, p.Step)
	}
	wantOwn := func(when string) {
		t.Helper()
		ann.a.SaveProgress()
		p, pos := savedPlace(t, store)
		if pos.Scene != "release" || pos.Step != 2 || pos.Seed != 2 || p.Moment.Scene != "release" {
			t.Errorf("%s: the saved place is %+v (moment %+v), want ann's own release at step 2", when, pos, p.Moment)
		}
	}
	wantOwn("quitting while following")

	drive(t, ann.a, keys("F")...) // leaves follow mode, still at the instructor's place
	if v := ann.a.View(); !strings.Contains(v, "visiting the instructor's place · esc goes back to your own place") {
		t.Errorf("no visit line after leaving follow mode:\n%s", v)
	}
	drive(t, ann.a, keys("n")...)
	if ann.a.pl.Scene.ID != "fencing" || ann.a.pl.Snap.Pos != 5 {
		t.Fatalf("a step after leaving follow mode: %s %d", ann.a.pl.Scene.ID, ann.a.pl.Snap.Pos)
	}
	wantOwn("quitting after leaving follow mode")

	drive(t, ann.a, keys("[esc]")...)
	if p := ann.a.pl.Position(); p.Scene != "release" || p.Step != 2 || p.Seed != 2 || ann.a.onContents() {
		t.Fatalf("esc went to %+v (contents %v), want ann's own release at step 2", p, ann.a.onContents())
	}
	// back home, stepping is the learner's own again
	drive(t, ann.a, keys("n")...)
	ann.a.SaveProgress()
	if _, pos := savedPlace(t, store); pos.Scene != "release" || pos.Step != 3 {
		t.Errorf("an own step after going home saved %+v, want release at step 3", pos)
	}
}

// TestContentsKeepTheSavedPlace: opened on the contents, locksim stands
// the first scene under them, which is nobody's place. Quitting from the
// contents keeps the saved place (gc-pause at step 5); following the
// instructor from there and pressing esc goes back to it, not to the first
// scene's start; and picking the first scene opens it as the learner's.
func TestContentsKeepTheSavedPlace(t *testing.T) {
	store := &progress.Store{Path: filepath.Join(t.TempDir(), "progress.json")}
	place := func() {
		a, err := NewCourse(embedded(t), Options{Seed: 3, Scene: "gc-pause", Step: 5, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
		runCmd(t, a, a.Init())
		a.SaveProgress()
		a.Shutdown(context.Background())
	}
	place()
	if _, pos := savedPlace(t, store); pos.Scene != "gc-pause" || pos.Step != 5 {
		t.Fatalf("the saved place: %+v", pos)
	}

	a, err := NewCourse(embedded(t), Options{Seed: 3, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	runCmd(t, a, a.Init())
	if !a.onContents() {
		t.Fatal("locksim did not open on the contents")
	}
	a.SaveProgress()
	if _, pos := savedPlace(t, store); pos.Scene != "gc-pause" || pos.Step != 5 {
		t.Errorf("quitting from the contents saved %+v over gc-pause at step 5", pos)
	}

	// a visit from the contents, then esc: the saved place, not scene 1's start
	lead := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 8, Step: 2}
	old := a.pl.Run
	s, err := a.course.Visit(play.VisitCode, lead, a.pl.Session)
	if err != nil {
		t.Fatal(err)
	}
	a.setPlayer(s)
	a.pages.closeAt(1)
	runCmd(t, a, a.pl.Start(old))
	if a.pl.Scene.ID != "fencing" {
		t.Fatalf("the visit opened %s", a.pl.Scene.ID)
	}
	a.SaveProgress()
	if _, pos := savedPlace(t, store); pos.Scene != "gc-pause" || pos.Step != 5 {
		t.Errorf("a visit from the contents saved %+v over gc-pause at step 5", pos)
	}
	drive(t, a, keys("[esc]")...)
	if !a.onContents() && (a.pl.Scene.ID != "gc-pause" || a.pl.Snap.Pos != 5) {
		t.Errorf("esc from the visit went to %s at step %d, not the saved place or the contents", a.pl.Scene.ID, a.pl.Snap.Pos)
	}
}
