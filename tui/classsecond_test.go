package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"
)

// TestSecondInstructorSessionKeepsTheClassView: of two sessions of one
// instructor key in one class, the second's l opens the class view and
// it stays open when the first moves the class (a step): the scene under it moves, the view stays
// on top. A fresh user found the second session's l opened a scene
// instead, the first's place taking its class view away.
func TestSecondInstructorSessionKeepsTheClassView(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	first := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 80, 24)
	second := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 2}, 80, 24)
	drive(t, second.a, keys("l")...)
	if !isDesk(second.a.pages.top()) {
		t.Fatalf("l on the second session's contents opened no class view:\n%s", second.a.View())
	}
	drive(t, first.a, keys("nn")...)
	hear(t, second, "the first session's step 2", leadAt("fencing", 2))
	if v := second.a.View(); !isDesk(second.a.pages.top()) || !strings.Contains(v, "class "+info.Code) {
		t.Fatalf("the first session's move closed the second's class view:\n%s", v)
	}
	if got := second.a.pl.Scene.ID; got != "fencing" || second.a.pl.Snap.Pos != 2 {
		t.Fatalf("under the class view the second session is at %s step %d, want fencing step 2", got, second.a.pl.Snap.Pos)
	}
	drive(t, second.a, keys("l")...)
	if isDesk(second.a.pages.top()) || second.a.onContents() || second.a.pl.Scene.ID != "fencing" {
		t.Fatalf("l again should give back the scene the class is at:\n%s", second.a.View())
	}
}
