package tui

import (
	"locksim/play"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// scenePage is the scene on screen as a page: the story or race the
// player draws, or the quiz page; with lab set, a story of that lab, over
// it, where esc goes back to the lab (and a move that breaks a level to
// break passes it). Its keys act on the session (see session.onKey); the
// messages of the session's work reach the player from the app
// (session.sceneMsg), whichever page is on top.
type scenePage struct {
	a   *session
	lab *Lab
}

func (p *scenePage) Init() tea.Cmd { return nil }

// sceneKey is a key for the scene on screen: a story of the lab's, or the
// course's.
func (a *session) sceneKey(msg tea.KeyMsg) tea.Cmd {
	if a.labStory {
		return a.labStoryKey(msg)
	}
	return a.onKey(msg)
}

func (p *scenePage) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if p.lab != nil && p.a.labStory {
			// the story's answer, kept before a key (esc) may close it
			p.lab.storyAnswered(p.a.pl.Session)
		}
		cmd := p.a.sceneKey(msg)
		if p.lab != nil && !p.a.labStory {
			return nil, cmd // esc closed the lab's story: the lab is on screen again
		}
		return p, cmd
	case tea.MouseMsg:
		return p, p.a.sceneMouse(msg)
	case play.RunMsg:
		if p.lab != nil && p.a.labStory {
			// a move of the lab's story: a level to break passes once it breaks
			if say := p.lab.storyMoved(p.a.pl.Session); say != "" {
				p.a.pl.SetFlash(say)
			}
		}
	}
	return p, nil
}

func (p *scenePage) View() string { return p.a.sceneView() }

func (p *scenePage) SetSize(w, h int) { p.a.pl.SetSize(w, h) }

func (p *scenePage) KeyMap() help.KeyMap { return p.a.sceneKeys() }

// quizPage is a quiz's scene page: the situation on screen, the answers,
// the strip of marks (see Quiz); its keys are the scene's, as the key map
// the session set for a quiz says.
type quizPage struct{ *scenePage }

func (p *quizPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	c, cmd := p.scenePage.Update(msg)
	if c == p.scenePage {
		return p, cmd
	}
	return c, cmd
}

func (p *quizPage) View() string { return p.a.quizView() }

func (p *quizPage) SetSize(w, h int) {
	p.a.pl.SetSize(w, h)
	p.a.quiz.SetSize(w, h)
}
