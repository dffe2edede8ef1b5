package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/class"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// deskRoom is an instructor's class view at 80x24, with room's ways in
// and o's course (no scene: l on the contents, so none is led).
func deskRoom(t *testing.T, room Classroom, o Options) member {
	t.Helper()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	room.Join, room.Now = "ssh -p 2222 "+info.Code+"@localhost", atClassNow
	teacher := joinRoom(t, hub, info.Code, class.Instructor, "teacher", "teacher", o, 80, 24, room)
	drive(t, teacher.a, keys("l")...)
	if !isDesk(teacher.a.pages.top()) {
		t.Fatalf("l opened no class view:\n%s", teacher.a.View())
	}
	return teacher
}

// fits fails unless screen v is at most 80x24 and cuts no line (…).
func fits(t *testing.T, what, v string) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) > 24 {
		t.Errorf("%s: %d rows, want 24 at most:\n%s", what, len(lines), v)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 80 || strings.Contains(l, "…") {
			t.Errorf("%s: a line over 80 columns or cut: %q", what, l)
		}
	}
}

// TestClassViewKeysPage: ? in the class view opens the class view's own
// keys page, with or without a scene led (not a scene's presenter keys):
// every class-view key has a line (W, I, and P and R while watching),
// whole at 80x24; the footer says "? keys" within 80 columns; ? again
// gives the class view back.
func TestClassViewKeysPage(t *testing.T) {
	tab := func() (string, time.Duration) { return "", time.Minute }
	for _, o := range []Options{{Seed: 4}, {Seed: 4, Scene: "race", Present: true}} {
		m := deskRoom(t, Classroom{TabLink: tab, Projector: "http://localhost:8080/p/abc"}, o)
		v := m.a.View()
		if foot := v[strings.LastIndex(v, "\n")+1:]; !strings.Contains(foot, "? keys") || ansi.StringWidth(foot) > 80 || strings.Contains(foot, "…") {
			t.Errorf("scene %q: the footer does not say ? keys whole within 80 columns: %q", o.Scene, foot)
		}
		drive(t, m.a, keys("?")...)
		v = m.a.View()
		fits(t, "the keys page", v)
		if !isClassKeys(m.a.pages.top()) || strings.Contains(v, "presenter") {
			t.Fatalf("scene %q: ? opened no class-view keys page:\n%s", o.Scene, v)
		}
		for _, want := range []string{"↑ ↓", "[ ]", "enter", "W ", "P ", "R ", "F ", "H ", "S ", "m ", "I ", "→ ←", "l ", "? ", "q "} {
			found := false
			for _, l := range strings.Split(views.Strip(v), "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), want) && len(strings.TrimSpace(l)) > len(want)+5 {
					found = true
				}
			}
			if !found {
				t.Errorf("scene %q: no line for %q on the keys page:\n%s", o.Scene, want, v)
			}
		}
		drive(t, m.a, keys("?")...)
		if _, ok := m.a.pages.top().(*deskPage); !ok {
			t.Fatalf("scene %q: ? again did not give the class view back:\n%s", o.Scene, m.a.View())
		}
	}
}

// TestTabLinkSaysWhy: I with no link made says the one true cause in a
// line that fits 80 columns: no web page when the server serves none (no
// projector link either), too many unused links otherwise.
func TestTabLinkSaysWhy(t *testing.T) {
	tab := func() (string, time.Duration) { return "", time.Minute }
	for _, c := range []struct{ projector, want, not string }{
		{"", "serves no web page", "too many"},
		{"http://localhost:8080/p/abc", "too many unused links", "web page"},
	} {
		m := deskRoom(t, Classroom{TabLink: tab, Projector: c.projector}, Options{Seed: 4})
		drive(t, m.a, keys("I")...)
		v := m.a.View()
		fits(t, "I's note", v)
		foot := v[strings.LastIndex(v, "\n")+1:]
		if !strings.Contains(foot, c.want) || strings.Contains(foot, c.not) {
			t.Errorf("projector %q: I says %q; want %q, not %q", c.projector, foot, c.want, c.not)
		}
	}
}

// TestClassViewNoSceneNoNotes: before any scene is led the class view
// shows no scene's speaker notes nor its answer key (the race under the
// contents is no scene of the class's); once race is led, its notes are
// there.
func TestClassViewNoSceneNoNotes(t *testing.T) {
	m := deskRoom(t, Classroom{}, Options{Seed: 4})
	if v := m.a.View(); strings.Contains(v, "answer key") || strings.Contains(v, "race") || !strings.Contains(v, "no notes yet") {
		t.Errorf("no scene led, yet the class view shows a scene's notes:\n%s", v)
	}
	led := deskRoom(t, Classroom{}, Options{Seed: 4, Scene: "race", Present: true})
	if v := led.a.View(); !strings.Contains(v, "answer key") {
		t.Errorf("race led, and the class view shows no answer key:\n%s", v)
	}
}
