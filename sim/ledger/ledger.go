// Package ledger reads a run's events the one way every scene shares: it
// folds the lock operations and their replies into leases, holds (who acts
// as holder, from the grant to its release or crash), refusals, overlaps,
// writes to the protected resource and the three properties of a lock.
//
// It is pure: no Redis, no screen. A new judgement ("who holds", "did it
// lapse", "who overlapped") belongs here, with a table test on hand-written
// events, never in a scene.
package ledger

import (
	"slices"
	"time"

	"locksim/sim"
)

// Ledger is the fold of one run.
type Ledger struct {
	Now      time.Duration
	Leases   []*Lease
	Holds    []*Hold
	Overlaps []*Overlap
	Refusals []*Refusal
	Writes   []*Write
	Unknowns []int // events whose outcome the client cannot know
	Reads    []Read
	Keys     []KeyRead
	faults   map[string]bool // node, node/slow, node/actor (cut off)
	// quorumSeen is set once a client counted a majority (or sent a share
	// of one): a lock across independent nodes was in play
	quorumSeen bool
	wholeSeen  bool        // an acquire of a whole lock on one server
	survived   []*Lease    // quorum leases granted while nodes were lost to their client
	stalled    []sim.Event // counts that missed a majority of live nodes
	status     map[string]sim.Status
	byKey      map[string]*Lease // the lease each key holds now, as the replies tell it
	events     []sim.Event
	// slack is how much earlier than its end, in story time, a key may be
	// found gone and still have lapsed (a live server's clock, see
	// LiveSlack); 0 on the embedded server.
	slack  time.Duration
	jumps  []jump // the clock jumps of the nodes, in order
	pauses []pause
	woke   map[string]int // the move (plus one) in which each actor last woke
}

// Latest is the actor's latest lease, nil if it was never granted one.
func (l *Ledger) Latest(actor string) *Lease { return l.latest(actor) }

// HoldOf is the actor's latest hold, nil if it never held.
func (l *Ledger) HoldOf(actor string) *Hold {
	for i := len(l.Holds) - 1; i >= 0; i-- {
		if l.Holds[i].Actor == actor {
			return l.Holds[i]
		}
	}
	return nil
}

// Belief is what actor believes against what the keys read back say.
func (l *Ledger) Belief(actor string) Belief {
	b := Belief{Actor: actor, Lease: l.latest(actor), Hold: l.HoldOf(actor), Status: l.status[actor]}
	if b.Hold != nil && b.Hold.Open() {
		b.Holds, b.Lock = true, b.Hold.Lock
	}
	if b.Lease != nil {
		b.Fence = b.Lease.Fence
		b.KeyHolds = l.Agrees(b.Lease)
	}
	return b
}

// Holders lists the actors that act as holder at the end of the fold, in
// the order their holds began: the one count of holders that scenes,
// trials and verdicts share.
func (l *Ledger) Holders() []string {
	var out []string
	for _, h := range l.Holds {
		if h.Open() && !slices.Contains(out, h.Actor) {
			out = append(out, h.Actor)
		}
	}
	return out
}

// Agrees reports whether the keys read back hold ls: its key holds its
// value; for a Redlock client's lease, a majority of the nodes hold its
// token.
func (l *Ledger) Agrees(ls *Lease) bool {
	if ls.Node != QuorumNode {
		for _, k := range l.Keys {
			if k.Lease == ls || slices.Contains(k.Members, ls) {
				return true
			}
		}
		return false
	}
	n := 0
	for _, k := range l.Keys {
		// each node's key carries that node's own prefix on a live server:
		// the lease the fold matched on it says whose it is
		if k.Node != "" && k.Lease != nil && k.Lease.Lock == ls.Lock && k.Lease.Token == ls.Token {
			n++
		}
	}
	return ls.Of > 0 && n >= sim.Quorum(ls.Of)
}

// IsLockKey reports whether any lease of the run was on key (as sent):
// a lock's key, not a counter or a resource.
func (l *Ledger) IsLockKey(key string) bool {
	for _, ls := range l.Leases {
		if ls.Key == key {
			return true
		}
	}
	for _, e := range l.events {
		if e.Op != nil && e.Op.Kind == sim.OpAcquire && e.Op.Key == key {
			return true
		}
	}
	return false
}

// Stuck lists the refusals that met a key with no TTL whose holder had
// crashed: the first is the deadlock the scoreboard names.
func (l *Ledger) Stuck() []*Refusal {
	var out []*Refusal
	for _, r := range l.Refusals {
		if r.Stuck {
			out = append(out, r)
		}
	}
	return out
}

// FreedByTTL is the first grant that a lapsed lease let in: another
// actor's acquire granted on a key whose previous lease ran out. nil if none.
func (l *Ledger) FreedByTTL() *Lease {
	for i, ls := range l.Leases {
		for _, next := range l.Leases[i+1:] {
			if next.held && ls.held && sameLock(next, ls) && next.Actor != ls.Actor && ls.End == Lapsed && next.Granted > ls.Ends() {
				return next
			}
		}
	}
	return nil
}

// KeyStatus is what a key read back says of its lock.
type KeyStatus int

const (
	KeyFree   KeyStatus = iota // no such key: the lock is free
	KeyLeased                  // held, with a TTL that frees it
	KeyNoTTL                   // held with no TTL: only a DEL frees it
)

// Status is the key's state as read back.
func (k KeyRead) Status() KeyStatus {
	switch {
	case !k.Exists():
		return KeyFree
	case k.PTTL == -1:
		return KeyNoTTL
	}
	return KeyLeased
}

// LastOp is the actor's latest command of the given operation kind, with
// the ledger's reading of it; ok is false if it sent none.
func (l *Ledger) LastOp(actor string, kind sim.OpKind) (sim.Event, Read, bool) {
	for i := len(l.events) - 1; i >= 0; i-- {
		if e := l.events[i]; e.Actor == actor && e.Op != nil && e.Op.Kind == kind {
			return e, l.Reads[i], true
		}
	}
	return sim.Event{}, Read{}, false
}

// FirstOverlap is the first stretch of two holders, nil if none: the
// moment mutual exclusion broke, which the ⚠ line names for the rest of
// the run.
func (l *Ledger) FirstOverlap() *Overlap {
	if len(l.Overlaps) == 0 {
		return nil
	}
	return l.Overlaps[0]
}

// LatestOverlap is the latest stretch of two holders, nil if none: the one
// the ⚠ line and a verdict name.
func (l *Ledger) LatestOverlap() *Overlap {
	if len(l.Overlaps) == 0 {
		return nil
	}
	return l.Overlaps[len(l.Overlaps)-1]
}

// WriteCounts is how many writes the resource accepted and refused.
func (l *Ledger) WriteCounts() (accepted, refused int) {
	for _, w := range l.Writes {
		if w.Accepted {
			accepted++
		} else {
			refused++
		}
	}
	return accepted, refused
}

// ForeignDeletes counts the releases that deleted another actor's lock.
func (l *Ledger) ForeignDeletes() int {
	n := 0
	for _, r := range l.Reads {
		if r.What == DeletedOther {
			n++
		}
	}
	return n
}
