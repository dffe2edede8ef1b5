package ledger

import "locksim/sim"

// How the ledger reads a job queue that leases instead of locking (see
// sim/claim.go). A claim is an acquire of the lock "job <id>": its lease
// is the id's member in the active set (the deadline is its score), its
// fencing token the attempts the claim was granted. A claim's deadline
// frees nothing by itself; a reap that returns the id ends that lease
// (Lapsed, By the reaper), while its holder, if it lives, still acts as
// holder: a later claim of the same job by another worker is then an
// overlap, and the job's own check of attempts refuses the older holder's
// completion, as a resource refuses a stale fencing token.
//
// Many jobs' claims share one sorted-set key, so the fold keeps them by
// slot (key and member), never by key alone.

// The readings of a queue's operations; each is also a readout section.
const (
	ClaimEmpty    What = "claim-empty"    // a claim found nothing pending
	Reaped        What = "reaped"         // a reap took jobs back (maybe none)
	Completed     What = "completed"      // a completion was accepted (1)
	CompleteStale What = "complete-stale" // refused: the job's attempts moved on (0)
	CompleteGone  What = "complete-gone"  // refused: the job is no longer active (-1)
)

// memberSlot is where the fold keeps a claim: its key and its member.
func memberSlot(key, member string) string { return key + "\x00member\x00" + member }

// sameLock reports whether two leases are of one lock's key: the same key,
// and for claims the same job.
func sameLock(a, b *Lease) bool {
	return a.slot() == b.slot() && (a.Form != sim.FormClaim || a.Token == b.Token)
}

func (l *Ledger) claim(e sim.Event) Read {
	id, _, attempts, ok := sim.Claimed(e.Val, e.Err)
	if !ok {
		if arr, isArr := e.Val.([]any); isArr && len(arr) == 0 {
			return Read{What: ClaimEmpty}
		}
		return Read{What: Failed}
	}
	lock, at := sim.JobLock(id), memberSlot(e.Op.Key, id)
	if cur := l.byKey[at]; cur != nil && cur.End == Open {
		// the id was pending again, so its last claim had been taken back
		// by a reply the fold did not see
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, e.At
	}
	ls := &Lease{Lock: lock, Node: e.Node, Key: e.Op.Key, Actor: e.Actor, Token: id, Seq: e.Seq, Granted: e.At,
		TTL: e.Op.TTL, TTLAt: e.At, Fence: attempts, Form: sim.FormClaim, EndSeq: -1}
	l.Leases = append(l.Leases, ls)
	l.byKey[at] = ls
	// a worker may hold several jobs: only a claim of the same job ends a hold
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == lock {
			l.endHold(h, e, Reacquired)
		}
	}
	return l.openHold(e, ls)
}

// reap ends the lease of every id the reply names: the reaper found its
// deadline below the server's clock and put the job back in line.
func (l *Ledger) reap(e sim.Event) Read {
	arr, _ := e.Val.([]any)
	r := Read{What: Reaped}
	for _, v := range arr {
		id, _ := v.(string)
		at := memberSlot(e.Op.Key, id)
		if ls := l.byKey[at]; ls != nil {
			ls.End, ls.EndSeq, ls.EndAt, ls.By = Lapsed, e.Seq, e.At, e.Actor
			delete(l.byKey, at)
			r.Reaped = append(r.Reaped, ls)
		}
	}
	return r
}

// complete reads a completion as a write fenced by the job's attempts: 1
// accepted (the sender's lease ends, released), 0 refused because the job
// was claimed again since (Other is that claim's holder, Write.Seen its
// attempts), -1 refused because the job is no longer active. Whatever the
// reply, the sender stops acting as holder of the job.
func (l *Ledger) complete(e sim.Event) Read {
	op := e.Op
	n, _ := e.Int()
	lock := sim.JobLock(op.Token)
	var own, cur *Lease
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.Form == sim.FormClaim && ls.Lock == lock {
			if cur == nil {
				cur = ls
			}
			if own == nil && ls.Actor == e.Actor {
				own = ls
			}
		}
	}
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == lock {
			l.endHold(h, e, SentRelease)
		}
	}
	w := &Write{Actor: e.Actor, Seq: e.Seq, At: e.At, Fenced: true, Token: op.Fence, Accepted: n == 1,
		Covered: own != nil && own.End == Open, Lease: own}
	if cur != nil {
		w.Seen = cur.Fence
	}
	r := Read{Write: w, Lease: own}
	switch {
	case n == 1:
		at := memberSlot(op.Key, op.Token)
		if ls := l.byKey[at]; ls != nil {
			ls.End, ls.EndSeq, ls.EndAt = Released, e.Seq, e.At
			delete(l.byKey, at)
		}
		r.What = Completed
	case n == 0:
		r.What = CompleteStale
		if cur != nil && cur != own {
			r.Other = cur.Actor
		}
	default:
		r.What = CompleteGone
	}
	if own != nil && r.What != Completed {
		r.Why, r.WhyBy = own.End, own.By
	}
	return r
}

// claimsIn are the claims whose member a sorted set read back holds.
func (l *Ledger) claimsIn(k sim.KeyState) []*Lease {
	if k.Type != "zset" {
		return nil
	}
	var out []*Lease
	for _, f := range k.Fields {
		if ls := l.byKey[memberSlot(k.Name, f.Name)]; ls != nil && ls.In(k) {
			out = append(out, ls)
		}
	}
	return out
}

// claimsApart reports two workers holding claims on one queue at once,
// of different jobs: the queue kept them apart.
func (l *Ledger) claimsApart() bool {
	for i, a := range l.Holds {
		for _, b := range l.Holds[i+1:] {
			if a.Lease.Form == sim.FormClaim && b.Lease.Form == sim.FormClaim && a.Lease.Key == b.Lease.Key &&
				a.Actor != b.Actor && a.Lock != b.Lock && (a.To < 0 || a.To > b.From) {
				return true
			}
		}
	}
	return false
}
