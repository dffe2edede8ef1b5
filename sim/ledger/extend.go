package ledger

import "locksim/sim"

// Renewals is what an actor's extensions got back: the compare-and-PEXPIRE
// script answers 1 (the lease extended), 0 (the key holds another token)
// or -1 (no such key). 0 and -1 are both refusals: nothing was extended.
// The server may also answer with an error: before running the script
// (BUSY while another script runs, NOSCRIPT for an EVALSHA it has not
// cached), or from inside it (READONLY on a replica, once the script calls
// PEXPIRE); or send no reply within the command timeout.
type Renewals struct {
	Extended, Taken, Gone int
	// NotSet counts one-command renewals (SET … IFEQ) answered nil: the key
	// held another token or none, which that reply does not tell apart.
	NotSet int
	// Errors counts the error replies by their code, in the order each
	// code first came; Failed is their sum.
	Errors []ErrorCount
	Failed int
	// NoReply counts extensions that got no reply: their outcome is unknown.
	NoReply int
	// Unstopped counts renewals a timer (a watchdog) sent with a token
	// that an earlier extension had already been refused for: a watchdog
	// that did not stop when its lease was lost.
	Unstopped int
}

// ErrorCount is how many error replies began with Code.
type ErrorCount struct {
	Code string
	N    int
}

// Refused is how many extensions were refused (0, -1, or an error reply):
// none of them extended anything.
func (r Renewals) Refused() int { return r.Taken + r.Gone + r.NotSet + r.Failed }

// RenewalsOf counts the actor's extensions by the ledger's reading of
// their replies.
func (l *Ledger) RenewalsOf(actor string) Renewals {
	var out Renewals
	refused := map[string]bool{}
	for i, e := range l.events {
		if e.Actor != actor || e.Op == nil || e.Op.Kind != sim.OpExtend {
			continue
		}
		if e.Timed && refused[e.Op.Token] {
			out.Unstopped++
		}
		switch l.Reads[i].What {
		case Extended:
			out.Extended++
		case ExtTaken:
			out.Taken++
			refused[e.Op.Token] = true
		case ExtGone:
			out.Gone++
			refused[e.Op.Token] = true
		case ExtNotSet:
			out.NotSet++
			refused[e.Op.Token] = true
		case ExtFailed:
			// the watchdog tries again at its next period: no stop expected
			out.Failed++
			out.count(ErrorCode(e))
		case ExtNoReply:
			out.NoReply++
		}
	}
	return out
}

func (r *Renewals) count(code string) {
	for i := range r.Errors {
		if r.Errors[i].Code == code {
			r.Errors[i].N++
			return
		}
	}
	r.Errors = append(r.Errors, ErrorCount{Code: code, N: 1})
}
