package ledger

import (
	"testing"
	"time"

	"locksim/sim"
)

// late appends the SET a hung node ran when it woke: the client timed out
// on it long before.
func (s *story) late(at float64, actor, node, tok, reply string) *story {
	s.node(at, actor, node, tok, reply)
	(*s)[len(*s)-1].Op.Late = true
	return s
}

// A hung node's late SET is a lease on that node, from the moment it woke,
// for the whole TTL, though the client counted the node a failure and was
// told "not acquired"; it makes no holder. Refused, it is a refusal as any.
func TestHungNodeLateSet(t *testing.T) {
	for _, c := range []struct {
		name  string
		reply string
		want  What
		lease bool
	}{
		{"the key was free when it woke", "OK", NodeLate, true},
		{"another client's key was there", "nil", NodeRefused, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s story
			s.nodeFault(0, "C", "", sim.FaultHang)
			s.node(0, "c1", "A", "t1", "OK").node(0, "c1", "B", "t1", "connection refused")
			s.node(0.05, "c1", "C", "t1", "i/o timeout after 0.050s: node C is hung")
			s.count(0.1, "c1", "t1", 1, validity)
			s.nodeRel(0.1, "c1", "A", "t1", 1)
			s.nodeFault(2, "C", "", sim.FaultWake)
			if c.reply == "nil" {
				s.node(1, "c2", "C", "t2", "OK")
			}
			s.late(2, "c1", "C", "t1", c.reply)
			l := Fold(s, sec(3), nil)
			if got := l.Reads[len(s)-1].What; got != c.want {
				t.Fatalf("the late SET reads %q, want %q", got, c.want)
			}
			if len(l.Holds) != 0 {
				t.Fatalf("a node's late OK made a holder: %+v", l.Holds)
			}
			ls := l.Reads[len(s)-1].Lease
			if !c.lease {
				if ls == nil || ls.Actor != "c2" {
					t.Fatalf("the refusal should name c2's lease on C: %+v", ls)
				}
				return
			}
			if ls == nil || ls.Node != "C" || ls.Actor != "c1" || ls.Token != "t1" || ls.Granted != sec(2) || ls.TTL != 10*time.Second {
				t.Fatalf("the late SET should be c1's lease on C from 2 s for 10 s: %+v", ls)
			}
			if !ls.AliveAt(sec(11.9)) || ls.AliveAt(sec(12.1)) {
				t.Fatalf("the late lease runs its TTL from the wake: %+v", ls)
			}
			if got := l.Reads[3].What; got != NodeFailed {
				t.Fatalf("the SET that timed out on the hung node reads %q", got)
			}
		})
	}
}
