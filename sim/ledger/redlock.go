package ledger

import (
	"slices"
	"strings"

	"locksim/sim"
)

// The readings of a distributed story (Redlock): each node's share is a
// lease on that node, never a holder; the client's count decides.
const (
	NodeGranted  What = "node-ok"       // one node said OK
	NodeRefused  What = "node-refused"  // one node's key was taken
	NodeFailed   What = "node-failed"   // one node failed: down, cut off, too slow, an error
	NodeLate     What = "node-late"     // a hung node woke and ran the SET: a lease nobody was told of
	NodeReleased What = "node-released" // one node's release deleted the actor's key
	NodeRelTaken What = "node-rel-taken"
	NodeRelGone  What = "node-rel-gone"
	QuorumHeld   What = "quorum-held"   // a majority and validity left: the client holds
	QuorumMissed What = "quorum-missed" // no majority, or no validity left
)

// part reads one node's share of a distributed acquire or release.
func (l *Ledger) part(e sim.Event) Read {
	op := e.Op
	l.quorumSeen = true
	s := slot(e.Node, op.Key)
	if op.Kind == sim.OpRelease {
		n, _ := e.Int()
		cur := l.byKey[s]
		switch n {
		case 1:
			if cur == nil || cur.Token != op.Token {
				cur = l.holding(e.Node, op.Key, op.Token)
			}
			if cur != nil {
				cur.End, cur.EndSeq, cur.EndAt = Released, e.Seq, e.At
			}
			delete(l.byKey, s)
			l.releaseQuorum(e)
			// a slow node may hold a key the client never heard about:
			// the script's 1 says it was this token all the same
			return Read{What: NodeReleased, Lease: cur}
		case 0:
			l.releaseQuorum(e)
			return Read{What: NodeRelTaken, Other: actorOf(l.present(e.Node, op.Key))}
		}
		l.gone(e.Node, op.Key, e)
		l.releaseQuorum(e)
		return Read{What: NodeRelGone}
	}
	if e.IsNil() {
		cur := l.present(e.Node, op.Key)
		return Read{What: NodeRefused, Lease: cur, Other: actorOf(cur)}
	}
	if !e.IsOK() {
		return Read{What: NodeFailed}
	}
	// NX was granted, so the node's key was free. A restart or a jump of
	// the node's clock ended the lease it held already (see nodeFault); a
	// lease the fold still has open ran out a moment early on a live
	// server, or was removed by something outside the story.
	var freed *Lease
	if cur := l.byKey[s]; cur != nil {
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, e.At
		if l.early(cur, e) {
			cur.End = Vanished
		}
		delete(l.byKey, s)
	}
	if prev := l.previous(e.Node, op.Key, e.Seq); prev != nil && prev.Expires() && prev.EndAt < prev.Ends() &&
		(prev.End == Restarted || prev.End == Vanished || prev.End == Lapsed && l.JumpedBy(prev) > 0) {
		freed = prev
	}
	ls := &Lease{Lock: op.Lock, Node: e.Node, Key: op.Key, Actor: e.Actor, Token: op.Token,
		Seq: e.Seq, Granted: e.At, TTL: op.TTL, TTLAt: e.At, Form: op.Form, EndSeq: -1}
	l.Leases = append(l.Leases, ls)
	l.byKey[s] = ls
	if op.Late {
		// the client counted this node a failure long ago: the lease
		// runs on the node all the same, from the moment it woke
		return Read{What: NodeLate, Lease: ls, Freed: freed}
	}
	return Read{What: NodeGranted, Lease: ls, Freed: freed, Other: actorOf(freed)}
}

// previous is the latest lease on the node's key granted before event seq.
func (l *Ledger) previous(node, key string, seq int) *Lease {
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.Seq < seq && !ls.Copy && ls.slot() == slot(node, key) {
			return ls
		}
	}
	return nil
}

// QuorumNode is the node name of the lease a client's count grants: the
// lock as the client holds it, valid for the validity time it computed.
const QuorumNode = "quorum"

// quorum reads the client's count: held makes a lease of the validity
// time and the actor its holder (two such at once break mutual
// exclusion); not held is a refusal when another client held the lock.
func (l *Ledger) quorum(e sim.Event) Read {
	op := e.Op
	l.quorumSeen = true
	if !op.Held {
		var blocker *Lease
		for _, ls := range l.Leases {
			if ls.Node == QuorumNode && ls.Lock == op.Lock && ls.Actor != e.Actor && ls.AliveAt(e.At) {
				blocker = ls
			}
		}
		r := Read{What: QuorumMissed, Lease: blocker, Other: actorOf(blocker)}
		if blocker == nil && op.Votes < sim.Quorum(op.Of) && op.Of-l.down() >= sim.Quorum(op.Of) {
			l.stalled = append(l.stalled, e)
		}
		if blocker != nil {
			r.Refusal = &Refusal{Actor: e.Actor, Lock: op.Lock, Key: op.Key, Seq: e.Seq, At: e.At, Blocker: blocker}
			l.Refusals = append(l.Refusals, r.Refusal)
		}
		return r
	}
	ls := &Lease{Lock: op.Lock, Node: QuorumNode, Key: op.Key, Actor: e.Actor, Token: op.Token,
		Seq: e.Seq, Granted: e.At, TTL: op.TTL, TTLAt: e.At, Form: op.Form, EndSeq: -1, Votes: op.Votes, Of: op.Of}
	l.Leases = append(l.Leases, ls)
	l.byKey[ls.slot()] = ls
	if len(l.faulted(e.Actor)) > 0 {
		l.survived = append(l.survived, ls)
	}
	r := l.hold(e, ls)
	r.What = QuorumHeld
	return r
}

// releaseQuorum ends the actor's quorum lease of the lock at its first
// release on a node: it has let go.
func (l *Ledger) releaseQuorum(e sim.Event) {
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == e.Op.Lock {
			l.endHold(h, e, SentRelease)
		}
	}
	for _, ls := range l.Leases {
		if ls.Node == QuorumNode && ls.Actor == e.Actor && ls.Lock == e.Op.Lock && ls.End == Open {
			ls.End, ls.EndSeq, ls.EndAt = Released, e.Seq, e.At
			delete(l.byKey, ls.slot())
		}
	}
}

// nodeFault keeps track of which nodes are down, slow or cut off.
func (l *Ledger) nodeFault(e sim.Event) {
	if l.faults == nil {
		l.faults = map[string]bool{}
	}
	switch e.Fault {
	case sim.FaultNodeDown:
		l.faults[e.Node] = true
	case sim.FaultNodeUp:
		delete(l.faults, e.Node)
		if e.RestartedEmpty() {
			l.restarted(e)
		}
	case sim.FaultClockJump:
		// the node's keys expire on its own clock: any whose TTL that
		// clock has now passed ran out at the jump
		l.jumps = append(l.jumps, jump{node: e.Node, seq: e.Seq, at: e.At, d: e.Jump})
		l.lapse(e.At, e.Seq)
	case sim.FaultSlow:
		l.faults[e.Node+"/slow"] = true
	case sim.FaultFast:
		delete(l.faults, e.Node+"/slow")
	case sim.FaultHang:
		l.faults[e.Node+"/hung"] = true
	case sim.FaultWake:
		delete(l.faults, e.Node+"/hung")
	case sim.FaultCut:
		l.faults[e.Node+"/"+e.Actor] = true
	case sim.FaultHeal:
		delete(l.faults, e.Node+"/"+e.Actor)
	}
}

// faulted lists the nodes actor cannot use now: stopped, slow, hung, or
// cut off from it.
func (l *Ledger) faulted(actor string) []string {
	var out []string
	for k := range l.faults {
		node, who, _ := strings.Cut(k, "/")
		if who == "" || who == "slow" || who == "hung" || who == actor {
			if !slices.Contains(out, node) {
				out = append(out, node)
			}
		}
	}
	slices.Sort(out)
	return out
}

// uncopied reports that ls, granted on one node, never reached node: no
// replication step copied it there. A quorum lease lives on no one node.
func (l *Ledger) uncopied(ls *Lease, node string) bool {
	if ls.Node == QuorumNode || node == QuorumNode || slot(ls.Node, "") == slot(node, "") {
		return false
	}
	for _, c := range l.Leases {
		if c.Copy && c.Node == node && c.Token == ls.Token {
			return false
		}
	}
	return true
}

// replica reads a replication step: the lock key reached another node, so
// that node holds a copy of the lease (no new holder), ending with it.
func (l *Ledger) replica(e sim.Event) {
	src := l.leaseOf(e.Op.Token)
	if src == nil {
		return
	}
	ls := &Lease{Lock: src.Lock, Node: e.Node, Key: e.Op.Key, Actor: src.Actor, Token: src.Token,
		Seq: e.Seq, Granted: e.At, TTL: e.Op.TTL, TTLAt: e.At, Form: src.Form, EndSeq: -1, Copy: true}
	l.Leases = append(l.Leases, ls)
	l.byKey[ls.slot()] = ls
}

// down counts the nodes stopped now (not the slow ones, nor those cut off
// from one client: they are up).
func (l *Ledger) down() int {
	n := 0
	for k := range l.faults {
		if !strings.Contains(k, "/") {
			n++
		}
	}
	return n
}
