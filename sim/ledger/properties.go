package ledger

import (
	"slices"

	"locksim/sim"
)

// Verdict is what a run has shown of one property, read reply by reply:
// the scoreboard's word. It keeps the name because it is the ledger's
// reading; the checker's reading of a history against a model is a
// check.Finding, and the lab's grade of a lock over every schedule a
// lab.Judgement.
type Verdict int

const (
	Untested Verdict = iota // nothing put it to the test
	Held                    // tested, and it held
	Broken                  // the run shows it failing
	Absent                  // the design in play does not offer it
)

// Properties is the scoreboard: mutual exclusion, deadlock freedom, fault
// tolerance. Mutual exclusion is broken from the first moment two actors
// act as holder at overlapping times (two clients each backed by a majority
// of Redlock's nodes too), whatever the resource did with their writes, and
// stays broken for the rest of the run; held when a contender was refused,
// or when two workers held claims on one queue at once and got different
// jobs; untested when nobody competed. Deadlock freedom is broken when a
// key with no TTL blocked a contender after its holder crashed, or an acquire
// did not let its client in while the key held nothing (Refusal.Free); held
// once a lapsed lease let a contender in. Fault tolerance is liveness: absent on a
// single instance (one Redis, or a primary with its replica, is a single
// point of failure); across independent nodes it is broken once a client
// counted no majority while no other client held the lock and a majority of
// the nodes was up, and held once a client acquired and released the lock
// while nodes were lost to it. Broken wins over held: a failure seen stays.
func (l *Ledger) Properties(singleInstance bool) [3]Verdict {
	var p [3]Verdict
	switch {
	case len(l.Overlaps) > 0:
		p[0] = Broken
	case l.contended(), l.claimsApart():
		p[0] = Held
	}
	switch {
	case len(l.Stuck()) > 0, l.refusedWhenFree():
		p[1] = Broken
	case l.FreedByTTL() != nil:
		p[1] = Held
	}
	switch {
	case singleInstance || !l.quorumSeen && l.wholeSeen:
		// one server, or a primary with its replica: a single point of failure
		p[2] = Absent
	case l.Stalled() != nil:
		p[2] = Broken
	case l.survivedRelease():
		p[2] = Held
	}
	return p
}

// contended reports a refusal by a key that held something: a contender
// kept out (a refusal when the key was free kept nobody out for another).
func (l *Ledger) contended() bool {
	return slices.ContainsFunc(l.Refusals, func(rf *Refusal) bool { return !rf.Free })
}

// refusedWhenFree reports an acquire refused while its key held nothing
// (Refusal.Free): the lock did not let a client in when nobody held it.
func (l *Ledger) refusedWhenFree() bool {
	return slices.ContainsFunc(l.Refusals, func(rf *Refusal) bool { return rf.Free })
}

// Stalled is the first count that found no majority although a majority
// of the nodes was up and no other client held the lock: the lock was not
// live. nil if none.
func (l *Ledger) Stalled() *sim.Event {
	if len(l.stalled) == 0 {
		return nil
	}
	return &l.stalled[0]
}

// survivedRelease reports whether a client acquired the lock while nodes
// were lost to it and then released it.
func (l *Ledger) survivedRelease() bool {
	for _, ls := range l.survived {
		if ls.End == Released {
			return true
		}
	}
	return false
}
