package tui

import (
	"testing"

	"locksim/play"
)

// TestSceneResumes: -scene gc-pause, two steps, quit; -scene gc-pause
// again (Resume: no -seed, -step or -set) opens at step 2 with the same
// seed, and quitting at once keeps step 2 as the saved place (a fresh
// start at step 0 overwrote it). -scene with a step given opens there.
// The first scene of a lesson (-scenes) resumes the same way.
func TestSceneResumes(t *testing.T) {
	a, store := openCourse(t, Options{Seed: 11, Scene: "gc-pause", NoQuiz: true, Resume: true}, "nn")
	if a.pl.Snap.Pos != 2 {
		t.Fatalf("two n should be step 2: %d", a.pl.Snap.Pos)
	}
	a.SaveProgress()
	saved := func() play.Position {
		t.Helper()
		p, err := store.Load()
		if err != nil {
			t.Fatal(err)
		}
		pos, err := play.ParsePosition(p.Places["gc-pause"])
		if err != nil {
			t.Fatalf("no saved place for gc-pause: %v", err)
		}
		return pos
	}
	if pos := saved(); pos.Step != 2 || pos.Seed != 11 {
		t.Fatalf("saved place %+v, want step 2 seed 11", pos)
	}
	b, _ := openCourse(t, Options{Seed: 22, Scene: "gc-pause", NoQuiz: true, Resume: true, Store: store}, "")
	if b.pl.Snap.Pos != 2 || b.pl.Seed != 11 {
		t.Fatalf("-scene gc-pause again opened at step %d seed %d, want step 2 seed 11", b.pl.Snap.Pos, b.pl.Seed)
	}
	b.SaveProgress()
	if pos := saved(); pos.Step != 2 || pos.Seed != 11 {
		t.Fatalf("after reopening and quitting, saved place %+v, want step 2 seed 11", pos)
	}
	l, _ := openCourse(t, Options{Seed: 33, Scenes: []string{"gc-pause", "fencing"}, NoQuiz: true, Resume: true, Store: store}, "")
	if l.pl.Scene.ID != "gc-pause" || l.pl.Snap.Pos != 2 {
		t.Fatalf("-scenes gc-pause,fencing opened %s at step %d, want gc-pause at 2", l.pl.Scene.ID, l.pl.Snap.Pos)
	}
	c, _ := openCourse(t, Options{Seed: 22, Scene: "gc-pause", Step: 1, NoQuiz: true, Store: store}, "")
	if c.pl.Snap.Pos != 1 {
		t.Fatalf("-scene gc-pause -step 1 opened at step %d", c.pl.Snap.Pos)
	}
}
