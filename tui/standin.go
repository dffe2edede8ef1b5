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

// standin is what every page standing in for the class view shares,
// opened by one of its keys: the summary (S), the poll whole (V), the
// class view's keys (?) and the school roster (m). Its keys are here once,
// so each page says and does the same: its own key or esc gives the class
// view back, l goes to the scene, q quits, ↑↓[] scroll (where it scrolls),
// and a resize is the class view's, which it is drawn beside. How it draws
// its lines is here once too (frame), so a fix to scrolling is one fix.
type standin struct {
	com *Common
	// back is the class view it stands in for
	back Component
	// open is the class view's key that opened it; it or esc closes it
	open key.Binding
	// top is the first line on screen; rows how many the last View had
	top, rows int
}

// standinPage is a stand-in page that shows lines (the summary, the poll
// whole, the class view's keys): they differ only in what they show and
// whether it scrolls.
type standinPage struct {
	standin
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
}

// standinMove scrolls a stand-in page that scrolls.
var standinMove = views.Bind("↑↓[]", "scroll", "up", "down", "[", "]")

// sessionSize is the session's screen, the size the summary and the keys
// page draw at.
func sessionSize(com *Common) func() (int, int) {
	return func() (int, int) { return com.Width, com.Height }
}

// closeKey is the page's own key and esc.
func (s *standin) closeKey() key.Binding {
	return views.Bind(s.open.Help().Key+"/esc", "class view", append(slices.Clone(s.open.Keys()), "esc")...)
}

func (s *standin) Init() tea.Cmd { return nil }

func (s *standin) SetSize(w, h int) { s.back.SetSize(w, h) }

// sharedKey does what the keys every stand-in page shares do, for the
// page self: its own key or esc gives the class view back, l the scene,
// q quits. done is false for any other key, which is the page's own.
func (s *standin) sharedKey(self Component, k tea.KeyMsg) (next Component, cmd tea.Cmd, done bool) {
	switch {
	case key.Matches(k, s.closeKey()):
		return s.back, nil, true
	case key.Matches(k, s.com.Keys.Desk):
		return nil, nil, true // l: the scene, as from the class view
	case key.Matches(k, s.com.Keys.Quit):
		return self, quit, true // q: as its help line says
	}
	return self, nil, false
}

// scroll moves the first line on screen by k: ↑↓ a line, [ ] page lines.
func (s *standin) scroll(k tea.KeyMsg, page int) {
	if step, ok := rowStep(k, max(page, 1)); ok {
		s.top = max(s.top+step, 0)
	}
}

// keyMap is the page's own keys, lead, then the ones every stand-in
// shares.
func (s *standin) keyMap(lead ...key.Binding) help.KeyMap {
	k := s.com.Keys
	bs := append(slices.Clone(lead), s.closeKey(), short(k.Desk, "l", "scene"), short(k.Quit, "q", "quit"))
	return keyList{short: bs, full: [][]key.Binding{bs}}
}

// frame is a page w x h: head (one row or more), its lines under it, and
// the help line of km. Where it scrolls, it shows as many lines as fit
// from top, keeping line cur on screen (none if cur < 0), with a line
// saying how many more there are; else it cuts them at the screen's foot.
func (s *standin) frame(head string, lines []string, scrolls bool, cur, w, h int, km help.KeyMap) string {
	st := s.com.Styles
	if scrolls {
		// a head of more than one row (the roster's says whom enter
		// matches) takes its rows from the lines'
		lines, s.top, s.rows = scrollRows(st, lines, s.top, cur, h-strings.Count(head, "\n"), w)
	}
	help := truncate(views.OneLine(st.Dim, views.HelpLine(km.ShortHelp())), w)
	return fitRows(head+"\n"+strings.Join(lines, "\n"), h-1) + "\n" + help
}

func (p *standinPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	if next, cmd, done := p.sharedKey(p, k); done {
		return next, cmd
	}
	if p.scrolls {
		p.scroll(k, p.rows)
	}
	return p, nil
}

func (p *standinPage) KeyMap() help.KeyMap {
	if p.scrolls {
		return p.keyMap(standinMove)
	}
	return p.keyMap()
}

// View is the page's title, as many of its lines as fit (with a line
// saying how many more there are, where it scrolls), and the help line.
func (p *standinPage) View() string {
	w, h := p.size()
	title, lines := p.body(w)
	return p.frame(title, lines, p.scrolls, -1, w, h, p.KeyMap())
}

// scrollRows are the rows of lines that a page h rows high shows under
// its title row and over its help line, from line top: all of them when
// they fit; else as many as fit and a last row saying how many lines are
// below and above, and the keys that scroll. A cursor on line cur (none
// if cur < 0) stays on screen: top moves only as far as it needs. It
// returns top as it stands (no further than the last page) and how many
// of lines it shows, the rows [ and ] move by (the roster's cursor too).
func scrollRows(st views.Styles, lines []string, top, cur, h, w int) (body []string, at, rows int) {
	rows = max(h-2, 1)
	if len(lines) > rows {
		rows-- // the row saying what is above and below
	}
	if cur >= 0 {
		top = max(min(top, cur), cur-rows+1)
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
		body = append(body, views.OneLine(st.Dim, truncate("… "+strings.Join(more, ", ")+" · ↑↓[] scroll", w)))
	}
	return body, at, rows
}

// standsFor reports c a stand-in page opened by the class view's key open.
func standsFor(c Component, open key.Binding) bool {
	p, ok := c.(*standinPage)
	return ok && slices.Equal(p.open.Keys(), open.Keys())
}
