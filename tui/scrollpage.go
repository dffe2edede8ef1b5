package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"locksim/views"
)

// scrollPageUpdate is the keys of a page that is only read (the glossary,
// the contents' keys): back pops self, quit quits, the rest scroll page.
func scrollPageUpdate(self Component, page *viewport.Model, keys glossaryKeys, msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, keys.Back):
			return nil, nil
		case key.Matches(msg, keys.Quit):
			return self, quit
		}
		*page, _ = page.Update(msg)
	case tea.MouseMsg:
		*page, _ = page.Update(msg)
	}
	return self, nil
}

// scrollPageView draws such a page w columns wide: its rule named title,
// the page, and its keys' line, with how far it is scrolled when it does
// not fit.
func scrollPageView(st views.Styles, w int, title string, page viewport.Model, keys glossaryKeys) string {
	line := views.HelpLine(keys.ShortHelp())
	if !page.AtTop() || !page.AtBottom() {
		line = fmt.Sprintf("%d%% · %s", int(page.ScrollPercent()*100), line)
	}
	return views.Rule(st, title, w) + "\n" + page.View() + "\n" + truncate(views.OneLine(st.Dim, line), w)
}

// rowStep is how far ↑, ↓, [ and ] move a cursor or a page's top: a row,
// or page rows for [ and ]; ok is false for any other key.
func rowStep(k tea.KeyMsg, page int) (step int, ok bool) {
	switch {
	case k.Type == tea.KeyUp:
		return -1, true
	case k.Type == tea.KeyDown:
		return 1, true
	case k.String() == "[":
		return -page, true
	case k.String() == "]":
		return page, true
	}
	return 0, false
}
