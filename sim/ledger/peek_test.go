package ledger

import (
	"testing"

	"locksim/sim"
)

func (s *story) peek(at float64, actor string, val any) *story {
	return s.op(at, actor, sim.Op{Kind: sim.OpPeek}, val)
}

// TestPeek: a GET sent before a SET (the check-then-set acquire) is read
// by its reply: (nil) the key looked free, a value taken, by the actor
// whose token it is. It grants nothing and ends no hold; a (nil) before a
// lease's end says the key vanished, after it that the lease lapsed.
func TestPeek(t *testing.T) {
	cases := []struct {
		name  string
		s     func(s *story)
		what  What
		other string
		end   End     // A's lease, when A has one
		endAt float64 // when it ended, if it did
		holds bool    // A still acts as holder
		b     bool    // B acts as holder (C, who only peeks, never does)
	}{
		{"the first GET finds the key free", func(s *story) {
			s.peek(0, "B", nil)
		}, PeekFree, "", Open, 0, false, false},
		{"a GET while A holds finds A's token", func(s *story) {
			s.set(0, "A", "a", lease, true, true).peek(1, "B", "a")
		}, PeekTaken, "A", Open, 0, true, false},
		{"a GET after A's lease ran out finds nothing", func(s *story) {
			s.set(0, "A", "a", lease, true, true).peek(31, "B", nil)
		}, PeekFree, "", Lapsed, 30, true, false},
		{"a GET before A's lease's end finds nothing: the key vanished", func(s *story) {
			s.set(0, "A", "a", lease, true, true).peek(10, "B", nil)
		}, PeekFree, "", Vanished, 10, true, false},
		{"a GET finds a value no client of the run wrote", func(s *story) {
			s.set(0, "A", "a", lease, true, true).peek(1, "B", "x")
		}, PeekTaken, "", Open, 0, true, false},
		{"two GETs find the key free; both SET without NX", func(s *story) {
			s.peek(0, "A", nil).peek(0.1, "B", nil).set(0.2, "A", "a", lease, false, true).set(0.3, "B", "b", lease, false, true).
				peek(0.4, "C", "b")
		}, PeekTaken, "B", Overwritten, 0.3, true, true},
	}
	for _, c := range cases {
		var s story
		c.s(&s)
		l := Fold(s, s[len(s)-1].At, nil)
		r := l.Reads[len(s)-1]
		if r.What != c.what || r.Other != c.other {
			t.Errorf("%s: read %q, other %q; want %q, %q", c.name, r.What, r.Other, c.what, c.other)
		}
		if r.Lease != nil && r.Lease.Actor != c.other {
			t.Errorf("%s: the read names %s's lease, want %q's", c.name, r.Lease.Actor, c.other)
		}
		if ls := l.Latest("A"); ls != nil && (ls.End != c.end || ls.End != Open && ls.EndAt != sec(c.endAt)) {
			t.Errorf("%s: A's lease ended %v at %v, want %v at %v", c.name, ls.End, ls.EndAt, c.end, sec(c.endAt))
		}
		if l.Belief("A").Holds != c.holds {
			t.Errorf("%s: A acts as holder %v, want %v", c.name, l.Belief("A").Holds, c.holds)
		}
		if l.Belief("B").Holds != c.b || l.Belief("C").Holds {
			t.Errorf("%s: B acts as holder %v, C %v", c.name, l.Belief("B").Holds, l.Belief("C").Holds)
		}
	}
}
