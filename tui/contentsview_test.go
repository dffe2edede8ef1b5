package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
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

// TestContentsSizedOnce: the contents, sized again at the same size on
// every message without the list paging again (Contents.SetSize), show
// at every turn what the list sized afresh shows, its paging and its keys:
// moving, paging, the keys page, a filter typed, applied and dropped, a
// resize and back, a scene played and the contents again, marks rebuilt.
func TestContentsSizedOnce(t *testing.T) {
	a, err := NewCourse(embedded(t), Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	toc := a.toc
	toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // no blink: drive runs no timers
	check := func(after string) {
		t.Helper()
		if !a.onContents() {
			t.Fatalf("after %s not on the contents:\n%s", after, a.View())
		}
		got := a.View()
		m := toc.list()
		enabled := func() string {
			k := m.KeyMap
			var on []string
			for _, b := range []key.Binding{k.CursorUp, k.CursorDown, k.NextPage, k.PrevPage, k.GoToStart, k.GoToEnd, k.Filter,
				k.ClearFilter, k.CancelWhileFiltering, k.AcceptWhileFiltering, k.ShowFullHelp, k.CloseFullHelp, k.Quit, k.ForceQuit} {
				on = append(on, fmt.Sprintf("%v %v", b.Keys(), b.Enabled()))
			}
			return strings.Join(on, ", ")
		}
		keysOn := enabled()
		m.SetSize(m.Width(), m.Height()) // paged again, at the size it has
		if fresh := a.View(); got != fresh {
			t.Fatalf("after %s the contents show\n%s\nwhere the list paged afresh shows\n%s", after, got, fresh)
		}
		if fresh := enabled(); keysOn != fresh {
			t.Fatalf("after %s the list's keys are %s, paged afresh %s", after, keysOn, fresh)
		}
		if m.Width() != a.com.Width || m.Height() != a.com.Height-footRows(a.View()) {
			t.Fatalf("after %s the list is %dx%d at a %dx%d screen", after, m.Width(), m.Height(), a.com.Width, a.com.Height)
		}
	}
	check("opening")
	steps := []struct {
		what string
		msgs []tea.Msg
	}{
		{"down", keys("[down]")},
		{"a page down", keys("[pgdown]")},
		{"the keys page and back", keys("?[esc]")},
		{"home", keys("[home]")},
		{"a filter typed", keys("/lea")},
		{"the filter applied", []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}}},
		{"down in the filter", keys("[down]")},
		{"the filter dropped", keys("[esc]")},
		{"a resize", []tea.Msg{tea.WindowSizeMsg{Width: 100, Height: 30}}},
		{"down at the new size", keys("[down]")},
		{"the old size again", []tea.Msg{tea.WindowSizeMsg{Width: 80, Height: 24}}},
		{"a page down at the old size", keys("[pgdown]")},
		{"a scene played and the contents again", keys("[home][enter] [esc]")},
	}
	for _, s := range steps {
		drive(t, a, s.msgs...)
		check(s.what)
	}
	toc.refreshMenu()
	check("the marks rebuilt")
}
