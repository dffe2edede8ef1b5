package tui

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/x/ansi"

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

// Title is the entry's row: its mark, number, id, title and dive, and
// how the learner fared.
func (e entry) Title() string {
	mark := e.mark()
	// the prediction's outcome on the title's row: the summary has two
	// rows and fills them
	guess := ""
	if e.answered && e.score == nil {
		guess = map[bool]string{true: " · predicted right", false: " · predicted wrong"}[e.answeredRight]
	}
	if e.left != "" {
		guess = " · last time: " + e.left
	}
	t := fmt.Sprintf("%s%-11s %s · %s%s", mark, e.id, e.title, e.dive, guess)
	if e.width > 0 && ansi.StringWidth(t) > e.width-2 {
		// the dive is on the scene's own page: the title stays whole
		t = fmt.Sprintf("%s%-11s %s%s", mark, e.id, e.title, guess)
	}
	if e.width > 0 && ansi.StringWidth(t) > e.width-2 && e.left != "" {
		// the lab's place is the lab's to offer once opened
		t = fmt.Sprintf("%s%-11s %s", mark, e.id, e.title)
	}
	return t
}

// mark is the start of the entry's row, before its id: whether it was
// played to the end, and its number (none for the lab's).
func (e entry) mark() string {
	mark := "·"
	if e.done {
		mark = "✓"
	}
	n := fmt.Sprintf("%2d", e.n)
	if e.lab {
		n = "  "
	}
	return mark + " " + n + "  "
}

func (e entry) Description() string {
	if e.desc == nil {
		return e.description()
	}
	e.desc.once.Do(func() { e.desc.s = e.description() })
	return e.desc.s
}

// description is Description, worked out.
func (e entry) description() string {
	d := "    " + e.summary
	if e.score != nil {
		// first: a summary fills the line, and the score is the news
		d = fmt.Sprintf("    %d of %d right · %s", e.score.Right, e.score.Of, e.summary)
	}
	if e.width <= 0 {
		return d
	}
	// two rows, wrapped under the title, each indented as the first
	rows := strings.Split(e.st.Wrap(strings.TrimLeft(d, " "), e.width-2-4, entryRows-1), "\n")
	for i := range rows {
		rows[i] = "    " + rows[i]
	}
	return strings.TrimRight(strings.Join(rows, "\n"), " \n")
}
