package tui

import (
	"locksim/class"
	"locksim/play"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// WatchMsg is the instructor's ask, from the class view (W on a student's
// row), to watch that student's live screen. The app only asks: the
// server that runs the session finds the student's screen, checks that
// this session may watch it (an instructor of the student's class), and
// draws it in place of the app until esc (serve's watch).
type WatchMsg struct {
	// ID is the student's class member id (their key's hash, or a keyless
	// student's reconnect id); Name the name their row shows.
	ID, Name string
}

// watchKey watches the picked student's screen, in the class view.
var watchKey = views.Bind("W", "watch", "W")

// tabKey shows a one-time link to this class view in a browser tab, in
// the class view of an instructor's SSH session.
var tabKey = views.Bind("I", "tab link", "I")

// watchPicked is the command that asks to watch the picked student, nil
// when no row is picked.
func (p *deskPage) watchPicked() tea.Cmd {
	ss := p.a.students()
	if p.a.cls.pick >= len(ss) {
		return nil
	}
	m := ss[p.a.cls.pick]
	msg := WatchMsg{ID: m.ID, Name: m.Name}
	return func() tea.Msg { return msg }
}

// RoomQuestionOpen reports that the room's screen stands at a question
// not yet answered: the projector's place (a session of a class's
// projector role), as the disclosure rule reads it for the projector. A
// student's screen shown to the room (serve's show) is held while it is,
// since it may show that student's answer and what their run replied.
func (a *App) RoomQuestionOpen() bool {
	if a.cls == nil || a.pl == nil || a.cls.part.Role() != class.Projector {
		return false
	}
	d := play.Disclose(a.pl.Position(), play.Projector)
	return d.Open || d.Waiting
}
