package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
)

// TestLabKeepsLastTime: a learner plays gc-pause to step 2, goes to the
// lab and plays a break there by hand, and quits in it. Next time the
// contents offer "last time: gc-pause, step 2" (they offered "lab, step
// 0"), and enter opens gc-pause at step 2 (it opened race); the lab's own
// line says where its story was left, and the lab, when opened, brings it
// back. A learner who then opens only the lab,
// leaves its story and quits keeps the same last time, and the lab opens
// on its page.
func TestLabKeepsLastTime(t *testing.T) {
	toLab := func(a *App) {
		a.toc.menu.FilterInput.Cursor.SetMode(cursor.CursorStatic) // a blink's command runs for ever
		drive(t, a, keys("/lab[enter]")...)
	}
	lastTime := func(a *App, want string) {
		t.Helper()
		if f := contentsFoot(a.View()); !a.onContents() || !strings.HasPrefix(f, "last time: "+want+" · ") {
			t.Fatalf("the contents should offer last time %q: %q\n%s", want, f, a.View())
		}
	}
	a, store := openCourse(t, Options{Seed: 3, NoQuiz: true, Scene: "gc-pause"}, "nn")
	if a.pl.Snap.Pos != 2 {
		t.Fatalf("gc-pause at step %d, want 2", a.pl.Snap.Pos)
	}
	drive(t, a, keys("[esc]")...)
	toLab(a)
	drive(t, a, labPresses("[enter][enter]")...)
	if !a.labStory {
		t.Fatalf("enter, enter on the lab's first level should play its break by hand:\n%s", a.View())
	}
	a.SaveProgress()

	b, _ := openCourse(t, Options{Seed: 3, NoQuiz: true, Store: store}, "")
	lastTime(b, "gc-pause, step 2")
	if e := b.toc.labEntry(); !strings.Contains(e.Title(), "last time: a story at step 0") {
		t.Errorf("the lab's line should say its own last time: %q", e.Title())
	}
	drive(t, b, keys("[enter]")...)
	if b.onContents() || b.pl.Scene.ID != "gc-pause" || b.pl.Snap.Pos != 2 {
		t.Fatalf("enter should open gc-pause at step 2, not %s at %d:\n%s", b.pl.Scene.ID, b.pl.Snap.Pos, b.View())
	}
	drive(t, b, keys("[esc]")...)
	toLab(b)
	if !b.labStory || b.pl.LabPlace() == nil {
		t.Fatalf("the lab should bring its story back:\n%s", b.View())
	}

	c, _ := openCourse(t, Options{Seed: 3, NoQuiz: true, Store: store}, "")
	toLab(c)
	drive(t, c, labPresses("[esc]")...)
	if c.labStory || c.labPage() == nil {
		t.Fatalf("esc should leave the lab's story for the lab:\n%s", c.View())
	}
	c.SaveProgress()
	d, _ := openCourse(t, Options{Seed: 3, NoQuiz: true, Store: store}, "")
	lastTime(d, "gc-pause, step 2")
	if e := d.toc.labEntry(); strings.Contains(e.Title(), "last time") {
		t.Errorf("the lab's story was left, yet its line offers it: %q", e.Title())
	}
	toLab(d)
	if d.labStory || d.labPage() == nil {
		t.Fatalf("the lab's story was left: the lab should open on its page:\n%s", d.View())
	}
}
