package scenes

import (
	"strings"

	"locksim/sim"
	"locksim/sim/ledger"
)

// A Redlock round as the readout tells it: the nodes a late SET reached,
// and each node's OK counted against the majority.

// lateNodes names every node on which the ledger read a late SET of the
// same acquisition as event i (the same actor and token) whose lease still
// holds at the snapshot's time, and event i's own node: hung nodes that
// woke one after the other.
func (r reader) lateNodes(i int) []string {
	ev, reads := r.v.Snap.Events, r.v.L.Reads
	own := reads[i].Lease
	var nodes []string
	for j, e := range ev[:i+1] {
		ls := reads[j].Lease
		if reads[j].What != ledger.NodeLate || ls == nil || own == nil || e.Actor != ev[i].Actor || ls.Token != own.Token {
			continue
		}
		if j == i || ls.AliveAt(r.v.Snap.Now) {
			nodes = append(nodes, e.Node)
		}
	}
	return nodes
}

// andList joins names as prose: "C", "C and D", "C, D and E".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// countRound sums up the release a failed count sent in the step of event
// i, short enough to follow the count: the nodes grouped by how the
// ledger read their replies ("A and B deleted its token; C, D and E did
// not answer"). It is "" when the step sent no release round.
func (r reader) countRound(i int) string {
	ev := r.v.Snap.Events
	var order []ledger.What
	nodes := map[ledger.What][]string{}
	sent := 0
	for j, e := range ev {
		if e.Move != ev[i].Move || e.Actor != ev[i].Actor || !releasePart(e) {
			continue
		}
		what := r.v.L.Reads[j].What
		if _, seen := nodes[what]; !seen {
			order = append(order, what)
		}
		nodes[what] = append(nodes[what], e.Node)
		sent++
	}
	if sent < 2 {
		return ""
	}
	var groups []string
	for _, what := range order {
		groups = append(groups, r.fill("count-"+string(what), map[string]string{"nodes": andList(nodes[what])}))
	}
	return r.fill("count-round", map[string]string{"of": itoa(int64(sent)), "groups": strings.Join(groups, "; ")})
}

// acquireRound is the nodes of the distributed acquire that event i is
// one node's share of, up to event i, in the order sent: those whose SET
// the ledger read as OK, and those that failed (a refused connection, a
// timeout). The round is the actor's shares with event i's token since
// it last counted or began.
func (r reader) acquireRound(i int) (ok, failed []string) {
	ev, reads := r.v.Snap.Events, r.v.L.Reads
	me := ev[i]
	for j := i; j >= 0; j-- {
		e, what := ev[j], reads[j].What
		if e.Actor != me.Actor {
			continue
		}
		if j < i && (what == ledger.QuorumHeld || what == ledger.QuorumMissed || what == ledger.Noted && e.Step == "begin") {
			break
		}
		if e.Op == nil || !e.Op.Part || e.Op.Kind != sim.OpAcquire || me.Op == nil || e.Op.Token != me.Op.Token {
			continue
		}
		switch what {
		case ledger.NodeGranted:
			ok = append([]string{e.Node}, ok...)
		case ledger.NodeFailed:
			failed = append([]string{e.Node}, failed...)
		}
	}
	return ok, failed
}

// releaseFailed is the nodes of the distributed release that event i is
// one node's share of (the actor's release parts in event i's move), up
// to event i, in the order sent, whose release the ledger read as failed.
func (r reader) releaseFailed(i int) []string {
	ev := r.v.Snap.Events
	var failed []string
	for j, e := range ev[:i+1] {
		if e.Move == ev[i].Move && e.Actor == ev[i].Actor && releasePart(e) && r.v.L.Reads[j].What == ledger.NodeFailed {
			failed = append(failed, e.Node)
		}
	}
	return failed
}
