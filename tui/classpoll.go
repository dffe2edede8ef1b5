package tui

import (
	"fmt"
	"strings"

	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// pollPage is the class view's poll whole (V in the class view, which it
// stands in for, as the summary does): the question the instructor's
// story asks with all of its setup, every choice whole with its counts,
// and the lesson's earlier polls, scrolled where a screen is too short
// for them. The class view shows as much of the poll as its rows allow
// and says how many lines it leaves to this page. It draws the desk's
// poll as the class stands now, so it follows the answers as they come.
type pollPage struct {
	board *Desk
	// back is the class view it stands in for
	back Component
	// top is the first line on screen; rows how many the last View had
	top, rows int
}

var (
	pollKey   = key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "poll"))
	pollClose = key.NewBinding(key.WithKeys("V", "esc"), key.WithHelp("V/esc", "class view"))
	pollMove  = key.NewBinding(key.WithKeys("up", "down", "[", "]"), key.WithHelp("↑↓[]", "scroll"))
)

func (p *pollPage) Init() tea.Cmd { return nil }

func (p *pollPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(k, pollClose):
		return p.back, nil
	case key.Matches(k, p.board.com.Keys.Desk):
		return nil, nil // l: the scene, as from the class view
	case key.Matches(k, p.board.com.Keys.Quit):
		return p, quit // q: as its help line says
	}
	if step, ok := rowStep(k, max(p.rows, 1)); ok {
		p.top = max(p.top+step, 0)
	}
	return p, nil
}

func (p *pollPage) SetSize(w, h int) { p.back.SetSize(w, h) }

func (p *pollPage) KeyMap() help.KeyMap {
	k := p.board.com.Keys
	bs := []key.Binding{pollMove, pollClose, short(k.Desk, "l", "scene"), short(k.Quit, "q", "quit")}
	return keyList{short: bs, full: [][]key.Binding{bs}}
}

// View is the page's title, as many of the poll's lines as fit with a
// line saying how many more there are, and the help line, at the class
// view's size.
func (p *pollPage) View() string {
	d := p.board
	st, w, h := d.com.Styles, d.w, d.h
	title := truncate(st.Title.Render("class "+d.code)+" · the poll whole", w)
	var body []string
	body, p.top, p.rows = scrollRows(st, d.pollLines(), p.top, h, w)
	help := truncate(st.Dim.Render(views.HelpLine(p.KeyMap().ShortHelp())), w)
	return fitRows(title+"\n"+strings.Join(body, "\n"), h-1) + "\n" + help
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

// isPollPage reports the class view's poll page.
func isPollPage(c Component) bool {
	_, ok := c.(*pollPage)
	return ok
}
