package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"

	tea "github.com/charmbracelet/bubbletea"
)

// TestContentsKeysListTheClassKeys: the contents' ? page lists the keys
// of the session's role in the class that work there: the instructor's l
// (the class view) and F (ask to follow), a student's F; none on a
// terminal of one's own.
func TestContentsKeysListTheClassKeys(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1}, 80, 24)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 80, 24)
	alone, err := NewCourse(embedded(t), Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { alone.Shutdown(context.Background()) })
	drive(t, alone, tea.WindowSizeMsg{Width: 80, Height: 24})
	desk, askFollow, follow := "the class: roster, poll, notes", "ask the class to follow, or stop", "follow the instructor, or leave"
	for _, c := range []struct {
		name      string
		a         *App
		want, not []string
	}{
		{"the instructor", teacher.a, []string{desk, askFollow}, []string{follow}},
		{"a student", ann.a, []string{follow}, []string{desk, askFollow}},
		{"a terminal of one's own", alone, nil, []string{desk, askFollow, follow}},
	} {
		if !c.a.onContents() {
			t.Fatalf("%s is not on the contents:\n%s", c.name, c.a.View())
		}
		drive(t, c.a, keys("?")...)
		v := c.a.View()
		on := v[:strings.Index(v, "in a scene")] // the contents' own keys
		for _, w := range c.want {
			if !strings.Contains(on, w) {
				t.Errorf("%s's contents keys page does not list %q:\n%s", c.name, w, v)
			}
		}
		for _, w := range c.not {
			if strings.Contains(v, w) {
				t.Errorf("%s's contents keys page lists %q:\n%s", c.name, w, v)
			}
		}
	}
}
