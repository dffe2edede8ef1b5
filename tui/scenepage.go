package tui

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// scenePage is the scene on screen as a page: the story or race the
// player draws, or the quiz page; with lab set, a story of the lab, over
// the lab, where esc goes back to the lab. Its keys act on the session
// (see App.onKey); the messages of the session's work reach the player
// from the app, whichever page is on top.
type scenePage struct {
	a   *App
	lab bool
}

func (p *scenePage) Init() tea.Cmd { return nil }

// sceneKey is a key for the scene on screen: a story of the lab's, or the
// course's.
func (a *App) sceneKey(msg tea.KeyMsg) tea.Cmd {
	if a.labStory {
		return a.labStoryKey(msg)
	}
	return a.onKey(msg)
}

func (p *scenePage) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		cmd := p.a.sceneKey(msg)
		if p.lab && !p.a.labStory {
			return nil, cmd // esc closed the lab's story: the lab is on screen again
		}
		return p, cmd
	case tea.MouseMsg:
		return p, p.a.sceneMouse(msg)
	}
	return p, nil
}

func (p *scenePage) View() string { return p.a.sceneView() }

func (p *scenePage) SetSize(w, h int) {
	p.a.pl.SetSize(w, h)
	if p.a.quiz != nil {
		p.a.quiz.SetSize(w, h)
	}
}

func (p *scenePage) KeyMap() help.KeyMap { return p.a.sceneKeys() }
