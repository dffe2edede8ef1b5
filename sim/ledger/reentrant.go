package ledger

import "locksim/sim"

// The readings of a reentrant (hash) lock's replies, besides Granted,
// Refused and ReleasedOwn, which mean what they mean for any lock.
const (
	Reentered  What = "reentered"    // the holder entered again: count above 1, TTL restarted
	RelKept    What = "rel-kept"     // a release left the count above 0: the lease goes on
	RelNotHeld What = "rel-not-held" // a release refused: the hash is another holder's
	RelNoLock  What = "rel-no-lock"  // a release refused: no such key
)

// reentrant reads the hash lock (sim.FormReentrant), whose field is the
// holder id and whose value is the hold count. The first acquire (count 1)
// grants a lease; a nested one (count > 1) is the same holder entering
// again: no new lease, no new hold, no overlap, and the TTL restarts. A
// release that leaves the count above 0 keeps the lease (its TTL restarts
// too); the one that reaches 0 deleted the key and ends it. A release the
// script refused ended nothing but the sender's belief.
func (l *Ledger) reentrant(e sim.Event) Read {
	op := e.Op
	n, isInt := e.Int()
	refusal := sim.ReleaseRefusal(e.Err)
	switch {
	case op.Kind == sim.OpAcquire && isInt && n > 1:
		ls := l.holding(e.Node, op.Key, op.Token)
		if ls != nil {
			ls.Count, ls.TTL, ls.TTLAt = n, op.TTL, e.At
		}
		return Read{What: Reentered, Lease: ls}
	case op.Kind == sim.OpAcquire && !e.ErrorReply():
		r := l.acquire(e)
		if r.What == Granted {
			r.Lease.Count = 1
		}
		return r
	case op.Kind != sim.OpRelease || (!isInt && refusal == ""):
		return Read{What: Failed}
	case isInt && n > 0:
		ls := l.holding(e.Node, op.Key, op.Token)
		if ls != nil {
			ls.Count, ls.TTL, ls.TTLAt = n, op.TTL, e.At
		}
		return Read{What: RelKept, Lease: ls}
	}
	// the count reached 0, or the script refused: either way the sender
	// no longer acts as holder
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock {
			l.endHold(h, e, SentRelease)
		}
	}
	own := l.leaseOf(op.Token)
	if isInt {
		ls := l.holding(e.Node, op.Key, op.Token)
		if ls != nil {
			ls.Count, ls.End, ls.EndSeq, ls.EndAt = 0, Released, e.Seq, e.At
		}
		l.gone(e.Node, op.Key, e)
		return Read{What: ReleasedOwn, Lease: ls}
	}
	r := Read{What: RelNotHeld, Lease: own, Other: actorOf(l.present(e.Node, op.Key))}
	if refusal == sim.ErrNoLock {
		r = Read{What: RelNoLock, Lease: own}
		l.gone(e.Node, op.Key, e)
	}
	if own != nil {
		r.Why, r.WhyBy = own.End, own.By
	}
	return r
}
