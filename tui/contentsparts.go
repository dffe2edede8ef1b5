package tui

import (
	"fmt"
	"io"

	"github.com/charmbracelet/bubbles/list"

	"locksim/play"
)

// noOrphans is items with a blank row (an empty partItem) before any
// part's heading that would stand last on a page of perPage items: a
// heading opens the page of its first scene.
func noOrphans(items []list.Item, perPage int) []list.Item {
	if perPage < 2 {
		return items
	}
	var out []list.Item
	for _, it := range items {
		if p, ok := it.(partItem); ok && p.n > 0 && len(out)%perPage == perPage-1 {
			out = append(out, partItem{})
		}
		out = append(out, it)
	}
	return out
}

// line is the heading as drawn.
// FilterValue is empty: a filter lists the scenes it matches, no headings.
func (partItem) FilterValue() string { return "" }

func (p partItem) line() string {
	if p.n == 0 {
		return "" // a blank row that keeps a heading off a page's foot
	}
	return fmt.Sprintf("part %d · %s · about %s min", p.n, p.Title, p.Minutes)
}

// labPart is the index of the lab's part in parts, -1 for none.
func labPart(parts []play.Part) int {
	for i, p := range parts {
		if p.Lab {
			return i
		}
	}
	return -1
}

func (d partDelegate) Render(w io.Writer, m list.Model, index int, item list.Item) {
	if p, ok := item.(partItem); ok {
		fmt.Fprint(w, d.head.Render(truncate(p.line(), max(m.Width()-1, 1))))
		return
	}
	d.DefaultDelegate.Render(w, m, index, item)
}

// skipHeading moves the selection off a part's heading, on in the way it
// moved from before (an index of the visible items), or back when the
// list ends that way.
func skipHeading(m *list.Model, before int) {
	items, i := m.VisibleItems(), m.Index()
	if i < 0 || i >= len(items) {
		return
	}
	if _, ok := items[i].(partItem); !ok {
		return
	}
	dir := 1
	if i < before {
		dir = -1
	}
	for _, d := range []int{dir, -dir} {
		for j := i; j >= 0 && j < len(items); j += d {
			if _, ok := items[j].(partItem); !ok {
				m.Select(j)
				return
			}
		}
	}
}

// menuDrawn is the contents' list as last drawn, and what it was drawn
// from.
type menuDrawn struct {
	from menuState
	view string
}

// menuState is what the list's view is drawn from, as a value to compare:
// its items (a new slice for every change, never changed in place), those
// a filter leaves, the selection and page, its size, its title and its
// filter. Every message of a session costs a view, and on the contents
// most (the scene's run under them, the spinner's ticks, a class's
// roster) leave the list as it was.
type menuState struct {
	items, visible        *list.Item
	nItems, nVisible      int
	cursor, page, perPage int
	pages, width, height  int
	filter                list.FilterState
	filterValue, title    string
}

// menuView is the list's view: drawn again only when what it is drawn
// from changed, and each time while a filter is typed (its cursor
// blinks).
func (t *Contents) menuView() string {
	m := t.list()
	if m.FilterState() == list.Filtering {
		t.drawn = menuDrawn{}
		return m.View()
	}
	items, visible := m.Items(), m.VisibleItems()
	now := menuState{nItems: len(items), nVisible: len(visible), cursor: m.Cursor(), page: m.Paginator.Page,
		perPage: m.Paginator.PerPage, pages: m.Paginator.TotalPages, width: m.Width(), height: m.Height(),
		filter: m.FilterState(), filterValue: m.FilterValue(), title: m.Title}
	if len(items) > 0 {
		now.items = &items[0]
	}
	if len(visible) > 0 {
		now.visible = &visible[0]
	}
	if t.drawn.view == "" || t.drawn.from != now {
		t.drawn = menuDrawn{from: now, view: m.View()}
	}
	return t.drawn.view
}
