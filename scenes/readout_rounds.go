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
	// grouped by the section that tells the reply, and a refused
	// connection's reason as the log gives it
	type group struct{ section, why string }
	var order []group
	nodes := map[group][]string{}
	sent := 0
	for j, e := range ev {
		if e.Move != ev[i].Move || e.Actor != ev[i].Actor || !releasePart(e) {
			continue
		}
		g := group{section: "count-" + string(r.v.L.Reads[j].What)}
		if why, ok := notSentWhy(e); ok {
			g = group{"count-not-sent", why}
		}
		if _, seen := nodes[g]; !seen {
			order = append(order, g)
		}
		nodes[g] = append(nodes[g], e.Node)
		sent++
	}
	if sent < 2 {
		return ""
	}
	var groups []string
	for _, g := range order {
		groups = append(groups, r.fill(g.section, map[string]string{"nodes": andList(nodes[g]), "why": g.why}))
	}
	return r.fill("count-round", map[string]string{"of": itoa(int64(sent)), "groups": strings.Join(groups, "; ")})
}

// notSentWhy is the reason the log gives for a command that never reached
// its node ("connection refused"), and whether e is one.
func notSentWhy(e sim.Event) (string, bool) {
	if !e.NotSent() {
		return "", false
	}
	return strings.TrimPrefix(e.Reply, "not sent: "), true
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

// missedCard is the card of a failed Redlock count at event i: the count,
// and the release it sent in the same step with the nodes where that
// failed ("no lock 2/5 · release: C,D,E failed", within a card's 36 columns).
func (r reader) missedCard(i int) string {
	e := r.v.Snap.Events[i]
	count := itoa(int64(e.Op.Votes)) + "/" + itoa(int64(e.Op.Of))
	last := -1
	for j, x := range r.v.Snap.Events {
		if x.Move == e.Move && x.Actor == e.Actor && releasePart(x) {
			last = j
		}
	}
	if last < 0 {
		return "no lock: " + count
	}
	if failed := r.releaseFailed(last); len(failed) > 0 {
		return "no lock " + count + " · release: " + strings.Join(failed, ",") + " failed"
	}
	return "no lock " + count + " · release sent"
}

// missedBefore is the actor's failed Redlock count that event i, a note
// of a later step, follows with nothing of the actor's between but that
// count's release; -1 if none.
func (r reader) missedBefore(i int) int {
	ev, reads := r.v.Snap.Events, r.v.L.Reads
	for j := i - 1; j >= 0; j-- {
		switch {
		case ev[j].Actor != ev[i].Actor || ev[j].Move < 0:
		case reads[j].What == ledger.QuorumMissed:
			return j
		case !releasePart(ev[j]):
			return -1
		}
	}
	return -1
}
