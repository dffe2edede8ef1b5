package ledger

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
)

// story builds hand-written event lists: each helper appends one event at
// story time at (seconds).
type story []sim.Event

const key = "resource:lock"

func (s *story) add(e sim.Event) *story {
	e.Seq = len(*s)
	if e.Kind == sim.Command && e.Node == "" {
		e.Node = sim.LockNode
	}
	*s = append(*s, e)
	return s
}

func sec(at float64) time.Duration { return time.Duration(at * float64(time.Second)) }

func (s *story) set(at float64, actor, tok string, ttl time.Duration, nx, ok bool) *story {
	e := sim.Event{At: sec(at), Kind: sim.Command, Actor: actor,
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: tok, TTL: ttl, NX: nx}}
	if ok {
		e.Val = "OK"
	} else {
		e.Err = redis.Nil
	}
	return s.add(e)
}

func (s *story) setnx(at float64, actor, tok string, n int64) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Val: n,
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSETNX, Lock: key, Key: key, Token: tok, NX: true}})
}

func (s *story) rel(at float64, actor, tok, form string, n int64) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Val: n,
		Op: &sim.Op{Kind: sim.OpRelease, Form: form, Lock: key, Key: key, Token: tok}})
}

func (s *story) fault(at float64, actor string, f sim.FaultKind) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Fault, Fault: f, Actor: actor})
}

func (s *story) write(at float64, actor string, fence int64, accepted bool) *story {
	e := sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Node: sim.ResourceNode, Val: int64(1),
		Op: &sim.Op{Kind: sim.OpWrite, Form: sim.FormWrite}}
	if fence > 0 {
		e.Op = &sim.Op{Kind: sim.OpFencedWrite, Form: sim.FormFenceW, Fence: fence}
	}
	if !accepted {
		e.Val, e.Err = nil, replyErr("STALE token")
	}
	return s.add(e)
}

const lease = 30 * time.Second

func TestRaceOneHolder(t *testing.T) {
	var s story
	s.set(0, "w2", "b", lease, true, true).set(0, "w1", "a", lease, true, false).set(0, "w3", "c", lease, true, false)
	l := Fold(s, 0, nil)
	if len(l.Leases) != 1 || l.Leases[0].Actor != "w2" || len(l.Refusals) != 2 {
		t.Fatalf("leases %v refusals %v", l.Leases, l.Refusals)
	}
	if p := l.Properties(true); p != [3]Verdict{Held, Untested, Absent} {
		t.Errorf("properties %v", p)
	}
	for _, r := range l.Refusals {
		if r.Blocker == nil || r.Blocker.Actor != "w2" {
			t.Errorf("%s should be refused by w2's lease: %+v", r.Actor, r)
		}
	}
}

// TestOverrunIsOneRule: A's lease lapses while it works, B is granted
// before A releases: two holders (correction 3), whatever the release did.
func TestOverrunIsOneRule(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).set(35, "B", "b", lease, true, true).rel(36, "A", "a", sim.FormScript, 0)
	l := Fold(s, sec(36), nil)
	if len(l.Overlaps) != 1 {
		t.Fatalf("overlaps %v", l.Overlaps)
	}
	o := l.Overlaps[0]
	if o.First.Actor != "A" || o.Second.Actor != "B" || o.Cause != Lapsed || o.To != 2 || o.FromAt != sec(35) {
		t.Errorf("overlap %+v", o)
	}
	if r := l.Reads[2]; r.What != RelTaken || r.Other != "B" || r.Why != Lapsed {
		t.Errorf("A's release: %+v", r)
	}
	if p := l.Properties(true); p[0] != Broken || p[1] != Held {
		t.Errorf("properties %v", p)
	}
}

// TestExpiryBoundary: at exactly the lease's end the key is still there
// (Redis 7); a grant then would be the fold's contradiction, so a refusal
// names the holder.
func TestExpiryBoundary(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).set(30, "B", "b", lease, true, false)
	l := Fold(s, sec(30), nil)
	if r := l.Refusals[0]; r.Blocker == nil || r.Blocker.Actor != "A" {
		t.Fatalf("at 30.000s A's lease still holds the key: %+v", r)
	}
	if l.Leases[0].End != Open || !l.Leases[0].AliveAt(sec(30)) || l.Leases[0].AliveAt(sec(30)+time.Millisecond) {
		t.Errorf("lease %+v", l.Leases[0])
	}
}

// TestNoNXOverwrite: with NX off the second SET replaces the first: the
// cause is the overwrite, not a lease (correction 4; PX off too).
func TestNoNXOverwrite(t *testing.T) {
	var s story
	s.set(0, "w1", "a", 0, false, true).set(1, "w2", "b", 0, false, true)
	l := Fold(s, sec(1), []sim.KeyState{{Name: key, Type: "string", Value: "b", PTTL: -1}})
	if len(l.Overlaps) != 1 || l.Overlaps[0].Cause != Overwritten || l.Overlaps[0].By != "w2" {
		t.Fatalf("overlaps %+v", l.Overlaps)
	}
	if b := l.Belief("w1"); !b.Holds || b.KeyHolds {
		t.Errorf("w1 acts as holder, the key is w2's: %+v", b)
	}
	if b := l.Belief("w2"); !b.KeyHolds {
		t.Errorf("w2: %+v", b)
	}
}

// TestCrashGapDeadlock: SETNX, crash before EXPIRE, a contender refused by
// a key with no TTL: deadlock freedom broken.
func TestCrashGapDeadlock(t *testing.T) {
	var s story
	s.setnx(0, "s1", "a", 1).fault(0, "s1", sim.FaultCrash).setnx(40, "s2", "b", 0)
	l := Fold(s, sec(40), nil)
	if st := l.Stuck(); len(st) != 1 || st[0].Actor != "s2" || st[0].Blocker.Actor != "s1" {
		t.Fatalf("stuck %+v", st)
	}
	if p := l.Properties(true); p[1] != Broken || p[0] != Held {
		t.Errorf("properties %v", p)
	}
	if h := l.HoldOf("s1"); h.End != Crashed {
		t.Errorf("a crash ends the hold: %+v", h)
	}
}

// TestBlindDelete: A's blind DEL after its lease lapsed removes B's lock; C
// is granted while B still acts as holder.
func TestBlindDelete(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).set(35, "B", "b", lease, true, true).
		rel(35, "A", "a", sim.FormDEL, 1).set(35, "C", "c", lease, true, true)
	l := Fold(s, sec(35), nil)
	if r := l.Reads[2]; r.What != DeletedOther || r.Other != "B" {
		t.Fatalf("A's DEL: %+v", r)
	}
	if len(l.Overlaps) != 2 || l.Overlaps[1].First.Actor != "B" || l.Overlaps[1].Cause != Deleted || l.Overlaps[1].By != "A" {
		t.Fatalf("overlaps %+v %+v", l.Overlaps[0], l.Overlaps[1])
	}
}

// TestReleaseGone: the script's -1 says the key is gone; the ledger says why.
func TestReleaseGone(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).rel(35, "A", "a", sim.FormScript, -1)
	l := Fold(s, sec(35), nil)
	if r := l.Reads[1]; r.What != RelGone || r.Why != Lapsed {
		t.Fatalf("%+v", r)
	}
	if len(l.Overlaps) != 0 || l.Properties(true)[0] != Untested {
		t.Errorf("nobody competed: %v", l.Properties(true))
	}
}

// TestFencedWrites: the resource accepts the current token again and
// refuses a lower one (correction 2); the lock was still not exclusive.
func TestFencedWrites(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).fault(0, "A", sim.FaultPause).
		set(32, "B", "b", lease, true, true).write(32, "B", 34, true).write(33, "B", 34, true).
		fault(35, "A", sim.FaultResume).write(35, "A", 33, false)
	l := Fold(s, sec(35), nil)
	if len(l.Writes) != 3 || !l.Writes[1].Accepted || l.Writes[2].Accepted || l.Writes[2].Seen != 34 {
		t.Fatalf("writes %+v %+v %+v", l.Writes[0], l.Writes[1], l.Writes[2])
	}
	if l.Reads[6].What != FencedNo || l.Writes[2].Covered {
		t.Errorf("A's late write: %+v", l.Reads[6])
	}
	if l.Properties(true)[0] != Broken {
		t.Errorf("fencing keeps the resource safe, not the lock exclusive")
	}
}

// TestUnknownOutcome: a timed-out command is unknown, never a refusal.
func TestUnknownOutcome(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true)
	s.add(sim.Event{At: sec(1), Kind: sim.Command, Actor: "B", Err: errTimeout{},
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: "b", TTL: lease, NX: true}})
	l := Fold(s, sec(1), nil)
	if len(l.Refusals) != 0 || len(l.Unknowns) != 1 || l.Reads[1].What != UnknownOut {
		t.Fatalf("refusals %v unknowns %v read %+v", l.Refusals, l.Unknowns, l.Reads[1])
	}
}

// replyErr is an error reply from the server, as go-redis types one.
type replyErr string

func (e replyErr) Error() string { return string(e) }
func (replyErr) RedisError()     {}

type errTimeout struct{}

func (errTimeout) Error() string { return "i/o timeout" }

// TestTwoKeysOneLock: two keys guard one lock; both grants overlap with
// the first lease still open (key naming).
func TestTwoKeysOneLock(t *testing.T) {
	var s story
	for i, w := range []string{"w1", "w2"} {
		k := "lock:" + w
		s.add(sim.Event{At: sec(float64(i)), Kind: sim.Command, Actor: w, Val: "OK",
			Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: "order 42", Key: k, Token: w, TTL: lease, NX: true}})
	}
	l := Fold(s, sec(1), nil)
	if len(l.Overlaps) != 1 || l.Overlaps[0].Cause != Open || l.Overlaps[0].Lock != "order 42" {
		t.Fatalf("%+v", l.Overlaps)
	}
}

// TestSplitAcquireTTL: SETNX then EXPIRE gives the lease its TTL from the
// EXPIRE; it lapses 30 s after that, and a later grant is freed by the TTL.
func TestSplitAcquireTTL(t *testing.T) {
	var s story
	s.setnx(0, "s1", "a", 1)
	s.add(sim.Event{At: sec(1), Kind: sim.Command, Actor: "s1", Val: int64(1),
		Op: &sim.Op{Kind: sim.OpExpire, Form: sim.FormExpire, Lock: key, Key: key, Token: "a", TTL: lease}})
	s.fault(2, "s1", sim.FaultCrash).setnx(31, "s2", "b", 0).setnx(31.001, "s2", "b", 1)
	l := Fold(s, sec(32), nil)
	if l.Refusals[0].Blocker == nil || l.Refusals[0].Stuck {
		t.Fatalf("at 31 s the lease (TTL from 1 s) still holds, and it has a TTL: %+v", l.Refusals[0])
	}
	if l.FreedByTTL() == nil || l.Properties(true)[1] != Held {
		t.Errorf("the TTL freed the lock: %v", l.Properties(true))
	}
}

func (s *story) op(at float64, actor string, op sim.Op, val any) *story {
	op.Lock, op.Key = key, key
	e := sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Op: &op, Val: val}
	if val == nil {
		e.Err = redis.Nil
	}
	return s.add(e)
}

// TestExtendRepliesWin: 1 extends (even when the fold's clock had the
// lease just over), 0 names the key's holder, -1 says why the lease ended.
func TestExtendRepliesWin(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).
		op(30.5, "A", sim.Op{Kind: sim.OpExtend, Form: sim.FormScript, Token: "a", TTL: lease}, int64(1)).
		op(31, "A", sim.Op{Kind: sim.OpExtend, Form: sim.FormScript, Token: "old", TTL: lease}, int64(0))
	l := Fold(s, sec(31), nil)
	if r := l.Reads[1]; r.What != Extended || r.Lease.End != Open || r.Lease.Ends() != sec(60.5) {
		t.Fatalf("the reply 1 wins over the fold's clock: %+v", r)
	}
	if r := l.Reads[2]; r.What != ExtTaken || r.Other != "A" {
		t.Errorf("an old token gets 0, the key being A's: %+v", r)
	}
	var g story
	g.set(0, "A", "a", lease, true, true).
		op(40, "A", sim.Op{Kind: sim.OpExtend, Form: sim.FormScript, Token: "a", TTL: lease}, int64(-1))
	if r := Fold(g, sec(40), nil).Reads[1]; r.What != ExtGone || r.Why != Lapsed {
		t.Errorf("-1 after the lease ran out: %+v", r)
	}
}

// TestCheckThenGiveUp: a GET that shows another token ends the hold, so
// the actor is not counted as a holder after it concluded it is not one.
func TestCheckThenGiveUp(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).set(31, "B", "b", lease, true, true).
		op(32, "A", sim.Op{Kind: sim.OpCheck, Token: "a"}, "b")
	l := Fold(s, sec(32), nil)
	if r := l.Reads[2]; r.What != CheckOther || r.Other != "B" || r.Why != Lapsed {
		t.Fatalf("%+v", r)
	}
	if h := l.HoldOf("A"); h.End != GaveUp || l.Belief("A").Holds {
		t.Errorf("A gave up: %+v", h)
	}
	if len(l.Overlaps) != 1 || l.Overlaps[0].To != 2 {
		t.Errorf("the overlap ends at A's check: %+v", l.Overlaps)
	}
}

// TestConstantTokenRelease: with one value for all, a late release script
// deletes the other worker's lock; the reply is 1, the victim is named.
func TestConstantTokenRelease(t *testing.T) {
	var s story
	s.set(0, "w3", "locked", lease, true, true).set(31, "w4", "locked", lease, true, true).
		rel(32, "w3", "locked", sim.FormScript, 1)
	l := Fold(s, sec(32), nil)
	if r := l.Reads[2]; r.What != DeletedOther || r.Other != "w4" {
		t.Fatalf("%+v", r)
	}
	if l.Leases[1].End != Deleted || l.Leases[1].By != "w3" {
		t.Errorf("w4's lease: %+v", l.Leases[1])
	}
}

// TestNXGrantOverNoTTLKey: a grant with NX over a key the fold thinks holds
// a lease with no TTL: something outside the run removed it (it vanished).
// The TTL did not free it, so deadlock freedom is not shown held.
func TestNXGrantOverNoTTLKey(t *testing.T) {
	var s story
	s.setnx(0, "s1", "a", 1).fault(0, "s1", sim.FaultCrash).setnx(100, "s2", "b", 1)
	l := Fold(s, sec(100), nil)
	if l.Leases[0].End != Vanished || l.Leases[0].By != "" || l.FreedByTTL() != nil {
		t.Fatalf("lease %+v, freed %v", l.Leases[0], l.FreedByTTL())
	}
}

// TestRefusalRevivesTheBlocker: the server refused, so the key was there;
// if the fold's clock had let the lease go a moment early (a live server),
// the refusal still names the holder.
func TestRefusalRevivesTheBlocker(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true).set(30.002, "B", "b", lease, true, false)
	l := Fold(s, sec(30.002), nil)
	if r := l.Refusals[0]; r.Blocker == nil || r.Blocker.Actor != "A" {
		t.Fatalf("%+v", r)
	}
}

// TestGrantNamesTheAlarmsOverlap: a grant that overlaps two holders names
// the latest, as the alarm does.
func TestGrantNamesTheAlarmsOverlap(t *testing.T) {
	var s story
	s.set(0, "w1", "a", lease, false, true).set(1, "w2", "b", lease, false, true).set(2, "w3", "c", lease, false, true)
	l := Fold(s, sec(2), nil)
	if r := l.Reads[2]; r.Overlap != l.Overlaps[len(l.Overlaps)-1] {
		t.Fatalf("grant names %+v, the latest overlap is %+v", r.Overlap, l.Overlaps[len(l.Overlaps)-1])
	}
	if r := l.Reads[1]; r.Replaced == nil || r.Replaced.Actor != "w1" {
		t.Errorf("w2's SET without NX replaced w1's value: %+v", r)
	}
}

// TestRefusedAgainEndsTheHold: an actor that asks for the lock again and
// is refused knows it does not hold it: its hold ends there.
func TestRefusedAgainEndsTheHold(t *testing.T) {
	var s story
	s.set(0, "w2", "a", lease, true, true).set(31, "w4", "b", lease, true, true).set(32, "w2", "c", lease, true, false)
	l := Fold(s, sec(32), nil)
	if h := l.HoldOf("w2"); h.End != RefusedAgain || l.Belief("w2").Holds {
		t.Fatalf("w2's hold: %+v", h)
	}
	if o := l.Overlaps[0]; o.Open() || o.To != 2 {
		t.Errorf("the overlap ends at w2's refusal: %+v", o)
	}
}

// A contender that only tries acts as holder until its lease ends, not for
// ever; frozen, it cannot know, and still acts as holder. The first overlap
// stays the one that broke mutual exclusion.
func TestTryingContender(t *testing.T) {
	try := func(s *story, at float64, actor, tok string) {
		s.set(at, actor, tok, lease, false, true)
		(*s)[len(*s)-1].Op.Try = true
	}
	cases := []struct {
		name      string
		play      func(s *story)
		overlaps  int
		w2holds   bool
		w2end     HoldEnd
		firstFrom float64
	}{
		{"w2 tries over w1 (NX off); w3 takes the lock after w2's lease", func(s *story) {
			s.set(0, "w1", "a", lease, false, true)
			try(s, 0, "w2", "b")
			s.fault(0, "w1", sim.FaultCrash)
			s.set(40, "w3", "c", lease, false, true)
		}, 1, false, TryOver, 0},
		{"w2's lease is overwritten at 10 s: it still has nothing to do after 30 s", func(s *story) {
			try(s, 0, "w2", "b")
			s.set(10, "w3", "c", lease, false, true)
			s.rel(20, "w3", "c", sim.FormScript, 1)
			s.set(40, "w4", "d", lease, false, true)
		}, 1, false, TryOver, 10},
		{"frozen, w2 still acts as holder", func(s *story) {
			try(s, 0, "w2", "b")
			s.fault(1, "w2", sim.FaultPause)
			s.set(40, "w3", "c", lease, false, true)
		}, 1, true, StillHolding, 40},
		{"a worker that is not only trying keeps acting as holder past its lease", func(s *story) {
			s.set(0, "w2", "b", lease, false, true)
			s.set(40, "w3", "c", lease, false, true)
		}, 1, true, StillHolding, 40},
	}
	for _, c := range cases {
		var s story
		c.play(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		h := l.HoldOf("w2")
		if len(l.Overlaps) != c.overlaps || h.Open() != c.w2holds || h.End != c.w2end ||
			l.FirstOverlap() == nil || l.FirstOverlap().FromAt != sec(c.firstFrom) {
			t.Errorf("%s: %d overlaps (first %+v), w2's hold %v ended %v at %v", c.name, len(l.Overlaps), l.FirstOverlap(), h.Open(), h.End, h.ToAt)
		}
		if c.w2end == TryOver && h.ToAt != lease {
			t.Errorf("%s: w2 stops acting as holder at its lease's end, not %v", c.name, h.ToAt)
		}
	}
}

// A client refused the lock that releases anyway (a release in a finally
// block) deletes the holder's lock with a blind DEL: the reading carries
// its refusal; a client that held the lock before is not that case.
func TestRefusedClientReleases(t *testing.T) {
	cases := []struct {
		name    string
		play    func(s *story)
		refused bool
	}{
		{"refused, then DEL in finally", func(s *story) {
			s.set(0, "B", "b", lease, true, true).set(1, "A", "a", lease, true, false).rel(1, "A", "a", sim.FormDEL, 1)
		}, true},
		{"held, lapsed, then DEL (no refusal)", func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(35, "B", "b", lease, true, true).rel(36, "A", "a", sim.FormDEL, 1)
		}, false},
		{"refused once, granted later, then DEL over another", func(s *story) {
			s.set(0, "B", "b", lease, true, true).set(1, "A", "a", lease, true, false).
				set(35, "A", "a2", lease, true, true).set(70, "C", "c", lease, true, true).rel(71, "A", "a2", sim.FormDEL, 1)
		}, false},
	}
	for _, c := range cases {
		var s story
		c.play(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		r := l.Reads[len(s)-1]
		if r.What != DeletedOther || (r.Refusal != nil) != c.refused {
			t.Errorf("%s: read %q, refusal %+v", c.name, r.What, r.Refusal)
		}
	}
}
