package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
)

// TestLastTimeWithinASession: the learner finished claim-lease last
// time; this time they play gc-pause, fencing and timeout, each a few
// steps, going back to the contents (esc) between them. Each time the
// contents' "last time" names the scene and step just left (it kept
// saying "claim-lease, step N" until a restart), and after a restart it
// says the same as just before it.
func TestLastTimeWithinASession(t *testing.T) {
	lead := func(a *App) string {
		t.Helper()
		f := contentsFoot(a.View())
		if !a.onContents() || !strings.HasPrefix(f, "last time: ") {
			t.Fatalf("the contents should offer a last time: %q\n%s", f, a.View())
		}
		return f[:strings.Index(f, " · ")]
	}
	a, store := openCourse(t, Options{Seed: 3, NoQuiz: true, Scene: "claim-lease"}, "")
	for range 40 {
		drive(t, a, keys("n")...)
	}
	end := a.pl.Snap.Pos
	a.SaveProgress()

	b, _ := openCourse(t, Options{Seed: 3, NoQuiz: true, Store: store}, "")
	if got, want := lead(b), fmt.Sprintf("last time: claim-lease, step %d", end); got != want {
		t.Fatalf("after claim-lease the contents say %q, want %q", got, want)
	}
	for i, id := range []string{"gc-pause", "fencing", "timeout"} {
		b.toc.menu.FilterInput.Cursor.SetMode(cursor.CursorStatic) // a blink's command runs for ever
		drive(t, b, keys("/"+id+"[enter]")...)
		if b.onContents() || b.pl.Scene.ID != id {
			t.Fatalf("/%s enter opened no %s:\n%s", id, id, b.View())
		}
		drive(t, b, keys(strings.Repeat("n", i+1))...)
		step := b.pl.Snap.Pos
		drive(t, b, keys("[esc]")...)
		if got, want := lead(b), fmt.Sprintf("last time: %s, step %d", id, step); got != want {
			t.Errorf("back on the contents from %s: %q, want %q", id, got, want)
		}
	}
	before := lead(b)
	b.SaveProgress()
	c, _ := openCourse(t, Options{Seed: 3, NoQuiz: true, Store: store}, "")
	if got := lead(c); got != before {
		t.Errorf("after a restart the contents say %q; before it they said %q", got, before)
	}
}
