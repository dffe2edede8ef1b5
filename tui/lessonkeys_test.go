package tui

import (
	"strings"
	"testing"
)

// TestLessonKeysWithoutPresenter: -scenes is a learner's lesson too, not
// only a presenter's: > and < go through its scenes in its order, and past
// its ends they stay in it and say so. Before, without -present the list
// opened its first scene and was then ignored: > from fencing opened
// timeout, the course's next, not redlock; and > from the list's last
// opened the course's next scene (choose after redlock), its ending
// naming it.
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
	drive(t, a, a.pl.seekTo(len(a.pl.Snap.Moves))())
	if e, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); !ok || e.Next != "" || !e.LessonOver {
		t.Errorf("the lesson's last scene's end names the next scene %q (ending %v, lesson over %v), want none", e.Next, ok, e.LessonOver)
	}
	drive(t, a, keys(">")...)
	if at() != "redlock" || !strings.Contains(a.View(), "the end of the lesson") {
		t.Errorf("> from the lesson's last opened %s, want redlock and the end of the lesson said:\n%s", at(), a.View())
	}
	drive(t, a, keys("<")...)
	if at() != "fencing" {
		t.Errorf("< from redlock opened %s, want the lesson's previous, fencing", at())
	}
	drive(t, a, keys("<")...)
	if at() != "fencing" || !strings.Contains(a.View(), "the first scene of the lesson") {
		t.Errorf("< from the lesson's first opened %s, want fencing and the lesson's start said:\n%s", at(), a.View())
	}
}
