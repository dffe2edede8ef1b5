package tui

import (
	"fmt"

	"locksim/class"
	"locksim/play"
	"locksim/sim"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// resumeFollowing puts a student who followed on another server (or
// before a restart) back where they stood in the instructor's story, their
// prediction with them, following again: their answer stays in the poll.
// It returns the run of the scene it replaced, nil when it stayed.
func (a *session) resumeFollowing(pos play.Position, ran bool) *sim.Run {
	s, err := a.course.Visit(play.VisitFollow, pos, a.pl.Session)
	if err != nil {
		return nil // a place this locksim cannot open: the contents, as for anyone
	}
	if !ran {
		s.AnswerPending() // answered before the move ran: it counts when it runs here
	}
	old := a.pl.Run
	a.setPlayer(s)
	a.cls.following = true
	opt := a.pl.Options()
	opt.Follow = true
	a.pl.Configure(opt)
	a.asks.close = true // the scene, not the contents
	a.say("welcome back: you follow the instructor again, your prediction kept")
	return old
}

// runsTooSoon stops the instructor's first step at an open question while
// students of the story have not answered: the flash says how many have,
// and a second step runs the move. A clicker's quick presses would run it
// before anyone could answer.
func (a *session) runsTooSoon(msg tea.KeyMsg) bool {
	c, k := a.cls, a.com.Keys
	if !a.pl.Asking || !(key.Matches(msg, k.Step) || key.Matches(msg, k.Play) || msg.Type == tea.KeyPgDown || msg.String() == ".") {
		return false
	}
	at := a.pl.Snap.Pos + 1 // 0 is never a question's step: warned's zero value is "not yet"
	p, ok := class.Tally(a.pl.Position(), a.students(), c.now())
	if !ok || p.Of == 0 || p.Answered >= p.Of || c.warned == at && c.warnedCount == p.Answered {
		return false
	}
	c.warned, c.warnedCount = at, p.Answered
	a.pl.SetFlash(fmt.Sprintf("%d of %d have answered · step again to run the move anyway", p.Answered, p.Of))
	return true
}
