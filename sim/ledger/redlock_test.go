package ledger

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
)

// node appends one node's share of a distributed acquire: OK, (nil), or
// a client-side failure.
func (s *story) node(at float64, actor, node, tok, reply string) *story {
	e := sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Node: node,
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: tok, TTL: 10 * time.Second, NX: true, Part: true}}
	switch reply {
	case "OK":
		e.Val = "OK"
	case "nil":
		e.Err = redis.Nil
	default:
		e.Err = errors.New(reply)
	}
	return s.add(e)
}

func (s *story) count(at float64, actor, tok string, votes int, validity time.Duration) *story {
	held := votes >= 3 && validity > 0
	return s.add(sim.Event{At: sec(at), Kind: sim.Info, Actor: actor,
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormQuorum, Lock: key, Key: key, Token: tok, TTL: validity, Votes: votes, Of: 5, Held: held}})
}

func (s *story) nodeRel(at float64, actor, node, tok string, n int64) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Node: node, Val: n,
		Op: &sim.Op{Kind: sim.OpRelease, Form: sim.FormScript, Lock: key, Key: key, Token: tok, Part: true}})
}

func (s *story) nodeFault(at float64, node, actor string, f sim.FaultKind) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Fault, Fault: f, Node: node, Actor: actor})
}

const validity = 9880 * time.Millisecond

// Two nodes down, three OK: held, no holder made by a node's OK, and the
// lock survived the loss of two nodes.
func TestRedlockMajorityWithTwoDown(t *testing.T) {
	var s story
	s.nodeFault(0, "D", "", sim.FaultNodeDown).nodeFault(0, "E", "", sim.FaultNodeDown)
	s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "OK").node(0, "c1", "C", "t1", "OK")
	if l := Fold(s, sec(0), nil); len(l.Holds) != 0 || len(l.Leases) != 3 {
		t.Fatalf("a node's OK is a lease on that node, not a holder: holds %d leases %d", len(l.Holds), len(l.Leases))
	}
	s.node(0, "c1", "D", "t1", "connection refused").node(0, "c1", "E", "t1", "connection refused").count(0, "c1", "t1", 3, validity)
	l := Fold(s, sec(1), nil)
	if b := l.Belief("c1"); !b.Holds || b.Lease.Node != QuorumNode || b.Lease.TTL != validity {
		t.Fatalf("3 of 5: c1 should hold for the validity time: %+v", b)
	}
	if got := l.Reads[len(s)-1].What; got != QuorumHeld {
		t.Errorf("the count reads %q", got)
	}
	if p := l.Properties(false); p[2] != Untested {
		t.Errorf("a lock held, not yet released, with two nodes down shows no fault tolerance yet: %v", p)
	}
	// the validity runs out: the client's lease lapses although the node keys live on
	l = Fold(s, sec(10), nil)
	if ls := l.Latest("c1"); ls.End != Lapsed {
		t.Errorf("the quorum lease should lapse after its validity: %v", ls.End)
	}
}

// Three down: no majority; the release on every node ends the two node
// leases it made, and nobody acted as holder.
func TestRedlockNoMajority(t *testing.T) {
	var s story
	for _, n := range []string{"C", "D", "E"} {
		s.nodeFault(0, n, "", sim.FaultNodeDown)
	}
	s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "OK")
	for _, n := range []string{"C", "D", "E"} {
		s.node(0, "c1", n, "t1", "connection refused")
	}
	s.count(0, "c1", "t1", 2, validity)
	s.nodeRel(0, "c1", "A", "t1", 1).nodeRel(0, "c1", "B", "t1", 1).nodeRel(0, "c1", "C", "t1", -1)
	l := Fold(s, sec(0), nil)
	if len(l.Holds) != 0 || l.Belief("c1").Holds {
		t.Fatalf("no majority: nobody holds (%d holds)", len(l.Holds))
	}
	if l.Reads[8].What != QuorumMissed || l.Reads[5].What != NodeFailed {
		t.Errorf("reads %v %v", l.Reads[8].What, l.Reads[5].What)
	}
	for _, ls := range l.Leases {
		if ls.End != Released {
			t.Errorf("node %s's lease should be released: %v", ls.Node, ls.End)
		}
	}
	if p := l.Properties(false); p[2] != Untested {
		t.Errorf("no lock with only two nodes up: fault tolerance untested: %v", p)
	}
}

// The clock jump: c1 holds A, B, C; C's key is gone early; c2 gets C, D, E
// and also holds: two holders of one lock, each with a majority.
func TestRedlockClockJumpTwoHolders(t *testing.T) {
	var s story
	s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "OK").node(0, "c1", "C", "t1", "OK")
	s.node(0, "c1", "D", "t1", "i/o timeout").node(0, "c1", "E", "t1", "i/o timeout").count(0, "c1", "t1", 3, validity)
	s.nodeFault(1, "C", "", sim.FaultClockJump)
	s.node(2, "c2", "A", "t2", "i/o timeout").node(2, "c2", "B", "t2", "i/o timeout")
	s.node(2, "c2", "C", "t2", "OK").node(2, "c2", "D", "t2", "OK").node(2, "c2", "E", "t2", "OK").count(2, "c2", "t2", 3, validity)
	l := Fold(s, sec(2), nil)
	if len(l.Overlaps) != 1 || l.Overlaps[0].First.Actor != "c1" || l.Overlaps[0].Second.Actor != "c2" {
		t.Fatalf("two majorities should overlap: %+v", l.Overlaps)
	}
	if p := l.Properties(false); p[0] != Broken {
		t.Errorf("mutual exclusion should be broken: %v", p)
	}
	// C's OK to c2 is a node lease on C; c1's lease on C ended there
	var onC []*Lease
	for _, ls := range l.Leases {
		if ls.Node == "C" {
			onC = append(onC, ls)
		}
	}
	if len(onC) != 2 || onC[0].End == Open || onC[1].End != Open {
		t.Errorf("C's leases: %+v", onC)
	}
}

// A slow node set the key but the client counted it failed: its release
// (1) deletes the key all the same.
func TestRedlockSlowNodeReleased(t *testing.T) {
	var s story
	s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "OK").node(0, "c1", "C", "t1", "no reply within 0.050s")
	s.count(0.05, "c1", "t1", 2, validity).nodeRel(0.05, "c1", "C", "t1", 1)
	l := Fold(s, sec(0.05), nil)
	if got := l.Reads[len(s)-1].What; got != NodeReleased {
		t.Fatalf("the slow node's release reads %q", got)
	}
}

func TestValidity(t *testing.T) {
	for _, c := range []struct {
		ttl, elapsed, want time.Duration
	}{
		{10 * time.Second, 0, 10*time.Second - 102*time.Millisecond},
		{10 * time.Second, 20 * time.Millisecond, 10*time.Second - 122*time.Millisecond},
		{30 * time.Second, time.Second, 30*time.Second - time.Second - 302*time.Millisecond},
		{10 * time.Second, 10 * time.Second, -102 * time.Millisecond},
		{10 * time.Second, 12 * time.Second, -2102 * time.Millisecond},
	} {
		if got := sim.Validity(c.ttl, c.elapsed); got != c.want {
			t.Errorf("Validity(%v, %v) = %v, want %v", c.ttl, c.elapsed, got, c.want)
		}
		if sim.Validity(c.ttl, c.elapsed) >= c.ttl-c.elapsed {
			t.Errorf("drift must shorten validity: %v %v", c.ttl, c.elapsed)
		}
	}
	for n, q := range map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 7: 4} {
		if sim.Quorum(n) != q {
			t.Errorf("Quorum(%d) = %d, want %d", n, sim.Quorum(n), q)
		}
	}
}

// A Redlock client stops acting as holder when its validity runs out: a
// second client that gets a majority after that does not overlap it.
func TestRedlockValidityEndsTheHold(t *testing.T) {
	var s story
	s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "OK").node(0, "c1", "C", "t1", "OK").count(0, "c1", "t1", 3, validity)
	s.nodeFault(1, "C", "", sim.FaultNodeDown).nodeFault(11, "C", "", sim.FaultNodeUp)
	s.node(12, "c2", "C", "t2", "OK").node(12, "c2", "D", "t2", "OK").node(12, "c2", "E", "t2", "OK").count(12, "c2", "t2", 3, validity)
	l := Fold(s, sec(12), nil)
	if len(l.Overlaps) != 0 {
		t.Fatalf("c1's validity was over before c2's grant: %+v", l.Overlaps[0])
	}
	if h := l.HoldOf("c1"); h.End != ValidityOver || h.ToAt != validity {
		t.Errorf("c1's hold should end with its validity at %v: %+v", validity, h)
	}
}

// A Redlock client frozen past its validity cannot check its deadline: it
// wakes still acting as holder, and a second majority overlaps it.
func TestRedlockPausedHolderOverlaps(t *testing.T) {
	var s story
	for _, n := range []string{"A", "B", "C", "D", "E"} {
		s.node(0, "c1", n, "t1", "OK")
	}
	s.count(0, "c1", "t1", 5, validity).fault(1, "c1", sim.FaultPause)
	for _, n := range []string{"A", "B", "C", "D", "E"} {
		s.node(12, "c2", n, "t2", "OK")
	}
	s.count(12, "c2", "t2", 5, validity).fault(13, "c1", sim.FaultResume)
	l := Fold(s, sec(13), nil)
	if len(l.Overlaps) != 1 || l.Properties(false)[0] != Broken {
		t.Fatalf("a frozen holder past its validity overlaps the next: %d overlaps", len(l.Overlaps))
	}
}

// A primary and its replica are one lock service with a copy: no majority
// is counted, so fault tolerance is absent, and the copy is no grant.
func TestFailoverHasNoFaultTolerance(t *testing.T) {
	var s story
	s.add(sim.Event{At: 0, Kind: sim.Command, Actor: "c1", Node: "primary", Val: "OK",
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: "t1", TTL: 10 * time.Second, NX: true}})
	s.add(sim.Event{At: 0, Kind: sim.Info, Node: "replica",
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormReplica, Key: key, Token: "t1", TTL: 10 * time.Second}})
	s.nodeFault(0, "primary", "", sim.FaultNodeDown)
	s.add(sim.Event{At: sec(1), Kind: sim.Command, Actor: "c2", Node: "replica", Err: redis.Nil,
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: "t2", TTL: 10 * time.Second, NX: true}})
	l := Fold(s, sec(1), nil)
	if p := l.Properties(false); p != [3]Verdict{Held, Untested, Absent} {
		t.Errorf("properties %v", p)
	}
	if ls := l.Latest("c1"); ls == nil || ls.Node != "primary" || ls.Copy {
		t.Errorf("c1's latest lease is its grant on the primary, not the copy: %+v", ls)
	}
	if rf := l.Refusals[0]; rf.Blocker == nil || rf.Blocker.Actor != "c1" || !rf.Blocker.Copy {
		t.Errorf("c2 is refused by c1's copy on the replica: %+v", rf.Blocker)
	}
}

// One node's OK to a client that then fails its count lets nobody in:
// deadlock freedom is not shown held by a share.
func TestNodeShareIsNoContenderLetIn(t *testing.T) {
	var s story
	s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "OK").node(0, "c1", "C", "t1", "OK").count(0, "c1", "t1", 3, validity)
	s.fault(1, "c1", sim.FaultCrash)
	s.node(11, "c2", "A", "t2", "OK").node(11, "c2", "B", "t2", "connection refused").node(11, "c2", "C", "t2", "connection refused")
	s.count(11, "c2", "t2", 1, validity)
	l := Fold(s, sec(11), nil)
	if p := l.Properties(false); p[1] == Held {
		t.Errorf("no contender got the lock, yet deadlock freedom reads held: %v", p)
	}
}

// Fault tolerance is liveness: held once a client acquired and released
// while nodes were lost to it; broken once a count found no majority while
// a majority of the nodes was up and nobody else held the lock; a second
// holder backed by its own majority is booked under mutual exclusion, not
// here.
func TestRedlockFaultToleranceIsLiveness(t *testing.T) {
	down := func(s *story, nodes ...string) {
		for _, n := range nodes {
			s.nodeFault(0, n, "", sim.FaultNodeDown)
		}
	}
	acquire := func(s *story, at float64, actor, tok string, ok ...string) {
		for _, n := range []string{"A", "B", "C", "D", "E"} {
			reply := "connection refused"
			if slices.Contains(ok, n) {
				reply = "OK"
			}
			s.node(at, actor, n, tok, reply)
		}
		s.count(at, actor, tok, len(ok), validity)
	}
	release := func(s *story, at float64, actor, tok string) {
		for _, n := range []string{"A", "B", "C", "D", "E"} {
			s.nodeRel(at, actor, n, tok, 1)
		}
	}
	cases := []struct {
		name string
		play func(s *story)
		want [3]Verdict
	}{
		{"two down, acquired, not yet released", func(s *story) {
			down(s, "D", "E")
			acquire(s, 0, "c1", "t1", "A", "B", "C")
		}, [3]Verdict{Untested, Untested, Untested}},
		{"two down, acquired and released", func(s *story) {
			down(s, "D", "E")
			acquire(s, 0, "c1", "t1", "A", "B", "C")
			release(s, 1, "c1", "t1")
		}, [3]Verdict{Untested, Untested, Held}},
		{"all up, released: no node was lost", func(s *story) {
			acquire(s, 0, "c1", "t1", "A", "B", "C", "D", "E")
			release(s, 1, "c1", "t1")
		}, [3]Verdict{Untested, Untested, Untested}},
		{"three down: no majority up, nothing shown", func(s *story) {
			down(s, "C", "D", "E")
			acquire(s, 0, "c1", "t1", "A", "B")
		}, [3]Verdict{Untested, Untested, Untested}},
		{"two down and one slow: a majority up, yet no majority counted", func(s *story) {
			down(s, "D", "E")
			s.nodeFault(0, "C", "", sim.FaultSlow)
			acquire(s, 0, "c1", "t1", "A", "B")
		}, [3]Verdict{Untested, Untested, Broken}},
		{"refused because another holds: that is exclusion, not a stall", func(s *story) {
			acquire(s, 0, "c1", "t1", "A", "B", "C")
			acquire(s, 1, "c2", "t2", "D", "E")
		}, [3]Verdict{Held, Untested, Untested}},
		{"a stall stays broken after a later success", func(s *story) {
			down(s, "D", "E")
			s.nodeFault(0, "C", "", sim.FaultSlow)
			acquire(s, 0, "c1", "t1", "A", "B")
			s.nodeFault(1, "C", "", sim.FaultFast)
			acquire(s, 2, "c1", "t1", "A", "B", "C")
			release(s, 3, "c1", "t1")
		}, [3]Verdict{Untested, Untested, Broken}},
		{"two majorities (clock jump): exclusion broken for good, and fault tolerance held at the releases", func(s *story) {
			s.nodeFault(0, "D", "c1", sim.FaultCut).nodeFault(0, "E", "c1", sim.FaultCut)
			acquire(s, 0, "c1", "t1", "A", "B", "C")
			s.nodeFault(1, "C", "", sim.FaultClockJump)
			s.nodeFault(1, "A", "c2", sim.FaultCut).nodeFault(1, "B", "c2", sim.FaultCut)
			acquire(s, 2, "c2", "t2", "C", "D", "E")
			release(s, 3, "c1", "t1")
			release(s, 4, "c2", "t2")
		}, [3]Verdict{Broken, Untested, Held}},
	}
	for _, c := range cases {
		var s story
		c.play(&s)
		if got := Fold(s, sec(5), nil).Properties(false); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A primary lost before its replica had the key: the second grant, on the
// replica, overlaps a lease that never reached it; replicated first, the
// replica refuses and nothing overlaps.
func TestFailoverUncopied(t *testing.T) {
	grant := func(s *story, at float64, actor, node, tok string, ok bool) {
		e := sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Node: node, Val: "OK",
			Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: tok, TTL: 10 * time.Second, NX: true}}
		if !ok {
			e.Val, e.Err = nil, redis.Nil
		}
		s.add(e)
	}
	copyTo := func(s *story, node, tok string) {
		s.add(sim.Event{Kind: sim.Info, Node: node,
			Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormReplica, Key: key, Token: tok, TTL: 10 * time.Second}})
	}
	cases := []struct {
		name       string
		replicated bool
		overlaps   int
		uncopied   bool
	}{
		{"not replicated", false, 1, true},
		{"replicated", true, 0, false},
	}
	for _, c := range cases {
		var s story
		grant(&s, 0, "c1", "primary", "t1", true)
		if c.replicated {
			copyTo(&s, "replica", "t1")
		}
		s.nodeFault(0, "primary", "", sim.FaultNodeDown)
		grant(&s, 1, "c2", "replica", "t2", !c.replicated)
		l := Fold(s, sec(1), nil)
		if len(l.Overlaps) != c.overlaps || c.overlaps > 0 && (l.Overlaps[0].Uncopied != c.uncopied || l.Overlaps[0].Cause != Open) {
			t.Errorf("%s: overlaps %+v", c.name, l.Overlaps)
		}
	}
	// two holders on one server are not a copy that failed to arrive
	var s story
	s.set(0, "A", "a", lease, false, true).set(1, "B", "b", lease, false, true)
	if o := Fold(s, sec(1), nil).Overlaps; len(o) != 1 || o[0].Uncopied {
		t.Errorf("one server: %+v", o)
	}
}
