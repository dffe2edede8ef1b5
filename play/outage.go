package play

import (
	"context"

	"locksim/sim"
)

// pauseAtOutage stops playback when the server does not answer: a command
// of the move just made (the events from the from'th on) got no reply for
// want of the server (sim.Event.Outage), or the heartbeat finds the server
// down. Playing on, every move would be made with each command refused,
// to the story's end. A story's own nodes that fail are its lesson, not an
// outage, unless they are namespaces of the one server that is down
// (Snapshot.SharedNodes). The learner is told why, and space plays on.
func (p *Session) pauseAtOutage(from int) bool {
	if !p.Snap.Live {
		return false
	}
	if !p.outageIn(from) && !(p.Snap.Live && p.Snap.Err != "") {
		// (the keys not read back: the server did not answer that either)
		return false
	}
	p.Playing = false
	p.Err = "playback paused: the server does not answer"
	return true
}

// outageIn reports a live server that does not answer: a command of the
// events from the from'th on got no reply for want of it, or the heartbeat
// finds it down. A question is not asked on such a state (its moves made
// with commands refused): the replay asks it once the server is back.
func (p *Session) outageIn(from int) bool {
	if !p.Snap.Live {
		return false
	}
	if p.Backend.Health().Err != nil {
		return true
	}
	for _, e := range p.Snap.Events[min(from, len(p.Snap.Events)):] {
		if e.Outage() && (e.Node == sim.LockNode || e.Node == sim.ResourceNode || e.Node == "" || p.Snap.SharedNodes) {
			return true
		}
	}
	return false
}

// unread reports a live move that came back with err or with its keys
// not read back, or whose commands (the events from the from'th on) the
// server did not answer: the state it shows was not read, so the question
// is not asked on it (the next step, or the replay once the server is
// back, asks it).
func (p *Session) unread(err error, from int) bool {
	return p.Snap.Live && (err != nil && err != context.Canceled || p.Snap.Err != "") || p.outageIn(from)
}
