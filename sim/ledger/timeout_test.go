package ledger

import (
	"testing"

	"locksim/sim"
)

// retry appends an acquire a timer sent, due at story time due (seconds)
// and sent at at (a live server sends a little after it is due).
func (s *story) retry(due, at float64, actor, tok string, ok bool) *story {
	s.set(at, actor, tok, lease, true, ok)
	e := &(*s)[len(*s)-1]
	e.Timed, e.Due = true, sec(due)
	return s
}

// giveUp appends a client's decision to stop trying, for reason.
func (s *story) giveUp(at float64, actor, reason string) *story {
	return s.add(sim.Event{At: sec(at), Kind: sim.Info, Actor: actor, Note: actor + " gives up",
		Op: &sim.Op{Kind: sim.OpGiveUp, Form: reason, Lock: key, Key: key}})
}

func TestTallyCountsTheLeaseFromTheAttemptGranted(t *testing.T) {
	var s story
	s.set(0, "H", "h", lease, true, true).
		set(0, "c1", "a", lease, true, false).
		retry(0.1, 0.1, "c1", "a", false).
		rel(0.5, "H", "h", sim.FormScript, 1).
		retry(0.6, 0.6, "c1", "a", true)
	l := Fold(s, sec(1.2), nil)
	got := l.Tally("c1")
	if got.Outcome != Acquired || got.Attempts != 3 || got.Refused != 2 || got.Success != 3 {
		t.Fatalf("tally %+v", got)
	}
	if got.First != 0 || got.At != sec(0.6) || got.Lease == nil {
		t.Fatalf("tally %+v", got)
	}
	// the lease runs from the attempt the server granted, not the first
	if got.Lease.Granted != sec(0.6) || got.Lease.Ends() != sec(30.6) {
		t.Errorf("lease granted %v, ends %v; want 0.6s and 30.6s", got.Lease.Granted, got.Lease.Ends())
	}
	if h := l.Tally("H"); h.Outcome != Acquired || h.Attempts != 1 || h.Success != 1 {
		t.Errorf("H: %+v", h)
	}
}

func TestGiveUpReasonsAreDistinct(t *testing.T) {
	cases := []struct {
		reason string
		what   What
		out    Outcome
	}{
		{sim.GiveUpFast, GaveUpFast, FailedFast},
		{sim.GiveUpRetries, GaveUpRetries, RetriesUsedUp},
		{sim.GiveUpDeadline, GaveUpDeadline, DeadlinePassed},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		var s story
		s.set(0, "H", "h", lease, true, true).
			set(0, "c2", "b", lease, true, false).
			retry(0.1, 0.1, "c2", "b", false).
			giveUp(0.9, "c2", c.reason)
		l := Fold(s, sec(1.2), nil)
		rd := l.Reads[len(s)-1]
		if rd.What != c.what || rd.Other != "H" {
			t.Errorf("%s: read %q (in the way: %q), want %q (H)", c.reason, rd.What, rd.Other, c.what)
		}
		got := l.Tally("c2")
		if got.Outcome != c.out || !got.Outcome.GaveUp() || got.Attempts != 2 || got.At != sec(0.9) {
			t.Errorf("%s: tally %+v, want %v", c.reason, got, c.out)
		}
		if got.Waited(sec(1.2)) != 0 {
			t.Errorf("%s: a client that gave up is not waiting", c.reason)
		}
		if seen[c.out.String()] || seen[string(c.what)] {
			t.Errorf("%s: %q / %q used for two reasons", c.reason, c.out, c.what)
		}
		seen[c.out.String()], seen[string(c.what)] = true, true
	}
}

func TestTallyStillTrying(t *testing.T) {
	var s story
	s.set(0, "H", "h", lease, true, true).
		set(0.2, "c3", "c", lease, true, false).
		retry(0.3, 0.3, "c3", "c", false)
	l := Fold(s, sec(1.5), nil)
	got := l.Tally("c3")
	if got.Outcome != Trying || got.Outcome.GaveUp() || got.Attempts != 2 || got.Waited(sec(1.5)) != sec(1.3) {
		t.Fatalf("tally %+v, waited %v", got, got.Waited(sec(1.5)))
	}
	if n := l.Tally("c4"); n.Outcome != NotTried || n.Attempts != 0 {
		t.Errorf("a client that sent nothing: %+v", n)
	}
}

func TestCollisionsCountRetriesDueTogether(t *testing.T) {
	cases := []struct {
		name                   string
		build                  func(s *story)
		colliding, retries, at int
	}{
		{"lockstep", func(s *story) {
			for _, due := range []float64{0.1, 0.2} {
				s.retry(due, due, "c1", "a", false).retry(due, due, "c2", "b", false).retry(due, due, "c3", "c", false)
			}
		}, 6, 6, 2},
		{"spread", func(s *story) {
			s.retry(0.117, 0.117, "c1", "a", false).retry(0.154, 0.154, "c2", "b", false).retry(0.199, 0.199, "c3", "c", false)
		}, 0, 3, 0},
		// on a live server the replies come a little apart; due is what counts
		{"due together, sent apart", func(s *story) {
			s.retry(0.1, 0.1, "c1", "a", false).retry(0.1, 0.102, "c2", "b", false).retry(0.15, 0.15, "c3", "c", false)
		}, 2, 3, 1},
		// first attempts sent by a step are not retries
		{"first attempts", func(s *story) {
			s.set(0, "c1", "a", lease, true, false).set(0, "c2", "b", lease, true, false)
		}, 0, 0, 0},
	}
	for _, c := range cases {
		var s story
		s.set(0, "H", "h", lease, true, true)
		c.build(&s)
		colliding, retries, at := Fold(s, sec(1), nil).Collisions()
		if colliding != c.colliding || retries != c.retries || at != c.at {
			t.Errorf("%s: colliding %d of %d retries at %d ms; want %d of %d at %d", c.name, colliding, retries, at, c.colliding, c.retries, c.at)
		}
	}
}
