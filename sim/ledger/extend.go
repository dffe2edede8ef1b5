package ledger

import "locksim/sim"

// Renewals is what an actor's extensions got back: the compare-and-PEXPIRE
// script answers 1 (the lease extended), 0 (the key holds another token)
// or -1 (no such key). 0 and -1 are both refusals: nothing was extended.
type Renewals struct {
	Extended, Taken, Gone int
	// Unstopped counts renewals a timer (a watchdog) sent with a token
	// that an earlier extension had already been refused for: a watchdog
	// that did not stop when its lease was lost.
	Unstopped int
}

// Refused is how many extensions were refused (0 or -1).
func (r Renewals) Refused() int { return r.Taken + r.Gone }

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
		}
	}
	return out
}
