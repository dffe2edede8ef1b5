package ledger

import (
	"reflect"
	"testing"

	"locksim/sim"
)

func (s *story) extend(at float64, actor, tok string, n int64, timed bool) *story {
	s.op(at, actor, sim.Op{Kind: sim.OpExtend, Form: sim.FormScript, Token: tok, TTL: lease}, n)
	(*s)[len(*s)-1].Timed = timed
	return s
}

// TestRenewalsOf: replies counted by reading; a watchdog's renewal with a
// token already refused is counted as unstopped, an explicit extension
// with an old handle is not (it is the client's own call).
func TestRenewalsOf(t *testing.T) {
	cases := []struct {
		name string
		s    func(s *story)
		want Renewals
	}{
		{"a watchdog keeps the lease", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 1, true).extend(20, "A", "a", 1, true)
		}, Renewals{Extended: 2}},
		{"frozen past the lease, another holds it", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 1, true).
				set(50, "B", "b", lease, true, true).extend(55, "A", "a", 0, true)
		}, Renewals{Extended: 1, Taken: 1}},
		{"a watchdog that did not stop", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(50, "A", "a", -1, true).extend(60, "A", "a", -1, true)
		}, Renewals{Gone: 2, Unstopped: 1}},
		{"an old handle after a re-acquire", func(s *story) {
			s.set(0, "A", "a", lease, true, true).rel(10, "A", "a", sim.FormScript, 1).
				extend(10, "A", "a", -1, false).set(10, "A", "a2", lease, true, true).
				extend(20, "A", "a", 0, false).extend(20, "A", "a2", 1, false)
		}, Renewals{Extended: 1, Taken: 1, Gone: 1}},
		{"another actor's extensions do not count", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "B", "b", 0, false)
		}, Renewals{}},
	}
	for _, c := range cases {
		var s story
		c.s(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		if got := l.RenewalsOf("A"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	var s story
	s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 0, false).extend(11, "A", "a", -1, false)
	if r := Fold(s, sec(11), nil).RenewalsOf("A"); r.Refused() != 2 {
		t.Errorf("0 and -1 are both refusals: %+v", r)
	}
}

// A reply that finds the key gone before the lease's end says the key
// vanished (a client outside the run deleted it, an eviction, a failover),
// not that its lease ran out; after the end it lapsed.
func TestKeyGoneBeforeItsEnd(t *testing.T) {
	cases := []struct {
		name    string
		s       func(s *story)
		what    What
		why     End
		endAt   float64
		holding bool // the actor still acts as holder
	}{
		{"the watchdog's renewal finds no key at 10 s of 30", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", -1, true)
		}, ExtGone, Vanished, 10, true},
		{"a renewal after the lease's end: it lapsed", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(31, "A", "a", -1, true)
		}, ExtGone, Lapsed, 30, true},
		{"renewed once, then gone before the renewed end", func(s *story) {
			s.set(0, "A", "a", lease, true, true).extend(10, "A", "a", 1, true).extend(35, "A", "a", -1, true)
		}, ExtGone, Vanished, 35, true},
		{"the release script finds no key at 5 s", func(s *story) {
			s.set(0, "A", "a", lease, true, true).rel(5, "A", "a", sim.FormScript, -1)
		}, RelGone, Vanished, 5, false},
		{"a GET finds nothing at 20 s", func(s *story) {
			s.set(0, "A", "a", lease, true, true).op(20, "A", sim.Op{Kind: sim.OpCheck, Key: key, Lock: key, Token: "a"}, nil)
		}, CheckNone, Vanished, 20, false},
	}
	for _, c := range cases {
		var s story
		c.s(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		r := l.Reads[len(s)-1]
		ls := l.Latest("A")
		if r.What != c.what || r.Why != c.why || ls.End != c.why || ls.EndAt != sec(c.endAt) || l.Belief("A").Holds != c.holding {
			t.Errorf("%s: read %q why %v, lease ended %v at %v, holds %v", c.name, r.What, r.Why, ls.End, ls.EndAt, l.Belief("A").Holds)
		}
	}
}
