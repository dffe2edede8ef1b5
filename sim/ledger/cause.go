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

// early reports that a reply at story time at found ls's key gone before
// the key could have expired: a key with no TTL never does, and one with a
// TTL is kept through its last millisecond (less the live slack).
func (l *Ledger) early(ls *Lease, at time.Duration) bool {
	return !ls.Expires() || at < ls.Ends()-l.slack
}

// Unrenewed says why a lease that ran out was not renewed in time, as the
// events show.
type Unrenewed int

const (
	NotRenewed         Unrenewed = iota // nothing tried to renew it before its end
	RenewalsRefused                     // its renewals got error replies (BUSY, NOSCRIPT, OOM, READONLY)
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
// "OOM", "READONLY", "ERR"), "" for a reply that is not an error.
func ErrorCode(e sim.Event) string {
	if !e.ErrorReply() {
		return ""
	}
	code, _, _ := strings.Cut(strings.TrimSpace(e.Err.Error()), " ")
	return code
}
