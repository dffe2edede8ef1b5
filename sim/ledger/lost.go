package ledger

import (
	"errors"

	"locksim/sim"
)

// lost reads a command that ran on the server and whose reply was lost
// (e.Lost), by what it did to its key (e.Op.Seen): an acquire that set the
// key makes a lease no actor holds, for its client never heard; a renewal
// that moved its own lease's end, or one its client took for granted
// (Op.Assumed), moves the lease as the key says and leaves the client to
// act on its own reading. ok is false for what the release's and the
// lab's reading (seen) covers.
func (l *Ledger) lost(e sim.Event) (Read, bool) {
	op, ch := e.Op, *e.Op.Seen
	switch op.Kind {
	case sim.OpAcquire:
		l.wholeSeen = true
		if ch.Had || !ch.Has || ch.After != op.Token {
			cur := l.present(e.Node, op.Key)
			return Read{What: LostNotSet, Lease: cur, Other: actorOf(cur)}, true
		}
		if cur := l.byKey[slot(e.Node, op.Key)]; cur != nil {
			// the key was free, so that lease had run out
			cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, e.At
		}
		ls := &Lease{Lock: op.Lock, Node: e.Node, Key: op.Key, Actor: e.Actor, Token: op.Token,
			Seq: e.Seq, Granted: e.At, TTL: op.TTL, TTLAt: e.At, Form: op.Form, Fixed: op.Fixed, EndSeq: -1}
		l.Leases = append(l.Leases, ls)
		l.byKey[slot(e.Node, op.Key)] = ls
		return Read{What: LostGranted, Lease: ls}, true
	case sim.OpExtend:
		own := ch.Had && ch.Has && ch.Before == op.Token && ch.After == op.Token
		moved := own && ch.TTLBefore != ch.TTLAfter
		if !moved && !op.Assumed && !errors.Is(e.Err, sim.ErrReplyLost) {
			// the lab's own lost reply: its reading is seen's
			return Read{}, false
		}
		r := Read{What: LostNotExtended, Lease: l.leaseOf(op.Token)}
		if moved {
			if ls := l.holding(e.Node, op.Key, op.Token); ls != nil {
				ls.TTL, ls.TTLAt = op.TTL, e.At
				r.Lease = ls
			}
			r.What = LostExtended
		} else if cur := l.present(e.Node, op.Key); cur != nil && cur.Actor != e.Actor {
			r.Other = cur.Actor
		}
		if r.Lease != nil && r.Lease.End != Open {
			r.Why, r.WhyBy = r.Lease.End, r.Lease.By
		}
		if !op.Assumed {
			// the client reads no reply as no renewal: it stops acting as
			// holder, and sends no release
			l.giveUp(e)
		}
		return r, true
	}
	return Read{}, false
}

// unheld reports that the key holds token as a lease no actor acts as
// holder of: one an acquire whose reply was lost made.
func (l *Ledger) unheld(node, key, token string) bool {
	ls := l.holding(node, key, token)
	return ls != nil && !ls.held && ls.End == Open
}

// foundOwn reads a reply that told its actor the key holds its own token,
// after an acquire whose reply was lost: it holds that lease from now,
// which still runs from that acquire's send (NX refused the retry, so its
// PX was not applied again).
func (l *Ledger) foundOwn(e sim.Event) Read {
	ls := l.holding(e.Node, e.Op.Key, e.Op.Token)
	if ls == nil {
		return Read{What: FoundOwn}
	}
	r := l.hold(e, ls)
	r.What = FoundOwn
	return r
}

// LostReplies are the events of commands that ran on the server and whose
// replies were lost on the way back, in order.
func (l *Ledger) LostReplies() []sim.Event {
	var out []sim.Event
	for i, r := range l.Reads {
		if r.Lost && i < len(l.events) {
			out = append(out, l.events[i])
		}
	}
	return out
}
