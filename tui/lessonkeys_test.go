package tui

import (
	"testing"
)

// TestLessonKeysWithoutPresenter: -scenes is a learner's lesson too, not
// only a presenter's: > and < go through its scenes in its order, and past
// its ends the course's order goes on. Before, without -present the list
// opened its first scene and was then ignored: > from fencing opened
// timeout, the course's next, not redlock.
func TestLessonKeysWithoutPresenter(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true, Scenes: []string{"fencing", "redlock"}}, "")
	at := func() string { return a.course.Scenes[a.course.At].ID }
	if at() != "fencing" {
		t.Fatalf("the lesson opened at %s, want fencing", at())
	}
	drive(t, a, a.pl.seekTo(len(a.pl.Snap.Moves))())
	if e, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); !ok || e.Next != "redlock" {
		t.Errorf("fencing's end names the next scene %q (ending %v), want the lesson's, redlock", e.Next, ok)
	}
	drive(t, a, keys(">")...)
	if at() != "redlock" {
		t.Errorf("> from fencing opened %s, want the lesson's next, redlock", at())
	}
	drive(t, a, keys("<")...)
	if at() != "fencing" {
		t.Errorf("< from redlock opened %s, want the lesson's previous, fencing", at())
	}
	drive(t, a, keys("<")...)
	if at() != "gc-pause" {
		t.Errorf("< from the lesson's first opened %s, want the course's previous, gc-pause", at())
	}
}
