package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// standinPage is a page that stands in for the class view, opened by one
// of its keys: the summary (S), the poll whole (V), the class view's keys
// (?). They differ only in what they show and whether it scrolls; the
// keys they share are here once, so each says and does the same: its own
// key or esc gives the class view back, l goes to the scene, q quits, and
// a resize is the class view's, which it is drawn beside.
type standinPage struct {
	com *Common
	// back is the class view it stands in for
	back Component
	// open is the class view's key that opened it; it or esc closes it
	open key.Binding
	// scrolls: ↑↓[] scroll lines longer than the screen; a page that
	// does not scroll is cut at the screen's foot (the keys page fits
	// 80x24 whole)
	scrolls bool
	// size is the size it draws at: the poll's lines are the desk's,
	// wrapped to the desk's size, so it draws at that; the others at the
	// session's
	size func() (w, h int)
	// body is its title row and the lines under it, w columns wide
	body func(w int) (title string, lines []string)
	// top is the first line on screen; rows how many the last View had
	top, rows int
}

// standinMove scrolls a stand-in page that scrolls.
var standinMove = key.NewBinding(key.WithKeys("up", "down", "[", "]"), key.WithHelp("↑↓[]", "scroll"))

// sessionSize is the session's screen, the size the summary and the keys
// page draw at.
func sessionSize(com *Common) func() (int, int) {
	return func() (int, int) { return com.Width, com.Height }
}

// closeKey is the page's own key and esc.
func (p *standinPage) closeKey() key.Binding {
	return key.NewBinding(key.WithKeys(append(slices.Clone(p.open.Keys()), "esc")...), key.WithHelp(p.open.Help().Key+"/esc", "class view"))
}

func (p *standinPage) Init() tea.Cmd { return nil }

func (p *standinPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(k, p.closeKey()):
		return p.back, nil
	case key.Matches(k, p.com.Keys.Desk):
		return nil, nil // l: the scene, as from the class view
	case key.Matches(k, p.com.Keys.Quit):
		return p, quit // q: as its help line says
	}
	if step, ok := rowStep(k, max(p.rows, 1)); ok && p.scrolls {
		p.top = max(p.top+step, 0)
	}
	return p, nil
}

func (p *standinPage) SetSize(w, h int) { p.back.SetSize(w, h) }

func (p *standinPage) KeyMap() help.KeyMap {
	k := p.com.Keys
	bs := []key.Binding{p.closeKey(), short(k.Desk, "l", "scene"), short(k.Quit, "q", "quit")}
	if p.scrolls {
		bs = append([]key.Binding{standinMove}, bs...)
	}
	return keyList{short: bs, full: [][]key.Binding{bs}}
}

// View is the page's title, as many of its lines as fit (with a line
// saying how many more there are, where it scrolls), and the help line.
func (p *standinPage) View() string {
	st := p.com.Styles
	w, h := p.size()
	title, lines := p.body(w)
	if p.scrolls {
		lines, p.top, p.rows = scrollRows(st, lines, p.top, h, w)
	}
	help := truncate(st.Dim.Render(views.HelpLine(p.KeyMap().ShortHelp())), w)
	return fitRows(title+"\n"+strings.Join(lines, "\n"), h-1) + "\n" + help
}

// scrollRows are the rows of lines that a page h rows high shows under
// its title and over its help line, from line top: all of them when they
// fit; else as many as fit and a last row saying how many lines are
// below and above, and the keys that scroll. It returns top as it stands
// (no further than the last page) and how many of lines it shows, the
// rows [ and ] move by.
func scrollRows(st views.Styles, lines []string, top, h, w int) (body []string, at, rows int) {
	rows = max(h-2, 1)
	if len(lines) > rows {
		rows-- // the row saying what is above and below
	}
	at = min(max(top, 0), max(len(lines)-rows, 0))
	body = lines[at:min(at+rows, len(lines))]
	if len(lines) > rows+1 || at > 0 {
		var more []string
		if below := len(lines) - at - len(body); below > 0 {
			more = append(more, fmt.Sprintf("%d more lines below", below))
		}
		if at > 0 {
			more = append(more, fmt.Sprintf("%d above", at))
		}
		body = append(body, st.Dim.Render(truncate("… "+strings.Join(more, ", ")+" · ↑↓[] scroll", w)))
	}
	return body, at, rows
}

// standsFor reports c a stand-in page opened by the class view's key open.
func standsFor(c Component, open key.Binding) bool {
	p, ok := c.(*standinPage)
	return ok && slices.Equal(p.open.Keys(), open.Keys())
}
