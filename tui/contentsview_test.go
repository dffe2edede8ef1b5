package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
)

// TestContentsViewIsTheList: the contents' list, drawn again only when
// what it is drawn from changed (menuView), is at every turn the list as
// drawn afresh: moving the selection, paging, a filter typed, applied and
// dropped, a resize and marks rebuilt.
func TestContentsViewIsTheList(t *testing.T) {
	a, err := NewCourse(embedded(t), Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	if !a.onContents() {
		t.Fatalf("not on the contents:\n%s", a.View())
	}
	toc := a.toc
	toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // no blink: drive runs no timers
	check := func(after string) {
		t.Helper()
		_ = a.View() // the view a frame draws, keeping the list's
		fresh := strings.TrimRight(toc.list().View(), "\n")
		if got := strings.TrimRight(toc.menuView(), "\n"); got != fresh {
			t.Fatalf("after %s the contents show\n%s\nwhere the list is\n%s", after, got, fresh)
		}
	}
	check("opening")
	steps := []struct {
		what string
		msgs []tea.Msg
	}{
		{"down", keys("[down]")},
		{"down twice more", keys("[down][down]")},
		{"up", keys("[up]")},
		{"a page down", keys("[pgdown]")},
		{"home", keys("[home]")},
		{"a filter typed", keys("/lea")},
		{"the filter applied", []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}}},
		{"down in the filter", keys("[down]")},
		{"the filter dropped", keys("[esc]")},
		{"a resize", []tea.Msg{tea.WindowSizeMsg{Width: 100, Height: 30}}},
		{"down at the new size", keys("[down]")},
	}
	for _, s := range steps {
		drive(t, a, s.msgs...)
		check(s.what)
	}
	toc.refreshMenu()
	check("the marks rebuilt")
}
