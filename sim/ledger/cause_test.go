package ledger

import (
	"reflect"
	"testing"
	"time"

	"locksim/sim"
)

// failExt is an extension answered with an error reply, or with none at
// all when reply is "".
func (s *story) failExt(at float64, actor, tok, reply string, timed bool) *story {
	var err error = errTimeout{}
	if reply != "" {
		err = replyErr(reply)
	}
	s.add(sim.Event{At: sec(at), Kind: sim.Command, Actor: actor, Err: err, Timed: timed, Due: sec(at),
		Op: &sim.Op{Kind: sim.OpExtend, Form: sim.FormScript, Lock: key, Key: key, Token: tok, TTL: lease}})
	return s
}

// TestCauseOfAnEarlyEnd: what ended A's lease, as the replies show it.
// A grant with NX while A's lease had time left means the key was removed
// by something outside the run (vanished), not that it ran out; a script's
// 0 while the fold had A's own token on the key means something outside the
// run replaced the value; within a live server's slack of the end, a grant
// is a lapse.
func TestCauseOfAnEarlyEnd(t *testing.T) {
	cases := []struct {
		name  string
		slack time.Duration
		s     func(s *story)
		end   End
		endAt float64
		by    string
		cause End // of the overlap, when B was granted
	}{
		{"B granted with 25 s left on A's lease", 0, func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(5, "B", "b", lease, true, true)
		}, Vanished, 5, "", Vanished},
		{"B granted 0.5 s before A's end on a live server", time.Second, func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(29.5, "B", "b", lease, true, true)
		}, Lapsed, 29.5, "", Lapsed},
		{"B granted 0.5 s before A's end on the embedded server", 0, func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(29.5, "B", "b", lease, true, true)
		}, Vanished, 29.5, "", Vanished},
		{"B granted after A's end", 0, func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(31, "B", "b", lease, true, true)
		}, Lapsed, 30, "", Lapsed},
		{"B's SET without NX", 0, func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(5, "B", "b", lease, false, true)
		}, Overwritten, 5, "B", Overwritten},
		{"A's renewal finds another value, written by no one in the run", 0, func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 0, true)
		}, Overwritten, 10, "", Open},
		{"A's release script finds another value", 0, func(s *story) {
			s.set(0, "A", "a", lease, true, true).rel(10, "A", "a", sim.FormScript, 0)
		}, Overwritten, 10, "", Open},
	}
	for _, c := range cases {
		var s story
		c.s(&s)
		l := FoldWithSlack(s, s[len(s)-1].At, nil, c.slack)
		a := l.Leases[0]
		if a.End != c.end || a.EndAt != sec(c.endAt) || a.By != c.by {
			t.Errorf("%s: A's lease ended %v at %v by %q, want %v at %v by %q", c.name, a.End, a.EndAt, a.By, c.end, sec(c.endAt), c.by)
		}
		switch o := l.FirstOverlap(); {
		case c.cause == Open && o != nil:
			t.Errorf("%s: no one else was granted, yet an overlap: %+v", c.name, o)
		case c.cause != Open && (o == nil || o.Cause != c.cause):
			t.Errorf("%s: overlap %+v, want cause %v", c.name, o, c.cause)
		}
	}
	// the reply that found another value names no holder of the run's
	var s story
	s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 0, true)
	if r := Fold(s, sec(10), nil).Reads[1]; r.What != ExtTaken || r.Other != "" || r.Why != Overwritten || r.WhyBy != "" {
		t.Errorf("the renewal's read: %+v", r)
	}
}

// TestRenewalsRefusedByTheServer: an error reply to the extension script
// (BUSY while another script runs) extends nothing and is counted beside
// 1, 0 and -1; a missing reply is counted apart, its outcome unknown.
func TestRenewalsRefusedByTheServer(t *testing.T) {
	busy := "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
	var s story
	s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 1, true).
		failExt(20, "A", "a", busy, true).failExt(30, "A", "a", busy, true).failExt(39, "A", "a", "", true).
		set(41, "B", "b", lease, true, true)
	l := Fold(s, sec(41), nil)
	want := Renewals{Extended: 1, Failed: 2, Errors: []ErrorCount{{"BUSY", 2}}, NoReply: 1}
	if got := l.RenewalsOf("A"); !reflect.DeepEqual(got, want) || got.Refused() != 2 {
		t.Errorf("renewals %+v (refused %d), want %+v", got, got.Refused(), want)
	}
	if r := l.Reads[2]; r.What != ExtFailed || r.Lease != l.Leases[0] {
		t.Errorf("the BUSY renewal's read: %+v", r)
	}
	if r := l.Reads[4]; r.What != ExtNoReply || len(l.Unknowns) != 1 || l.Unknowns[0] != 4 {
		t.Errorf("the unanswered renewal's read: %+v, unknowns %v", r, l.Unknowns)
	}
	a := l.Leases[0]
	if a.End != Lapsed || a.Ends() != sec(40) {
		t.Fatalf("A's lease, renewed once at 10 s: %v, ends %v", a.End, a.Ends())
	}
	why, first := l.WhyUnrenewed(a)
	if why != RenewalsRefused || first.Seq != 2 || ErrorCode(first) != "BUSY" {
		t.Errorf("why A's lease was not renewed: %v, first %+v", why, first)
	}
	if o := l.FirstOverlap(); o == nil || o.Cause != Lapsed {
		t.Errorf("B's grant after A's end: %+v", o)
	}
}

// TestWhyUnrenewed: a lease that ran out was not renewed because its
// holder was frozen, or crashed, or its renewals went unanswered, or
// nothing renewed it; a renewal due during a pause is read as frozen.
func TestWhyUnrenewed(t *testing.T) {
	cases := []struct {
		name string
		s    func(s *story)
		want Unrenewed
	}{
		{"frozen past its end", func(s *story) {
			s.set(0, "A", "a", lease, true, true).fault(5, "A", sim.FaultPause).set(31, "B", "b", lease, true, true)
		}, HolderFrozen},
		{"frozen, woken before its end", func(s *story) {
			s.set(0, "A", "a", lease, true, true).fault(5, "A", sim.FaultPause).fault(20, "A", sim.FaultResume).
				set(31, "B", "b", lease, true, true)
		}, NotRenewed},
		{"crashed", func(s *story) {
			s.set(0, "A", "a", lease, true, true).fault(5, "A", sim.FaultCrash).set(31, "B", "b", lease, true, true)
		}, HolderCrashed},
		{"renewals unanswered", func(s *story) {
			s.set(0, "A", "a", lease, true, true).failExt(10, "A", "a", "", true).failExt(20, "A", "a", "", true).
				set(31, "B", "b", lease, true, true)
		}, RenewalsUnanswered},
		{"no watchdog", func(s *story) {
			s.set(0, "A", "a", lease, true, true).set(31, "B", "b", lease, true, true)
		}, NotRenewed},
	}
	for _, c := range cases {
		var s story
		c.s(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		if got, _ := l.WhyUnrenewed(l.Leases[0]); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	var s story
	s.set(0, "A", "a", lease, true, true).fault(5, "A", sim.FaultPause).fault(45, "A", sim.FaultResume).
		extend(45, "A", "a", -1, true).extend(55, "A", "a", -1, true)
	for i, move := range []int{0, 1, 2, 2, 3} {
		s[i].Move = move
	}
	l := Fold(s, sec(55), nil)
	if !l.Reads[3].Frozen || l.Reads[4].Frozen {
		t.Errorf("the renewal fired as A woke is frozen, the one due at 55 s on time: %v %v", l.Reads[3].Frozen, l.Reads[4].Frozen)
	}
}

// TestGrantEarlyOnlyIfItRanBeforeTheEnd: on a live server a grant ran at
// some moment within its round trip after it was sent. Sent 2 s before
// A's end, a grant whose reply took 3 s (a loaded server) may have run
// after A's lease ran out: a lapse. One whose reply came within 1 s ran
// for sure before A's end: the key was removed from outside.
func TestGrantEarlyOnlyIfItRanBeforeTheEnd(t *testing.T) {
	for _, c := range []struct {
		rtt  time.Duration
		want End
	}{{3 * time.Second, Lapsed}, {time.Second, Vanished}} {
		var s story
		s.set(0, "A", "a", lease, true, true).set(28, "B", "b", lease, true, true)
		s[len(s)-1].RTT = c.rtt
		if a := FoldWithSlack(s, sec(28), nil, 50*time.Millisecond).Leases[0]; a.End != c.want {
			t.Errorf("B's grant sent at 28 s with a %v round trip: A's lease %v, want %v", c.rtt, a.End, c.want)
		}
	}
}

// TestReplacedMaybeByACommandWithNoReply: B's SET without NX got no reply
// and may have run; A's renewal then answers 0. The value may be B's, so
// the ledger names B's command as a possible author rather than blaming a
// client outside the story; with no such command there is none.
func TestReplacedMaybeByACommandWithNoReply(t *testing.T) {
	var s story
	s.set(0, "A", "a", lease, true, true)
	s.add(sim.Event{At: sec(5), Kind: sim.Command, Actor: "B", Err: errTimeout{},
		Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: "b", TTL: lease}})
	s.extend(10, "A", "a", 0, true)
	l := Fold(s, sec(10), nil)
	a := l.Leases[0]
	if a.End != Overwritten || a.By != "" {
		t.Fatalf("A's lease: %v by %q", a.End, a.By)
	}
	if e, ok := l.MaybeBy(a); !ok || e.Actor != "B" || e.At != sec(5) {
		t.Errorf("the command that may have replaced A's value: %+v, %v", e, ok)
	}
	var quiet story
	quiet.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 0, true)
	ql := Fold(quiet, sec(10), nil)
	if _, ok := ql.MaybeBy(ql.Leases[0]); ok {
		t.Errorf("no command went unanswered, yet one may have replaced A's value")
	}
}
