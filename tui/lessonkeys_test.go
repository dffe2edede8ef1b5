package tui

import (
	"fmt"
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

// TestLessonPlaceOnKeysPage: in a lesson (-scenes) the keys page says the
// scene's place in the lesson, not in the course ("scene 9 of 14"), and
// the help line offers > next scene on every scene of the lesson but its
// last, where > stays (play.PastLesson).
func TestLessonPlaceOnKeysPage(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true, Scenes: []string{"fencing", "gc-pause", "redlock"}}, "")
	for i, id := range []string{"fencing", "gc-pause", "redlock"} {
		if got := a.course.Scenes[a.course.At].ID; got != id {
			t.Fatalf("the lesson's scene %d is %s, want %s", i+1, got, id)
		}
		v := a.View()
		last := i == 2
		if strings.Contains(v, "> next scene") == last {
			t.Errorf("%s (last of the lesson %v): help line offers > next scene %v:\n%s", id, last, !last, v)
		}
		drive(t, a, keys("?")...)
		want := fmt.Sprintf("keys · scene %d of 3 of the lesson", i+1)
		if v := a.View(); !strings.Contains(v, want) {
			t.Errorf("%s: the keys page lacks %q:\n%s", id, want, v)
		}
		drive(t, a, keys("?>")...)
	}
	// without a lesson the keys page says the place in the course
	b, _ := openCourse(t, Options{Seed: 1, NoQuiz: true, Scene: "gc-pause"}, "?")
	want := fmt.Sprintf("keys · scene %d of %d", b.course.At+1, len(b.course.Scenes))
	if v := b.View(); !strings.Contains(v, want) || strings.Contains(v, "of the lesson") {
		t.Errorf("gc-pause outside a lesson: the keys page lacks %q:\n%s", want, v)
	}
}
