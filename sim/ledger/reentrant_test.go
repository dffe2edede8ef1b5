package ledger

import (
	"testing"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
)

// hash appends a hash-lock acquire (kind sim.OpAcquire) or release whose
// reply is a count (int64), (nil) (nil) or an error reply (replyErr).
func (s *story) hash(at float64, kind sim.OpKind, actor, id string, reply any) *story {
	e := sim.Event{At: sec(at), Kind: sim.Command, Actor: actor,
		Op: &sim.Op{Kind: kind, Form: sim.FormReentrant, Lock: key, Key: key, Token: id, TTL: lease, NX: kind == sim.OpAcquire}}
	switch r := reply.(type) {
	case int64:
		e.Val = r
	case replyErr:
		e.Err = r
	default:
		e.Err = redis.Nil
	}
	return s.add(e)
}

func (s *story) enter(at float64, actor, id string, reply any) *story {
	return s.hash(at, sim.OpAcquire, actor, id, reply)
}

func (s *story) leave(at float64, actor, id string, reply any) *story {
	return s.hash(at, sim.OpRelease, actor, id, reply)
}

func TestReentrantLedger(t *testing.T) {
	notHeld := replyErr(sim.ErrNotHeld + " the lock is another holder's")
	noLock := replyErr(sim.ErrNoLock + " no such lock")
	cases := []struct {
		name  string
		story func(s *story)
		now   float64
		whats []What
		// the first lease: its count, how it ended, when its TTL runs out
		count int64
		end   End
		ends  float64
		holds int // holds of any actor
		open  bool
		props [3]Verdict
	}{{
		name:  "first acquire grants a lease of count 1",
		story: func(s *story) { s.enter(0, "A", "a", int64(1)) },
		whats: []What{Granted}, count: 1, end: Open, ends: 30, holds: 1, open: true,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name:  "a nested acquire is the same holder entering again and restarts the TTL",
		story: func(s *story) { s.enter(0, "A", "a", int64(1)).enter(10, "A", "a", int64(2)) },
		whats: []What{Granted, Reentered}, count: 2, end: Open, ends: 40, holds: 1, open: true,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name: "the lease outlives its first TTL because the nested acquire restarted it",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).enter(20, "A", "a", int64(2))
		},
		now:   45,
		whats: []What{Granted, Reentered}, count: 2, end: Open, ends: 50, holds: 1, open: true,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name: "a release above zero keeps the lease and restarts its TTL",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).enter(1, "A", "a", int64(2)).leave(5, "A", "a", int64(1))
		},
		whats: []What{Granted, Reentered, RelKept}, count: 1, end: Open, ends: 35, holds: 1, open: true,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name: "counts 1 2 1 0: the release at zero ends the lease as Released",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).enter(1, "A", "a", int64(2)).
				leave(2, "A", "a", int64(1)).leave(3, "A", "a", int64(0))
		},
		whats: []What{Granted, Reentered, RelKept, ReleasedOwn}, count: 0, end: Released, ends: 32, holds: 1,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name: "another holder id is refused while the count is above zero",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).enter(1, "A", "a", int64(2)).enter(2, "B", "b", nil)
		},
		whats: []What{Granted, Reentered, Refused}, count: 2, end: Open, ends: 31, holds: 1, open: true,
		props: [3]Verdict{Held, Untested, Absent},
	}, {
		name: "a foreign release is refused and leaves the lease alone",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).enter(2, "B", "b", nil).leave(3, "B", "b", notHeld)
		},
		whats: []What{Granted, Refused, RelNotHeld}, count: 1, end: Open, ends: 30, holds: 1, open: true,
		props: [3]Verdict{Held, Untested, Absent},
	}, {
		name: "after the last release another holder gets a lease of its own",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).leave(1, "A", "a", int64(0)).enter(2, "B", "b", int64(1))
		},
		whats: []What{Granted, ReleasedOwn, Granted}, count: 0, end: Released, ends: 30, holds: 2, open: false,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name: "a release after the lease lapsed is refused: no such lock",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).leave(40, "A", "a", noLock)
		},
		whats: []What{Granted, RelNoLock}, count: 1, end: Lapsed, ends: 30, holds: 1,
		props: [3]Verdict{Untested, Untested, Absent},
	}, {
		name: "a lapsed lease's holder entering again gets a fresh lease: count 1",
		story: func(s *story) {
			s.enter(0, "A", "a", int64(1)).enter(40, "A", "a", int64(1))
		},
		whats: []What{Granted, Granted}, count: 1, end: Lapsed, ends: 30, holds: 2, open: false,
		props: [3]Verdict{Untested, Untested, Absent},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s story
			c.story(&s)
			l := Fold(s, sec(c.now), nil)
			for i, w := range c.whats {
				if l.Reads[i].What != w {
					t.Errorf("event %d read as %q, want %q", i, l.Reads[i].What, w)
				}
			}
			ls := l.Leases[0]
			if ls.Count != c.count || ls.End != c.end || ls.Ends() != sec(c.ends) {
				t.Errorf("first lease: count %d, %s, ends %s; want %d, %s, %s", ls.Count, ls.End, ls.Ends(), c.count, c.end, sec(c.ends))
			}
			if len(l.Holds) != c.holds || l.Holds[0].Open() != c.open {
				t.Errorf("holds %d (first open %v), want %d (%v)", len(l.Holds), l.Holds[0].Open(), c.holds, c.open)
			}
			if len(l.Overlaps) != 0 {
				t.Errorf("overlaps %+v: one holder entering again is not two holders", l.Overlaps[0])
			}
			if p := l.Properties(true); p != c.props {
				t.Errorf("properties %v, want %v", p, c.props)
			}
		})
	}
}

// The foreign release names the holder whose key it left, and ends the
// sender's belief but no lease; a release at zero ends the holder's hold.
func TestReentrantRefusedRelease(t *testing.T) {
	var s story
	s.enter(0, "A", "a", int64(1)).enter(1, "B", "b", nil).leave(2, "B", "b", replyErr(sim.ErrNotHeld+" x"))
	l := Fold(s, sec(2), []sim.KeyState{{Name: key, Type: "hash", Fields: []sim.Field{{Name: "a", Value: "1"}}, Value: "a=1", PTTL: 28000}})
	if r := l.Reads[2]; r.Other != "A" || r.Lease != nil {
		t.Errorf("B's refused release: %+v, want other A and no lease of B's", r)
	}
	if b := l.Belief("A"); !b.Holds || !b.KeyHolds {
		t.Errorf("A after B's refused release: %+v, want holder, and the key agrees", b)
	}
	if l.Keys[0].Lease != l.Leases[0] {
		t.Errorf("the hash read back should hold A's lease: %+v", l.Keys[0])
	}
	if got := l.Reads[2].What; got == Failed {
		t.Errorf("a refusal is a lock outcome, not a failure")
	}
	var other story
	other.enter(0, "A", "a", int64(1)).leave(1, "A", "a", replyErr("WRONGTYPE Operation against a key"))
	if w := Fold(other, 0, nil).Reads[1].What; w != Failed {
		t.Errorf("an error that is not the script's refusal reads %q, want failed", w)
	}
}
