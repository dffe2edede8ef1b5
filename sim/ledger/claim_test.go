package ledger

import (
	"testing"

	"locksim/sim"
)

const active = "emq:{q}:active"

// claim is a claim's reply: id, payload, attempts; "" for an empty array.
func (s *story) claim(at float64, actor, id string, attempts int64) *story {
	var val any = []any{}
	if id != "" {
		val = []any{id, "payload", attempts}
	}
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Val: val,
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormClaim, Key: active, TTL: lease, NX: true}})
}

func (s *story) reap(at float64, actor string, ids ...string) *story {
	val := []any{}
	for _, id := range ids {
		val = append(val, id)
	}
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Val: val,
		Op: &sim.Op{Kind: sim.OpRelease, Form: sim.FormReap, Key: active}})
}

func (s *story) complete(at float64, actor, id string, attempts, n int64) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Val: n,
		Op: &sim.Op{Kind: sim.OpRelease, Form: sim.FormComplete, Lock: sim.JobLock(id), Key: active, Token: id, Fence: attempts}})
}

// activeSet is the active set as read back, members in order.
func activeSet(members ...string) sim.KeyState {
	k := sim.KeyState{Name: active, Type: "zset", PTTL: 3600000}
	for _, m := range members {
		k.Fields = append(k.Fields, sim.Field{Name: m, Value: "1767258030000"})
	}
	if len(members) == 0 {
		k = sim.KeyState{Name: active, Type: "none", PTTL: -2}
	}
	return k
}

// TestClaimsShareOneKey: two claims on one active set are two leases of
// two locks; each worker's belief is checked against its own member, and
// no claim ends another's.
func TestClaimsShareOneKey(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).claim(0, "w2", "j2", 1)
	l := Fold(s, sec(1), []sim.KeyState{activeSet("j1", "j2")})
	if len(l.Leases) != 2 || l.Leases[0].Lock != "job j1" || l.Leases[1].Lock != "job j2" || l.Leases[1].Fence != 1 {
		t.Fatalf("leases %+v", l.Leases)
	}
	if l.Leases[0].End != Open || len(l.Overlaps) != 0 {
		t.Errorf("w2's claim ended w1's lease or overlapped it: %+v %v", l.Leases[0], l.Overlaps)
	}
	for _, w := range []string{"w1", "w2"} {
		if b := l.Belief(w); !b.Holds || !b.KeyHolds {
			t.Errorf("%s: %+v", w, b)
		}
	}
	if len(l.Keys[0].Members) != 2 || l.Keys[0].Lease != nil {
		t.Errorf("the active set's claims: %+v", l.Keys[0])
	}
	// the queue kept two claimants apart: mutual exclusion held
	if p := l.Properties(true); p[0] != Held {
		t.Errorf("properties %v", p)
	}
}

// TestClaimDeadlineFreesNothing: past its deadline a claim still holds its
// member until a reap takes it back; a reap that finds nothing due ends
// nothing.
func TestClaimDeadlineFreesNothing(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).reap(20, "reaper")
	l := Fold(s, sec(40), []sim.KeyState{activeSet("j1")})
	if ls := l.Leases[0]; ls.End != Open {
		t.Fatalf("the deadline alone ended the claim: %+v", ls)
	}
	if b := l.Belief("w1"); !b.KeyHolds {
		t.Errorf("w1's member is still in the active set: %+v", b)
	}
	if r := l.Reads[1]; r.What != Reaped || len(r.Reaped) != 0 {
		t.Errorf("an empty reap: %+v", r)
	}
}

// TestReapedJobClaimedAgain: the crash story. w1 crashes holding j1, the
// reap takes it back (lapsed, by the reaper), w3 claims it with attempts 2.
// No overlap: w1 was gone. Deadlock freedom held: the lapsed lease let w3
// in.
func TestReapedJobClaimedAgain(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).claim(0, "w2", "j2", 1).fault(1, "w1", sim.FaultCrash).
		complete(2, "w2", "j2", 1, 1).reap(35, "reaper", "j1").claim(36, "w3", "j1", 2)
	l := Fold(s, sec(36), []sim.KeyState{activeSet("j1")})
	w1 := l.Leases[0]
	if w1.End != Lapsed || w1.By != "reaper" || w1.EndSeq != 4 {
		t.Errorf("w1's claim after the reap: %+v", w1)
	}
	if r := l.Reads[4]; len(r.Reaped) != 1 || r.Reaped[0] != w1 {
		t.Errorf("the reap: %+v", r)
	}
	if l.Leases[1].End != Released || l.Reads[3].What != Completed {
		t.Errorf("w2's completion: %+v %+v", l.Leases[1], l.Reads[3])
	}
	if r := l.Reads[5]; r.What != Granted || r.Lease.Fence != 2 || r.Overlap != nil {
		t.Errorf("w3's claim: %+v", r)
	}
	if b := l.Belief("w3"); !b.KeyHolds || b.Fence != 2 {
		t.Errorf("w3 holds j1's member now: %+v", b)
	}
	if b := l.Belief("w1"); b.KeyHolds || b.Holds {
		t.Errorf("w1 crashed and its claim was reaped: %+v", b)
	}
	if len(l.Overlaps) != 0 {
		t.Errorf("overlaps %v", l.Overlaps)
	}
	if p := l.Properties(true); p != [3]Verdict{Held, Held, Absent} {
		t.Errorf("properties %v", p)
	}
}

// TestPausedWorkerRefused: the pause story. w1 is frozen past its deadline,
// the reap takes j1 back and w3 claims it: both act as holder of job j1
// (an overlap, caused by the lapse). w1 wakes and completes with attempts
// 1: refused (0), the job's attempts being w3's 2; that ends w1's hold and
// the overlap. w3's completion is accepted.
func TestPausedWorkerRefused(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).fault(1, "w1", sim.FaultPause).reap(35, "reaper", "j1").claim(36, "w3", "j1", 2).
		fault(37, "w1", sim.FaultResume).complete(37, "w1", "j1", 1, 0).complete(38, "w3", "j1", 2, 1)
	l := Fold(s, sec(38), []sim.KeyState{activeSet()})
	if len(l.Overlaps) != 1 {
		t.Fatalf("overlaps %v", l.Overlaps)
	}
	o := l.Overlaps[0]
	if o.Lock != "job j1" || o.First.Actor != "w1" || o.Second.Actor != "w3" || o.Cause != Lapsed || o.By != "reaper" || o.To != 5 {
		t.Errorf("overlap %+v", o)
	}
	if r := l.Reads[3]; r.Overlap != o || r.Other != "w1" {
		t.Errorf("w3's claim: %+v", r)
	}
	r := l.Reads[5]
	if r.What != CompleteStale || r.Other != "w3" || r.Write == nil || r.Write.Token != 1 || r.Write.Seen != 2 || r.Write.Accepted || r.Why != Lapsed {
		t.Errorf("w1's completion: %+v %+v", r, r.Write)
	}
	if h := l.HoldOf("w1"); h.Open() || h.End != SentRelease {
		t.Errorf("w1's hold: %+v", h)
	}
	if r := l.Reads[6]; r.What != Completed || !r.Write.Accepted || l.Leases[1].End != Released {
		t.Errorf("w3's completion: %+v", r)
	}
	if p := l.Properties(true); p[0] != Broken || p[1] != Held {
		t.Errorf("properties %v", p)
	}
}

// TestCompleteAfterReap: a completion after the reap, before anyone
// claimed the job again: the attempts still match, but the job is no
// longer active (-1).
func TestCompleteAfterReap(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).reap(35, "reaper", "j1").complete(36, "w1", "j1", 1, -1)
	l := Fold(s, sec(36), nil)
	if r := l.Reads[2]; r.What != CompleteGone || r.Why != Lapsed || r.WhyBy != "reaper" || r.Other != "" {
		t.Errorf("w1's completion: %+v", r)
	}
}

// TestClaimEmptyAndSameWorker: a claim that finds nothing pending is no
// grant and no refusal; a worker that holds two jobs holds both.
func TestClaimEmptyAndSameWorker(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).claim(1, "w1", "j2", 1).claim(2, "w2", "", 0)
	l := Fold(s, sec(2), []sim.KeyState{activeSet("j1", "j2")})
	if r := l.Reads[2]; r.What != ClaimEmpty || len(l.Refusals) != 0 {
		t.Errorf("the empty claim: %+v, refusals %v", r, l.Refusals)
	}
	if l.Holds[0].End != StillHolding || l.Holds[1].End != StillHolding {
		t.Errorf("w1 holds both jobs: %+v %+v", l.Holds[0], l.Holds[1])
	}
	// one worker with two jobs kept nobody apart
	if p := l.Properties(true); p[0] != Untested {
		t.Errorf("properties %v", p)
	}
}

// TestFreedByTTLPerJob: a reaped claim of one job does not count as
// freeing another job on the same active set.
func TestFreedByTTLPerJob(t *testing.T) {
	var s story
	s.claim(0, "w1", "j1", 1).reap(35, "reaper", "j1").claim(36, "w2", "j2", 1)
	if l := Fold(s, sec(36), nil); l.FreedByTTL() != nil {
		t.Errorf("j2's claim was freed by j1's lapse: %+v", l.FreedByTTL())
	}
}
