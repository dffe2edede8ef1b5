package ledger

import (
	"time"

	"locksim/sim"
)

// What a lab lock's release or extend did, read from its key before and
// after it ran (sim.Op.Seen): a learner's script answers whatever its
// author chose, so its reply alone cannot say.
const (
	// RetimedOwn: a release left the actor's own token in the key and gave
	// it another TTL (PEXPIRE key 1): the lease ends when that runs out.
	RetimedOwn What = "retimed-own"
	// RetimedOther: a release or an extend gave another actor's lease a
	// TTL: it moved the end of a lock not its own.
	RetimedOther What = "retimed-other"
	// OverwroteOther: a release or an extend wrote its value over another
	// actor's lease.
	OverwroteOther What = "overwrote-other"
	// RelLeft: a release changed nothing: the key still holds what it held
	// (the actor's own token, another's, or nothing).
	RelLeft What = "rel-left"
	// ExtGaveUp: an extend did not renew (its reply was not 1 or OK), and
	// its actor gave up the lock without sending a release.
	ExtGaveUp What = "ext-gave-up"
)

// seen reads a release or an extend by what it did to its key
// (e.Op.Seen), when that tells more than its reply: ok is false for an
// extend that renewed nothing of another's (its reply then says it), and
// for a key that came into being (a renewal that recreated it reads as
// the reply says).
func (l *Ledger) seen(e sim.Event) (Read, bool) {
	op, ch := e.Op, *e.Op.Seen
	same := ch.Had == ch.Has && ch.Before == ch.After && ch.TTLBefore == ch.TTLAfter
	if same && e.ErrorReply() {
		if op.Kind == sim.OpExtend {
			l.giveUp(e)
		}
		return Read{}, false // the error's own reading
	}
	if ch.Had && !ch.Has && op.Kind == sim.OpRelease {
		// whatever the reply, the key is gone: the release removed it
		return l.removed(e, ch.Before), true
	}
	cur := l.present(e.Node, op.Key)
	if ch.Had && (cur == nil || cur.Token != ch.Before) {
		cur = l.holding(e.Node, op.Key, ch.Before)
	}
	release := op.Kind == sim.OpRelease
	if release && !op.Nested {
		for _, h := range l.Holds {
			if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock {
				l.endHold(h, e, SentRelease)
			}
		}
	}
	own := l.leaseOf(op.Token)
	r := Read{Lease: own}
	if own != nil && own.End != Open {
		r.Why, r.WhyBy = own.End, own.By
	}
	renewed := e.IsOK()
	if n, ok := e.Int(); ok && n == 1 {
		renewed = true
	}
	if !release && !renewed {
		// the client learns it lost the lock, or thinks so: it stops
		// acting as holder, and sends no release
		l.giveUp(e)
	}
	switch {
	case ch.Had && ch.Has && ch.Before != ch.After && cur != nil && cur.Actor != e.Actor:
		cur.End, cur.EndSeq, cur.EndAt, cur.By = Overwritten, e.Seq, e.At, e.Actor
		ls := &Lease{Lock: op.Lock, Node: e.Node, Key: op.Key, Actor: e.Actor, Token: ch.After,
			Seq: e.Seq, Granted: e.At, TTL: ttlOf(ch.TTLAfter), TTLAt: e.At, Form: op.Form, EndSeq: -1}
		l.Leases = append(l.Leases, ls)
		l.byKey[slot(e.Node, op.Key)] = ls
		r.What, r.Other, r.Replaced = OverwroteOther, cur.Actor, cur
		return r, true
	case ch.Retimed() && cur != nil && cur.Actor != e.Actor:
		cur.TTL, cur.TTLAt = ttlOf(ch.TTLAfter), e.At
		r.What, r.Other = RetimedOther, cur.Actor
		return r, true
	case ch.Retimed() && cur != nil && release:
		cur.TTL, cur.TTLAt = ttlOf(ch.TTLAfter), e.At
		r.What, r.Lease = RetimedOwn, cur
		return r, true
	case release && same && op.Nested && cur != nil && cur.Actor == e.Actor:
		// a nested release that left its sender's key in place (its count
		// went down, which the key's value does not show)
		r.What, r.Lease = RelKept, cur
		return r, true
	case release && same:
		r.What = RelLeft
		if cur != nil && cur.Actor != e.Actor {
			r.Other = cur.Actor
		}
		if cur != nil && cur.Actor == e.Actor {
			r.Lease = cur
		}
		return r, true
	case !release && !renewed && same && cur != nil && cur.Actor == e.Actor:
		r.What, r.Lease = ExtGaveUp, cur
		return r, true
	}
	return Read{}, false
}

// removed reads a release that deleted the key holding value: the actor's
// own lease released, or another's deleted.
func (l *Ledger) removed(e sim.Event, value string) Read {
	op := e.Op
	cur := l.present(e.Node, op.Key)
	if cur == nil || cur.Token != value {
		cur = l.holding(e.Node, op.Key, value)
	}
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock && !op.Nested {
			l.endHold(h, e, SentRelease)
		}
	}
	own := l.leaseOf(op.Token)
	r := Read{Lease: own}
	switch {
	case cur != nil && cur.Actor == e.Actor:
		cur.End, cur.EndSeq, cur.EndAt = Released, e.Seq, e.At
		r.What, r.Lease = ReleasedOwn, cur
	case cur != nil:
		cur.End, cur.EndSeq, cur.EndAt, cur.By = Deleted, e.Seq, e.At, e.Actor
		r.What, r.Other = DeletedOther, cur.Actor
		r.Refusal = l.refusedLast(e.Actor, op.Lock)
	default:
		r.What = DeletedUnknown
	}
	l.gone(e.Node, op.Key, e)
	if own != nil && r.What != ReleasedOwn {
		r.Why, r.WhyBy = own.End, own.By
	}
	return r
}

// ttlOf is a TTL left as read (-1 for none) as a lease's TTL (0 for none).
func ttlOf(d time.Duration) time.Duration { return max(d, 0) }

// ForeignReleases counts the releases and extends that removed, rewrote
// or re-timed another actor's lease: no-foreign-release broken.
func (l *Ledger) ForeignReleases() int {
	n := 0
	for i, r := range l.Reads {
		k := l.events[i].Op
		if r.What == RetimedOther || r.What == OverwroteOther || r.What == DeletedOther && k != nil && k.Kind != sim.OpAcquire {
			n++
		}
	}
	return n
}

// Orphaned reports, for a refusal, how long the lease that blocked it had
// been without a holder: since its holder crashed, sent its release or
// gave the lock up (its hold ended), or since its grant for a lease no
// one held. ok is false while some actor still acts as its holder, or
// when nothing blocked it. Deadlock-freedom holds while a key freed of
// its holder lapses soon enough (the lab: within twice the TTL).
func (l *Ledger) Orphaned(rf *Refusal) (time.Duration, bool) {
	ls := rf.Blocker
	if ls == nil {
		return 0, false
	}
	since := ls.Granted
	for _, h := range l.Holds {
		if h.Lease != ls && !(h.Actor == ls.Actor && h.Lock == ls.Lock && h.FromAt <= ls.Granted) {
			continue
		}
		if h.To < 0 || h.To > rf.Seq {
			return 0, false // still held when it refused
		}
		since = max(since, h.ToAt)
	}
	return rf.At - since, true
}

// Unfreed reports a refusal by a lease whose own holder had let it go and
// left its key as it was: a release that removed nothing (RelLeft) or an
// extend whose holder then gave the lock up (ExtGaveUp). Its release does
// not free the lock: the key stays until its TTL runs out, or for good.
func (l *Ledger) Unfreed(rf *Refusal) bool {
	if rf.Blocker == nil {
		return false
	}
	for i, r := range l.Reads {
		if i < len(l.events) && l.events[i].Seq < rf.Seq && (r.What == RelLeft || r.What == ExtGaveUp) &&
			r.Lease == rf.Blocker && l.events[i].Actor == rf.Blocker.Actor {
			return true
		}
	}
	return false
}

// WastedLeases are the give-ups (sim.OpGiveUp) of clients whose own token
// the lock key held as they gave up (Op.Seen, read then): a lease its
// holder does not know it holds, as after a lost reply to SET NX PX and a
// retry its own key refused, which stands unused until its TTL runs out.
// A give-up without Seen is not read.
func (l *Ledger) WastedLeases() []sim.Event {
	var out []sim.Event
	for _, e := range l.events {
		if e.Kind == sim.Info && e.Op != nil && e.Op.Kind == sim.OpGiveUp && e.Op.Seen != nil &&
			e.Op.Seen.Has && e.Op.Seen.After == e.Op.Token && e.Op.Token != "" {
			out = append(out, e)
		}
	}
	return out
}
