package scenes

import (
	"strconv"
	"strings"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// card is an actor's box: its token (or fencing token, or the constant it
// writes), then what it believes against what the key says.
func (r reader) card(a sim.Actor) say.Card {
	b := r.v.L.Belief(a.Name)
	first := "token " + ShortToken(a.Token)
	switch {
	case b.Fence > 0:
		first = "fence " + itoa(b.Fence)
	case b.Lease != nil && b.Lease.Fixed:
		first = `value "` + b.Lease.Token + `"`
	case r.value != "":
		first = `value "` + r.value + `"`
	}
	if m := r.marks[a.Name]; m != "" {
		first += " · " + m
	}
	if own, ok := r.cards[a.Name]; ok {
		first = own
	}
	line, tone := r.state(a, b)
	return say.Card{Name: a.Name, Lines: []string{first, line}, Tone: tone}
}

func (r reader) state(a sim.Actor, b ledger.Belief) (string, say.Tone) {
	if r.v.Hide {
		// what the actor did is on screen already; what its key holds now
		// is what the question asks
		switch {
		case a.Status == sim.Crashed:
			return "crashed", say.Bad
		case a.Status == sim.Paused:
			return "FROZEN · paused", say.Warn
		case b.Holds:
			return "acts as holder", say.Plain
		}
	}
	switch {
	case a.Status == sim.Crashed && b.KeyHolds && !b.Lease.Expires():
		return "crashed · no TTL", say.Bad
	case a.Status == sim.Crashed && b.KeyHolds:
		return "crashed holding", say.Warn
	case a.Status == sim.Crashed:
		return "crashed", say.Bad
	case a.Status == sim.Paused:
		return "FROZEN · paused", say.Warn
	case b.Holds && b.KeyHolds && !b.Lease.Expires():
		return "holder · no TTL", say.Warn
	case b.Holds && b.KeyHolds:
		return "OK · holder", say.Good
	case b.Holds:
		return "thinks holder ✗", say.Bad
	}
	e, rd, ok := r.latest(a.Name)
	if !ok {
		return "waiting", say.Dim
	}
	switch {
	case rd.Lost: // what the client heard; what ran is the readout's
		return "no reply · lost", say.Warn
	case rd.What == ledger.FoundOwn:
		return "own key · holder", say.Good
	}
	switch rd.What {
	case ledger.Refused:
		if rd.Refusal.Stuck {
			return "refused · stuck", say.Bad
		}
		return e.Reply + " · refused", say.Warn
	case ledger.ReleasedOwn:
		return "released · " + strings.TrimPrefix(e.Reply, "(integer) "), say.Good
	case ledger.RelNotHeld, ledger.RelNoLock:
		return "unlock refused", say.Warn
	case ledger.DeletedOther:
		return "deleted " + rd.Other + "'s key", say.Bad
	case ledger.DelNothing:
		return "DEL → 0", say.Plain
	case ledger.RelTaken:
		return "release → 0", say.Good
	case ledger.RelGone:
		return "release → -1", say.Good
	case ledger.ExtTaken:
		return "extend → 0", say.Warn
	case ledger.ExtGone:
		return "extend → -1", say.Warn
	case ledger.ExtFailed:
		return "extend → " + ledger.ErrorCode(e), say.Warn
	case ledger.ExtNoReply:
		return "extend: no reply", say.Warn
	case ledger.FencedNo:
		return "write REFUSED", say.Bad
	case ledger.WroteLate:
		return "late write taken", say.Bad
	case ledger.WroteHolder, ledger.FencedOK:
		return "write accepted", say.Good
	case ledger.UnknownOut:
		if e.NotSent() {
			return "not sent", say.Warn
		}
		return "outcome unknown", say.Warn
	case ledger.NodeGranted:
		return "OK from " + e.Node, say.Good
	case ledger.NodeLate:
		return "late OK on " + e.Node, say.Bad
	case ledger.NodeRefused:
		return "(nil) from " + e.Node, say.Warn
	case ledger.NodeFailed:
		if e.Op.Kind == sim.OpRelease {
			// every node of this release round that failed so far: the
			// card stays at the round's last reply, which names one node
			return "released · " + andList(r.releaseFailed(r.index(e))) + " failed", say.Plain
		}
		// every node of this acquire that failed so far, not only the last
		_, failed := r.acquireRound(r.index(e))
		return andList(failed) + " failed", say.Warn
	case ledger.QuorumHeld:
		return "validity over", say.Plain // its hold ended: it stopped acting
	case ledger.Noted:
		if e.Step == "begin" {
			return "clock read: t0", say.Plain
		}
		if j := r.missedBefore(r.index(e)); j >= 0 {
			// a release step after a failed count sends nothing: the
			// count's release already went out, and the card keeps it
			return r.missedCard(j), say.Warn
		}
		return "done", say.Dim
	case ledger.NodeReleased, ledger.NodeRelTaken, ledger.NodeRelGone:
		return "released on " + e.Node, say.Plain
	case ledger.QuorumMissed:
		return r.missedCard(r.index(e)), say.Warn
	case ledger.PeekFree:
		return "GET (nil) · free", say.Plain
	case ledger.PeekTaken:
		return "GET: taken · out", say.Plain
	case ledger.ClaimEmpty:
		return "nothing pending", say.Plain
	case ledger.Reaped:
		if len(rd.Reaped) == 1 {
			return "took back 1 job", say.Plain
		}
		return "took back " + itoa(int64(len(rd.Reaped))) + " jobs", say.Plain
	case ledger.GaveUpFast, ledger.GaveUpRetries, ledger.GaveUpDeadline:
		// the client's own decision, logged: no reply to show
		return "gave up", say.Warn
	case ledger.Completed:
		return "completed (1)", say.Good
	case ledger.CompleteStale:
		return "refused (0)", say.Warn
	case ledger.CompleteGone:
		return "too late (-1)", say.Warn
	}
	return ShortenTokens(e.Reply, r.v.Snap.Actors, r.v.Snap.Events), ToneOf(e)
}

// ToneOf colours a reply: grants and 1 good, refusals warn, errors bad.
func ToneOf(e sim.Event) say.Tone {
	n, isInt := e.Int()
	switch {
	case e.IsOK(), isInt && n == 1:
		return say.Good
	case e.IsNil(), isInt && n == 0:
		return say.Warn
	case e.ErrorReply(), e.Unknown():
		return say.Bad
	}
	return say.Plain
}

// readout explains the selected actor, else the actor of the latest step,
// else the clock.
func (r reader) readout() string {
	s := r.v.Snap
	var story []sim.Event
	for _, e := range s.Events {
		if e.Move >= 0 {
			story = append(story, e)
		}
	}
	if len(story) == 0 {
		return r.fill("start", nil)
	}
	if r.v.Hide {
		// from the question's moment, what the keys hold now is what it
		// asks: the readout says where the story stands, not what it read
		return r.fill("hidden", map[string]string{"now": Stamp(s.Now)})
	}
	if r.v.Sel >= 0 && r.v.Sel < len(s.Actors) {
		return r.about(s.Actors[r.v.Sel].Name)
	}
	if r.v.Text.Has("idle") {
		return r.fill("idle", nil) // a race: nobody selected yet
	}
	// the step's own actor, even when the step ended with the time its
	// client waited for a node that did not answer
	last := story[len(story)-1]
	if last.Kind != sim.Clock && last.Actor != "" {
		return r.about(last.Actor)
	}
	// (a timer's command while time passes is not the step's own: the
	// clock then says what the time did to every key)
	for i := len(story) - 1; i >= 0 && story[i].Move == last.Move; i-- {
		if story[i].Kind != sim.Clock && story[i].Actor != "" && !story[i].Timed {
			return r.about(story[i].Actor)
		}
	}
	return r.clock()
}

// clock says what the passing time did to each key read back, and who,
// frozen, still believes in a lease that is gone.
func (r reader) clock() string {
	var parts []string
	for _, k := range r.v.L.Keys {
		if k.Node != "" {
			parts = append(parts, r.nodeNow(k))
			continue
		}
		parts = append(parts, r.keyNow(k))
	}
	out := r.fill("clock", map[string]string{"now": Stamp(r.v.Snap.Now), "keys": strings.Join(parts, "; ")})
	for _, a := range r.v.Snap.Actors {
		if b := r.v.L.Belief(a.Name); a.Status == sim.Paused && b.Holds && !b.KeyHolds {
			out += " " + r.fill("clock-frozen", map[string]string{"actor": a.Name, "why": r.why(b.Lease)})
		}
	}
	return out
}

// about explains where one actor stands: its latest step as the ledger
// read it, or its state when that says more (crashed, frozen, believing
// in a lease the key no longer holds).
func (r reader) about(name string) string {
	a, _ := r.actor(name)
	b := r.v.L.Belief(name)
	vars := map[string]string{"actor": name, "now": Stamp(r.v.Snap.Now)}
	r.leaseVars(b.Lease, vars)
	if k, ok := r.keyOfActor(b); ok {
		vars["keynow"] = r.keyNow(k)
		vars["pttl"] = r.storyPTTL(k.PTTL)
	}
	switch a.Status {
	case sim.Crashed:
		switch {
		case b.KeyHolds && !b.Lease.Expires():
			return r.fill("crashed-stuck", vars)
		case b.KeyHolds:
			return r.fill("crashed-holding", vars)
		}
		return r.fill("crashed", vars)
	case sim.Paused:
		if b.Holds && !b.KeyHolds {
			vars["why"] = r.why(b.Lease)
			return r.fill("paused-lost", vars)
		}
		switch {
		case b.Holds && !b.Lease.Expires():
			return r.fill("paused-holding-nottl", vars)
		case b.Holds:
			return r.fill("paused-holding", vars)
		}
		return r.fill("paused", vars)
	}
	e, rd, ok := r.latest(name)
	if !ok {
		if c, sent := r.lastSent(name); sent {
			// a command the ledger gives no lock meaning still went out:
			// say what it was and what came back, never that it sent nothing
			vars["at"], vars["cmd"] = Stamp(c.At), ShortenTokens(c.Cmd, r.v.Snap.Actors, r.v.Snap.Events)
			vars["reply"] = ShortenTokens(c.Reply, r.v.Snap.Actors, r.v.Snap.Events)
			return r.fill("sent", vars)
		}
	}
	if !ok && r.v.Snap.Pos > 0 && r.v.Snap.Pos == len(r.v.Snap.Moves) {
		return r.fill("idle-end", vars)
	}
	if !ok {
		return r.fill("waiting", vars)
	}
	vars["at"] = Stamp(e.At)
	vars["reply"] = ShortenTokens(e.Reply, r.v.Snap.Actors, r.v.Snap.Events)
	vars["cmd"] = ""
	if len(e.Args) > 0 {
		vars["cmd"] = e.Args[0]
	}
	vars["other"] = rd.Other
	// the lease the event concerns, when it is the actor's own (a release
	// or extension may carry the token of an earlier acquisition)
	concern := b.Lease
	if rd.Lease != nil && rd.Lease.Actor == name {
		concern = rd.Lease
		r.leaseVars(concern, vars)
	}
	vars["why"] = r.why(concern)
	switch rd.What {
	case ledger.TTLSet, ledger.Extended, ledger.Noted, ledger.CheckOwn, ledger.Reentered, ledger.RelKept,
		ledger.ExtFailed, ledger.ExtNoReply:
		if b.Holds && !b.KeyHolds && b.Lease != nil && b.Lease.Seq < len(r.v.Snap.Events) {
			// the step is long past: what matters now is the lost lease
			vars["reply"] = ShortenTokens(r.v.Snap.Events[b.Lease.Seq].Reply, r.v.Snap.Actors, r.v.Snap.Events)
			return r.fill("holds-lost", vars)
		}
	}
	vars["node"] = e.Node
	if e.Op != nil && e.Op.Of > 0 {
		vars["votes"], vars["of"] = itoa(int64(e.Op.Votes)), itoa(int64(e.Op.Of))
		vars["need"] = itoa(int64(sim.Quorum(e.Op.Of)))
		vars["validity"] = itoa(e.Op.TTL.Milliseconds()) + " ms"
		if e.Op.TTL <= 0 {
			vars["validity"] = itoa(-e.Op.TTL.Milliseconds()) + " ms short"
		}
		vars["spent"] = itoa(e.Op.Spent.Milliseconds()) + " ms"
	}
	switch rd.What {
	case ledger.Granted, ledger.QuorumHeld:
		switch {
		case rd.What == ledger.QuorumHeld && rd.Overlap == nil && b.Holds && !b.KeyHolds:
			return r.fill("quorum-held-lost", vars)
		case rd.What == ledger.QuorumHeld && rd.Overlap == nil:
			return r.fill("quorum-held", vars)
		case rd.What == ledger.Granted && b.Holds && !b.KeyHolds:
			return r.fill("holds-lost", vars)
		case rd.Overlap != nil:
			o := rd.Overlap
			vars["other"] = o.First.Actor
			vars["by"] = byWhom(o.By)
			vars["oends"] = Stamp(endedAt(o.First.Lease))
			vars["okey"] = r.keyName(o.First.Lease.Key)
			if o.Uncopied {
				vars["onode"] = o.First.Lease.Node
				return r.fill("granted-over-uncopied", vars)
			}
			switch {
			case o.Cause == ledger.Lapsed:
				return r.fill(r.lapsedSection("granted-over-lapsed", o.First.Lease, vars), vars)
			case o.Cause == ledger.Overwritten && o.By == "":
				// no answered SET of the story's replaced it
				return r.fill(r.maybe("granted-over-replaced", o.First.Lease, vars), vars)
			case o.Cause == ledger.Restarted:
				vars["oends"] = Stamp(o.First.Lease.EndAt)
				if !o.First.Lease.Expires() {
					// a key with no TTL had no time left to lose
					return r.fill("granted-over-restarted-nottl", vars)
				}
			}
			if o.Cause == ledger.Overwritten && rd.Lease != nil && rd.Lease.Form == sim.FormSetIfne {
				// IFNE looked at the key: its own reason, not NX's absence
				return r.fill("granted-over-overwritten-ifne", vars)
			}
			return r.fill("granted-over-"+o.Cause.String(), vars)
		case rd.Replaced != nil && rd.Lease != nil && rd.Lease.Form == sim.FormSetIfne:
			return r.fill("granted-overwrote-ifne", vars)
		case rd.Replaced != nil:
			return r.fill("granted-overwrote", vars)
		}
		switch rd.Lease.Form {
		case sim.FormSETNX:
			return r.fill("granted-setnx", vars)
		case sim.FormFenced:
			return r.fill("granted-fenced", vars)
		}
		if !rd.Lease.Expires() {
			return r.fill("granted-nottl", vars)
		}
		return r.fill("granted", vars)
	case ledger.Refused:
		rf := rd.Refusal
		switch {
		case rf.Stuck:
			return r.fill("refused-stuck", vars)
		case rf.Free:
			return r.fill("refused-free", vars)
		case rf.Blocker == nil:
			return r.fill("refused-unknown", vars)
		case !rf.Blocker.Expires():
			return r.fill("refused-nottl", vars)
		case rf.Blocker.Actor == name && r.v.Text.Has("refused-own"): // its own key, its SET unheard
			r.leaseVars(rf.Blocker, vars)
			return r.fill("refused-own", vars)
		case rf.Blocker.Actor != name && !r.v.L.Belief(rf.Blocker.Actor).Holds && r.v.Text.Has("refused-unheard"):
			// a key whose client does not act as holder: no release comes
			r.leaseVars(rf.Blocker, vars)
			return r.fill("refused-unheard", vars)
		}
		return r.fill("refused", vars)
	case ledger.WroteHolder, ledger.WroteLate, ledger.FencedOK, ledger.FencedNo,
		ledger.Completed, ledger.CompleteStale, ledger.CompleteGone:
		w := rd.Write
		vars["fence"], vars["seen"] = itoa(w.Token), itoa(w.Seen)
		section := string(rd.What)
		if rd.What == ledger.FencedOK && w.Seen == 0 {
			section = "fenced-first"
		}
		return r.fill(section, vars)
	case ledger.Noted:
		vars["note"] = e.Note
		return r.fill("note", vars)
	case ledger.FoundOwn:
		// a GET read the key back: it was no retry of the SET, which NX
		// could have refused
		if e.Op != nil && e.Op.Kind == sim.OpCheck && r.v.Text.Has("found-own-get") {
			return r.fill("found-own-get", vars)
		}
	case ledger.QuorumMissed:
		count := r.fill("quorum-missed", vars)
		if e.Op.Votes >= sim.Quorum(e.Op.Of) {
			count = r.fill("quorum-late", vars) // a majority, but no time left
		}
		// the release the count sent in the same step, as the ledger read
		// each node's reply: a refused connection deleted nothing
		if round := r.countRound(r.index(e)); round != "" {
			return count + " " + round
		}
		return count
	case ledger.NodeLate:
		if nodes := r.lateNodes(r.index(e)); len(nodes) > 1 {
			vars["nodes"] = andList(nodes)
			return r.fill("node-late-many", vars)
		}
	case ledger.NodeGranted:
		oks, _ := r.acquireRound(r.index(e))
		vars["oks"] = itoa(int64(len(oks))) + " OK"
		if len(oks) != 1 {
			vars["oks"] += "s"
		}
		if f := rd.Freed; f != nil {
			// the node's key was free before the lease it held was due
			// to end on the story's clock: say what freed it
			vars["other"], vars["endat"], vars["ends"] = f.Actor, Stamp(f.EndAt), Stamp(f.Ends())
			vars["left"] = sim.FormatSpan(f.Ends() - f.EndAt)
			switch f.End {
			case ledger.Restarted:
				return r.fill("node-ok-restarted", vars)
			case ledger.Lapsed:
				vars["jump"] = sim.FormatSpan(r.v.L.JumpedBy(f))
				return r.fill("node-ok-jumped", vars)
			}
			return r.fill("node-ok-vanished", vars)
		}
	case ledger.NodeRefused:
		if rd.Other == "" {
			return r.fill("node-refused-unknown", vars)
		}
	case ledger.NodeFailed, ledger.NodeReleased, ledger.NodeRelTaken, ledger.NodeRelGone:
		if !releasePart(e) {
			break
		}
		if out, ok := r.releaseRound(r.index(e), vars); ok {
			return out
		}
		if rd.What == ledger.NodeFailed {
			return r.fill("node-rel-failed", vars)
		}
	case ledger.TTLSet:
		if rd.Other != "" {
			return r.fill("ttl-set-other", vars)
		}
	case ledger.PeekTaken:
		if rd.Other == "" {
			return r.fill("peek-taken-unknown", vars)
		}
	case ledger.DeletedOther:
		if rd.Refusal != nil {
			// it never held the lock: a release in a finally block
			vars["refusedat"] = Stamp(rd.Refusal.At)
			return r.fill("deleted-other-refused", vars)
		}
		switch {
		case e.Op.Seen != nil && e.Op.Form == sim.FormScript:
			// the key was read before and after: the script removed it,
			// whatever it compared and answered
			return r.fill("deleted-other-seen", vars)
		case e.Op.Form == sim.FormGetDel:
			return r.fill("deleted-other-getdel", vars)
		case e.Op.Form == sim.FormScript:
			return r.fill("deleted-other-script", vars)
		}
	}
	section := string(rd.What)
	if rd.What == ledger.ReleasedOwn && e.Op.Nested {
		// a lab lock's nested release: its sender still holds its outer
		// acquire, whose key it has just deleted
		section = "released-nested"
	}
	vars["code"] = ledger.ErrorCode(e)
	vars["timeout"] = sim.FormatSpan(r.v.Snap.Timeout)
	if r.v.Snap.Live {
		vars["timeout"] += " on the wire, as -timeout sets it"
	}
	switch {
	case (rd.What == ledger.Failed || rd.What == ledger.NotGranted) && rd.Refusal != nil && rd.Refusal.Free:
		// an acquire that let nobody in while the lock was free
		section += "-free"
	case rd.What == ledger.ExtFailed:
		section = r.extFailed(e, rd.Lease, vars)
	case rd.What == ledger.Extended && e.Op.Form == sim.FormSetIfeq:
		// the renewal in one command answers OK, not the script's 1
		section = "extended-set-ifeq"
	case rd.What == ledger.Extended && e.Op.Form == sim.FormSetIfeqGet:
		// with GET it answers the old value: the token it compared with
		section = "extended-set-ifeq-get"
	case rd.What == ledger.ExtNotSet && e.Op.Form == sim.FormSetIfeqGet && e.IsNil():
		section = "ext-not-set-get-nil"
	case rd.What == ledger.ExtNotSet && e.Op.Form == sim.FormSetIfeqGet:
		// GET's value is the key's: a client of the run's, or one outside it
		section = "ext-not-set-get"
		if vars["other"] == "" {
			vars["other"] = "another client"
		}
	case rd.What == ledger.ExtGone && rd.Why == ledger.Vanished:
		// gone before its end: no expiry, and no lateness, explains it
		section = "ext-gone-vanished"
	case (rd.What == ledger.ExtTaken || rd.What == ledger.RelTaken) && rd.Other == "" &&
		rd.Why == ledger.Overwritten && rd.WhyBy == "":
		// the key held a value no answered command of the story wrote
		section = r.maybe(section+"-outside", rd.Lease, vars)
	case rd.What == ledger.UnknownOut && e.NotSent():
		section = "not-sent"
	case (rd.What == ledger.UnknownOut || rd.What == ledger.ExtNoReply) && !e.TimedOut():
		// no timeout ran out: the connection was lost, and the reply says how
		section += "-lost"
	}
	if rd.Lost && r.v.Text.Has("lost-"+section) { // it ran; its reply was lost on the way back
		section = "lost-" + section
	}
	// a command a timer sent (a watchdog's renewal) reads from the scene's
	// "timer-" section when it has one, and from its "-frozen" one when it
	// went out late because its actor was frozen
	switch {
	case e.Timed && rd.Frozen && r.v.Text.Has("timer-"+section+"-frozen"):
		return r.fill("timer-"+section+"-frozen", vars)
	case e.Timed && r.v.Text.Has("timer-"+section):
		return r.fill("timer-"+section, vars)
	}
	return r.fill(section, vars)
}

// keyOfActor is the key read back that the actor's latest lease was on.
func (r reader) keyOfActor(b ledger.Belief) (ledger.KeyRead, bool) {
	if b.Lease != nil && b.Lease.Node != sim.LockNode && b.Lease.Node != ledger.QuorumNode {
		for _, k := range r.v.L.Keys {
			if k.Name == b.Lease.Key && k.Node == b.Lease.Node {
				return k, true
			}
		}
	}
	if b.Lease != nil {
		return r.keyOf(b.Lease.Key)
	}
	if len(r.v.L.Keys) > 0 {
		return r.v.L.Keys[0], true
	}
	return ledger.KeyRead{}, false
}

// alarm names the violation the ledger found: the first overlap of two
// holders (mutual exclusion stays broken from that moment), else a key
// with no TTL blocking a contender after its holder crashed. Each later
// overlap is named by the readout of the grant that started it.
func (r reader) alarm() string {
	l := r.v.L
	if o := l.FirstOverlap(); o != nil {
		vars := map[string]string{"first": o.First.Actor, "second": o.Second.Actor, "from": Stamp(o.FromAt),
			"by": byWhom(o.By), "lock": r.keyName(o.Lock)}
		section := "alarm-" + o.Cause.String()
		switch {
		case o.Cause == ledger.Lapsed:
			section = r.lapsedSection(section, o.First.Lease, vars)
		case o.Cause == ledger.Overwritten && o.By == "":
			section = r.maybe("alarm-replaced", o.First.Lease, vars)
		case o.Cause == ledger.Overwritten && o.Second.Lease != nil && o.Second.Lease.Form == sim.FormSetIfne:
			section = "alarm-overwritten-ifne"
		}
		out := r.fill(section, vars)
		if n := len(l.Overlaps) - 1; n > 0 {
			out += " " + r.fill("alarm-more", map[string]string{"n": strconv.Itoa(n)})
		}
		return out
	}
	if st := l.Stuck(); len(st) > 0 {
		return r.fill("alarm-stuck", map[string]string{"holder": st[0].Blocker.Actor, "blocked": st[0].Actor,
			"key": r.keyName(st[0].Key)})
	}
	return ""
}
