package ledger

import (
	"strings"
	"time"

	"locksim/sim"
)

// LiveSlack is the wire time within which a live server's reply may find a
// key gone a little before the story's clock says its TTL ends: the server's
// clock runs on while a step's commands travel. Only a key gone earlier than
// that was removed by something else.
const LiveSlack = 50 * time.Millisecond

// FoldSnapshot folds a run's snapshot: on a live server a key found gone
// within LiveSlack (times the scale, in story time) of its end lapsed; on
// the embedded server, whose clock is the story's, any earlier is early.
func FoldSnapshot(s sim.Snapshot) *Ledger {
	var slack time.Duration
	if s.Live {
		slack = LiveSlack * time.Duration(max(s.Scale, 1))
	}
	return FoldWithSlack(s.Events, s.Now, s.Keys, slack)
}

// pause is a stretch in which an actor was frozen; to is -1 while it lasts.
type pause struct {
	actor    string
	from, to time.Duration
}

// frozenAt reports whether actor was frozen at story time t.
func (l *Ledger) frozenAt(actor string, t time.Duration) bool {
	for _, p := range l.pauses {
		if p.actor == actor && p.from <= t && (p.to < 0 || t < p.to) {
			return true
		}
	}
	return false
}

// early reports that e's reply found ls's key gone (or free) before the
// key could have expired: a key with no TTL never does, and one with a TTL
// is kept through its last millisecond on its node's clock. The server ran
// e at some moment up to its round trip after At, and ls's end counted
// from its own send time is the earliest it could expire, so only a
// command that ran for sure before that end (less the live slack, for a
// server clock a little ahead of the story's) found the key removed.
func (l *Ledger) early(ls *Lease, e sim.Event) bool {
	return !ls.Expires() || e.At+e.RTT < l.nodeEnd(ls)-l.slack
}

// jump is a node's clock jumping d forward at story time at.
type jump struct {
	node string
	seq  int
	at   time.Duration
	d    time.Duration
}

// JumpedBy is how far ls's node's clock jumped forward after ls's TTL was
// set and before it ended (or now): that much earlier, on the story's
// clock, the node let its key expire.
func (l *Ledger) JumpedBy(ls *Lease) time.Duration {
	until := l.Now
	if ls.End != Open {
		until = ls.EndAt
	}
	var d time.Duration
	for _, j := range l.jumps {
		if slot(j.node, "") == slot(ls.Node, "") && j.at <= until && (j.at > ls.TTLAt || j.at == ls.TTLAt && j.seq > ls.Seq) {
			d += j.d
		}
	}
	return d
}

// lastJump is the story time of the latest jump JumpedBy counts, 0 if none:
// a lease that a jump carried past its end ran out at that jump.
func (l *Ledger) lastJump(ls *Lease) time.Duration {
	var at time.Duration
	for _, j := range l.jumps {
		if slot(j.node, "") == slot(ls.Node, "") && (j.at > ls.TTLAt || j.at == ls.TTLAt && j.seq > ls.Seq) {
			at = j.at
		}
	}
	return at
}

// nodeEnd is the story time at which ls's TTL runs out on its node's own
// clock: its end, less the jumps that clock made since the TTL was set.
func (l *Ledger) nodeEnd(ls *Lease) time.Duration {
	if len(l.jumps) == 0 || ls.Node == QuorumNode {
		return ls.Ends()
	}
	return ls.Ends() - l.JumpedBy(ls)
}

// restarted ends every lease on the node that restarted empty in e: the
// key went with the node's memory (the Restarted end), however much time
// its TTL had left.
func (l *Ledger) restarted(e sim.Event) {
	for _, ls := range l.Leases {
		if ls.End != Open || slot(ls.Node, "") != slot(e.Node, "") || ls.Node == QuorumNode {
			continue
		}
		ls.End, ls.EndSeq, ls.EndAt = Restarted, e.Seq, e.At
		if l.byKey[ls.slot()] == ls {
			delete(l.byKey, ls.slot())
		}
	}
}

// MaybeBy is a command of another actor's on ls's key, sent while ls held
// it, that got no reply: it may have run, so it, not a client outside the
// story, may be what replaced ls's value. ok is false when there is none.
func (l *Ledger) MaybeBy(ls *Lease) (sim.Event, bool) {
	if ls == nil {
		return sim.Event{}, false
	}
	for _, e := range l.events {
		if e.Seq <= ls.Seq || ls.End != Open && e.At > ls.EndAt {
			continue
		}
		if e.Op != nil && e.Op.Kind != sim.OpCheck && e.Op.Kind != sim.OpPeek && e.Unknown() && !e.NotSent() && e.Actor != ls.Actor && slot(e.Node, e.Op.Key) == slot(ls.Node, ls.Key) {
			return e, true
		}
	}
	return sim.Event{}, false
}

// Unrenewed says why a lease that ran out was not renewed in time, as the
// events show.
type Unrenewed int

const (
	NotRenewed         Unrenewed = iota // nothing tried to renew it before its end
	RenewalsRefused                     // its renewals got error replies (BUSY, NOSCRIPT, READONLY)
	RenewalsUnanswered                  // its renewals got no reply within the command timeout
	HolderFrozen                        // its holder, and any watchdog in it, was frozen when it ran out
	HolderCrashed                       // its holder had crashed
)

// WhyUnrenewed is why lease ls, which lapsed, was not renewed before its
// end, and the first renewal that failed (when one did). Renewals that the
// server refused or never answered come first: they are what the holder's
// watchdog saw; else a holder frozen or crashed when the lease ran out.
func (l *Ledger) WhyUnrenewed(ls *Lease) (Unrenewed, sim.Event) {
	if ls == nil || ls.End != Lapsed {
		return NotRenewed, sim.Event{}
	}
	var failed, silent sim.Event
	for i, e := range l.events {
		if e.Op == nil || e.Op.Kind != sim.OpExtend || e.Op.Token != ls.Token || e.At < ls.TTLAt || e.At > ls.Ends() {
			continue
		}
		switch l.Reads[i].What {
		case ExtFailed:
			if failed.Op == nil {
				failed = e
			}
		case ExtNoReply:
			if silent.Op == nil {
				silent = e
			}
		}
	}
	switch {
	case failed.Op != nil:
		return RenewalsRefused, failed
	case silent.Op != nil:
		return RenewalsUnanswered, silent
	case l.frozenAt(ls.Actor, ls.Ends()):
		return HolderFrozen, sim.Event{}
	}
	for _, e := range l.events {
		if e.Kind == sim.Fault && e.Fault == sim.FaultCrash && e.Actor == ls.Actor && e.At <= ls.Ends() && e.At >= ls.Granted {
			return HolderCrashed, sim.Event{}
		}
	}
	return NotRenewed, sim.Event{}
}

// String names the reason as the course text's sections do: a suffix of
// why-lapsed, granted-over-lapsed and alarm-lapsed.
func (u Unrenewed) String() string {
	return [...]string{"", "refused", "unanswered", "frozen", "crashed"}[u]
}

// ErrorCode is the code an error reply starts with ("BUSY", "NOSCRIPT",
// "READONLY", "ERR"), "" for a reply that is not an error.
func ErrorCode(e sim.Event) string {
	if !e.ErrorReply() {
		return ""
	}
	code, _, _ := strings.Cut(strings.TrimSpace(e.Err.Error()), " ")
	return sim.Escape(code) // a script's error_reply chooses it
}
