package check_test

import (
	"testing"
	"time"

	"locksim/check"
	"locksim/sim"
	"locksim/sim/ledger"
)

// TestFoundOwnHoldsTheMutex: A's SET got no reply (it ran: the key was
// read before and after), A's SET … NX … GET a second later answered A's
// own token, so A acts as holder; B is granted the lock at 31 s, after
// A's lease (counted from the first send) ran out while A still acts as
// holder. The ledger sees two holders, and the client's mutex breaks at
// B's grant; the server's lease stays linearizable (NX refused A's retry).
func TestFoundOwnHoldsTheMutex(t *testing.T) {
	const key = "resource:lock"
	ttl := 30 * time.Second
	acquire := func(form, tok string) *sim.Op {
		return &sim.Op{Kind: sim.OpAcquire, Form: form, Lock: key, Key: key, Token: tok, TTL: ttl, NX: true}
	}
	lost := acquire(sim.FormSET, "tA")
	lost.Seen = &sim.KeyChange{TTLBefore: -1, Has: true, After: "tA", TTLAfter: ttl}
	events := []sim.Event{
		{Seq: 0, At: 0, Kind: sim.Command, Actor: "A", Node: sim.LockNode, Err: sim.ErrReplyLost, Lost: true, Op: lost},
		{Seq: 1, At: time.Second, Kind: sim.Command, Actor: "A", Node: sim.LockNode, Val: "tA", Reply: `"tA"`, Op: acquire(sim.FormSetNXGet, "tA")},
		{Seq: 2, At: 31 * time.Second, Kind: sim.Command, Actor: "B", Node: sim.LockNode, Val: "OK", Reply: "OK", Op: acquire(sim.FormSET, "tB")},
	}
	led := ledger.Fold(events, 32*time.Second, nil)
	if led.Reads[1].What != ledger.FoundOwn || len(led.Overlaps) != 1 {
		t.Fatalf("the ledger reads A's retry as %q with %d overlaps", led.Reads[1].What, len(led.Overlaps))
	}
	h := check.FromEvents(events, 32*time.Second, check.Options{})
	if f := check.CheckModel(h, check.Mutex(), check.DefaultTimeout); f.Result != check.NotLinearizable {
		t.Errorf("the client's mutex: %s, want not linearizable at B's grant", f.Result)
	}
	if f := check.CheckModel(h, check.Server(), check.DefaultTimeout); f.Result != check.Linearizable {
		t.Errorf("the server's lease: %s", f.Result)
	}
}
