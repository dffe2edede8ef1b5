package ledger

import (
	"testing"

	"locksim/sim"
)

// TestOneCommandForms: DELEX IFEQ and DELIFEQ answer 1 or 0, SET IFEQ OK or
// nil (Redis 8.4's db.c delexCommand and t_string.c setGenericCommand,
// Valkey's t_string.c delifeqCommand). 1 and OK read as the script's 1; a 0
// or a nil reads the same whether another client holds the key or nobody
// does, and the fold, not the reply, says which.
func TestOneCommandForms(t *testing.T) {
	for _, form := range []string{sim.FormDelex, sim.FormDelifeq} {
		var own story
		own.set(0, "A", "a", lease, true, true).rel(10, "A", "a", form, 1)
		if r := Fold(own, sec(10), nil).Reads[1]; r.What != ReleasedOwn || r.Lease.End != Released {
			t.Errorf("%s 1: %+v", form, r)
		}

		var taken story
		taken.set(0, "A", "a", lease, true, true).set(31, "B", "b", lease, true, true).rel(32, "A", "a", form, 0)
		l := Fold(taken, sec(32), nil)
		if r := l.Reads[2]; r.What != RelNotDeleted || r.Other != "B" || r.Why != Lapsed {
			t.Errorf("%s 0 with B holding: %+v", form, r)
		}
		if b := l.Leases[1]; b.End != Open {
			t.Errorf("%s 0 leaves B's lease alone: %+v", form, b)
		}

		var gone story
		gone.set(0, "A", "a", lease, true, true).rel(40, "A", "a", form, 0)
		if r := Fold(gone, sec(40), nil).Reads[1]; r.What != RelNotDeleted || r.Other != "" || r.Why != Lapsed {
			t.Errorf("%s 0 with no key: %+v", form, r)
		}
	}

	renew := sim.Op{Kind: sim.OpExtend, Form: sim.FormSetIfeq, Token: "a", TTL: lease}
	var ok story
	ok.set(0, "A", "a", lease, true, true).op(10, "A", renew, "OK")
	if r := Fold(ok, sec(10), nil).Reads[1]; r.What != Extended || r.Lease.Ends() != sec(40) {
		t.Errorf("SET IFEQ OK: %+v", r)
	}
	var taken story
	taken.set(0, "A", "a", lease, true, true).set(31, "B", "b", lease, true, true).op(32, "A", renew, nil)
	if r := Fold(taken, sec(32), nil).Reads[2]; r.What != ExtNotSet || r.Other != "B" || r.Why != Lapsed {
		t.Errorf("SET IFEQ nil with B holding: %+v", r)
	}
	var gone story
	gone.set(0, "A", "a", lease, true, true).op(40, "A", renew, nil)
	if r := Fold(gone, sec(40), nil).Reads[1]; r.What != ExtNotSet || r.Other != "" || r.Why != Lapsed {
		t.Errorf("SET IFEQ nil with no key: %+v", r)
	}
}

// TestSetIfeqGet: with GET, SET … IFEQ answers the value the key held
// whether or not it set anything (Redis 8.4 t_string.c setGenericCommand;
// the SET page: "GET ... returns the old string stored at key"): the token
// itself reads as renewed, another client's token as nothing set (the key
// B's), nil as nothing set and no key.
func TestSetIfeqGet(t *testing.T) {
	renew := sim.Op{Kind: sim.OpExtend, Form: sim.FormSetIfeqGet, Token: "a", TTL: lease}
	var own story
	own.set(0, "A", "a", lease, true, true).op(10, "A", renew, "a")
	if r := Fold(own, sec(10), nil).Reads[1]; r.What != Extended || r.Lease.Ends() != sec(40) {
		t.Errorf("SET IFEQ GET answering its own token: %+v", r)
	}
	var taken story
	taken.set(0, "A", "a", lease, true, true).set(31, "B", "b", lease, true, true).op(35, "A", renew, "b")
	l := Fold(taken, sec(35), nil)
	if r := l.Reads[2]; r.What != ExtNotSet || r.Other != "B" || r.Why != Lapsed {
		t.Errorf("SET IFEQ GET answering B's token: %+v", r)
	}
	if b := l.Leases[1]; b.End != Open || b.Ends() != sec(61) {
		t.Errorf("B's lease is untouched by A's refused renewal: %+v", b)
	}
	if rn := l.RenewalsOf("A"); rn.NotSet != 1 || rn.Extended != 0 {
		t.Errorf("A's renewals: %+v", rn)
	}
	var gone story
	gone.set(0, "A", "a", lease, true, true).op(40, "A", renew, nil)
	if r := Fold(gone, sec(40), nil).Reads[1]; r.What != ExtNotSet || r.Other != "" || r.Why != Lapsed {
		t.Errorf("SET IFEQ GET nil: %+v", r)
	}
}

// TestSetIfneAcquire: SET key token IFNE other as an acquire (Redis 8.4)
// answers OK on a missing key, making it (t_string.c: only IFEQ and IFDEQ
// need the key), and OK over a holder whose token is not other, replacing
// it; nil only when the key holds other.
func TestSetIfneAcquire(t *testing.T) {
	ifne := func(tok string) sim.Op {
		return sim.Op{Kind: sim.OpAcquire, Form: sim.FormSetIfne, Token: tok, TTL: lease}
	}
	var s story
	s.op(0, "A", ifne("a"), "OK").op(5, "B", ifne("b"), "OK")
	l := Fold(s, sec(5), nil)
	if r := l.Reads[0]; r.What != Granted || r.Lease == nil || r.Lease.Token != "a" {
		t.Errorf("IFNE on a missing key: %+v", r)
	}
	r := l.Reads[1]
	if r.What != Granted || r.Overlap == nil || r.Overlap.First.Actor != "A" || r.Overlap.Cause != Overwritten {
		t.Errorf("IFNE over A's token: %+v", r)
	}
	var refused story
	refused.op(0, "A", ifne("a"), "OK").op(5, "B", ifne("b"), nil)
	if r := Fold(refused, sec(5), nil).Reads[1]; r.What != Refused || r.Other != "A" {
		t.Errorf("IFNE refused: %+v", r)
	}
}
