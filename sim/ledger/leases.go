package ledger

import "locksim/sim"

// present is the lease the key holds, as a reply that found the key says:
// the fold's own, or else the latest lease on that key, which the fold had
// let lapse a moment too early (a live server's clock). nil when no lease
// of the run was ever on it.
func (l *Ledger) present(node, key string) *Lease {
	if cur := l.byKey[slot(node, key)]; cur != nil {
		return cur
	}
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.slot() == slot(node, key) {
			if ls.End == Lapsed {
				l.revive(ls)
				return ls
			}
			return nil
		}
	}
	return nil
}

// holding is the lease that wrote token on key, which a reply says the key
// still holds; revived if the fold had let it lapse.
func (l *Ledger) holding(node, key, token string) *Lease {
	if cur := l.byKey[slot(node, key)]; cur != nil && cur.Token == token {
		return cur
	}
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.slot() == slot(node, key) && ls.Token == token {
			if ls.End == Lapsed {
				l.revive(ls)
			}
			return ls
		}
	}
	return nil
}

func (l *Ledger) revive(ls *Lease) {
	ls.End, ls.EndSeq, ls.EndAt = Open, -1, 0
	l.byKey[ls.slot()] = ls
}

// gone records e's reply that found the key absent: whatever lease the
// fold still had on it had ended. Before its TTL's end on its node's clock
// (Redis keeps a key through the millisecond its TTL ends), or with no TTL
// at all, no expiry did it: the key vanished.
func (l *Ledger) gone(node, key string, e sim.Event) {
	cur := l.byKey[slot(node, key)]
	if cur == nil {
		return
	}
	if cur.End == Open {
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, l.nodeEnd(cur)
		if l.early(cur, e) {
			cur.End, cur.EndAt = Vanished, e.At
		}
	}
	delete(l.byKey, slot(node, key))
}

// notHolding reads a reply of e's that says its key does not hold e's
// token (a script's 0, a GET of another value) and returns the lease the
// key holds, nil if none of the run's. When the fold still had the
// sender's own lease on the key, no command of the run that was answered
// replaced it: that lease ended by then, with no known author (By ""). A
// command of another actor's with no reply may be the author (MaybeBy
// finds it, and the readouts say so); else a client outside the run.
func (l *Ledger) notHolding(e sim.Event) *Lease {
	s := slot(e.Node, e.Op.Key)
	if cur := l.byKey[s]; cur != nil && cur.Token == e.Op.Token && !cur.Fixed {
		cur.End, cur.EndSeq, cur.EndAt, cur.By = Overwritten, -1, e.At, ""
		delete(l.byKey, s)
		return nil
	}
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.slot() == s {
			if ls.Token == e.Op.Token && !ls.Fixed {
				return nil // the reply says the key does not hold it: no revival
			}
			break
		}
	}
	return l.present(e.Node, e.Op.Key)
}

// slot names a key on a node: a distributed story has the same key on
// every node, each with its own lease.
func slot(node, key string) string {
	if node == "" {
		node = sim.LockNode
	}
	return node + "\x00" + key
}

// giveUp ends the actor's hold when its own check showed the key is not
// its own any more: it stops acting as holder without a release.
func (l *Ledger) giveUp(e sim.Event) {
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == e.Op.Lock {
			l.endHold(h, e, GaveUp)
		}
	}
}

// latest is the actor's latest lease, nil if it was never granted one.
func (l *Ledger) latest(actor string) *Lease {
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if l.Leases[i].Actor == actor && !l.Leases[i].Copy {
			return l.Leases[i]
		}
	}
	return nil
}

// leaseOf is the lease granted with token, nil if none was.
func (l *Ledger) leaseOf(token string) *Lease {
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if l.Leases[i].Token == token && !l.Leases[i].Copy {
			return l.Leases[i]
		}
	}
	return nil
}

func actorOf(ls *Lease) string {
	if ls == nil {
		return ""
	}
	return ls.Actor
}
