package tui

import (
	"fmt"
	"strings"

	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// classKeysKey opens the class view's own keys page (a scene's ? page
// lists the scene's keys, not these).
var (
	classKeysKey   = key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys"))
	classKeysClose = key.NewBinding(key.WithKeys("?", "esc"), key.WithHelp("?/esc", "class view"))
)

// classKeysPage is the class view's keys page (? in the class view):
// every key of the class view with a line each, and the keys a watch of
// a student's screen takes. It stands in for the class view, as the
// summary does, and fits 80x24 whole.
type classKeysPage struct {
	a *session
	// back is the class view it stands in for
	back Component
}

func (p *classKeysPage) Init() tea.Cmd { return nil }

func (p *classKeysPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(k, classKeysClose):
		return p.back, nil
	case key.Matches(k, p.a.com.Keys.Desk):
		return nil, nil // l: the scene, as from the class view
	case key.Matches(k, p.a.com.Keys.Quit):
		return p, quit
	}
	return p, nil
}

func (p *classKeysPage) SetSize(w, h int) { p.back.SetSize(w, h) }

func (p *classKeysPage) KeyMap() help.KeyMap {
	bs := []key.Binding{classKeysClose, short(p.a.com.Keys.Desk, "l", "scene"), short(p.a.com.Keys.Quit, "q", "quit")}
	return keyList{short: bs, full: [][]key.Binding{bs}}
}

// classKeyLines are the class view's keys, a line each: the key and what
// it does. A key the class cannot use here says when it works (the tab
// link without -web, the school roster without -roster).
func classKeyLines() [][2]string {
	return [][2]string{
		{"↑ ↓", "pick a student on the roster"},
		{"[ ]", "pick a page of the roster up or down"},
		{"enter", "show the picked student's run (esc: back to your own place)"},
		{"W", "watch the picked student's screen live (over SSH or in a tab)"},
		{"  P", "while watching: ask the student to pair (type on their screen)"},
		{"  R", "while watching: ask to show their screen to the room (again: off)"},
		{"  esc", "while watching: back to your own screen"},
		{"F", "ask the class to follow your place (again: stop asking)"},
		{"H", "hold the class: followers stay on your place (again: release it)"},
		{"S", "the summary: each student's progress, the class's answers"},
		{"V", "the poll whole: the question's setup, every choice, the counts"},
		{"m", "the school roster against the class (with -roster)"},
		{"I", "a one-time link to this view in a browser tab (with -web)"},
		{"→ ←", "step the scene you lead, beside the class view"},
		{"l", "back to the scene (or the contents)"},
		{"?", "this page (? or esc: back to the class view)"},
		{"q", "quit"},
	}
}

// View is the page's title, its keys, and the help line, within the
// screen's rows.
func (p *classKeysPage) View() string {
	st, w, h := p.a.com.Styles, p.a.com.Width, p.a.com.Height
	lines := []string{views.Rule(st, "class view keys", w)}
	for _, kl := range classKeyLines() {
		lines = append(lines, truncate(st.Bold.Render(fmt.Sprintf("%-7s", kl[0]))+" "+kl[1], w))
	}
	lines = append(lines, "", truncate("The scene's own keys are on its ? page, from the scene (l).", w))
	lines = clip(lines, h-1)
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n") + "\n" + truncate(st.Dim.Render(views.HelpLine(p.KeyMap().ShortHelp())), w)
}

// isClassKeys reports the class view's keys page.
func isClassKeys(c Component) bool {
	_, ok := c.(*classKeysPage)
	return ok
}
