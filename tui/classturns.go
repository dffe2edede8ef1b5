package tui

import (
	"locksim/play"
	"locksim/sim"
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
	a.cls.part.Resumed()
	opt := a.pl.Options()
	opt.Follow = true
	a.pl.Configure(opt)
	a.asks.close = true // the scene, not the contents
	a.say("welcome back: you follow the instructor again, your prediction kept")
	return old
}
