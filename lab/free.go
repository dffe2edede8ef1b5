package lab

import (
	"fmt"
	"strings"
	"time"
)

// grantsWhenFree: on an empty server A is granted, A runs to its
// release, and once A is done B is granted, or, when A's release gave the
// key a TTL that ends within twice the lock's (PEXPIRE key 1), a new
// client twice the TTL later is. A lock that fails this keeps every
// safety property by never granting, so it is reported apart, with the
// schedule that shows it (s.refusal): B's refusal, or the new client's
// (Probe).
func (s *search) grantsWhenFree() (bool, error) {
	w := world{n: 2, owner: -1}
	var moves []Move
	// the lock key's deadline before A's release step, and after it
	var relBefore, relAfter time.Duration
	released := false
	run := func(i int, until func(*client) bool) error {
		c := &w.c[i]
		for c.active() && !until(c) {
			rel := i == 0 && c.phase == phRelease
			if rel {
				_, relBefore, _ = s.lockKey()
			}
			m, err := s.apply(&w, Move{Client: clientNames[i]})
			if rel {
				_, relAfter, released = s.lockKey()
			}
			if err != nil {
				return err
			}
			moves = append(moves, m)
			if len(s.errs) > 0 {
				// the simplest schedule of all fails: the lock cannot run
				return s.errs[0]
			}
		}
		return nil
	}
	defer s.srv.Restore(State{})
	if err := run(0, func(c *client) bool { return c.holds }); err != nil {
		return false, err
	}
	if !w.c[0].holds {
		s.refusal = &Break{Property: DeadlockFreedom, Moves: moves,
			Why: "on an empty server, A's acquire is refused: the lock never lets a client in"}
		return false, nil
	}
	if err := run(0, func(*client) bool { return false }); err != nil {
		return false, err
	}
	done := len(moves)
	if err := run(1, func(c *client) bool { return c.holds || c.phase != phAcquire }); err != nil {
		return false, err
	}
	if w.c[1].holds {
		return true, nil
	}
	// B was refused right after A: the lock is free all the same if A's
	// release gave the key a TTL that ends within twice the lock's
	// (PEXPIRE key 1), as a new client then finds; a release that left
	// the key as it was does not free it
	retimed := released && relAfter != relBefore && relAfter > 0 && relAfter-s.srv.Now() <= 2*s.pol.TTL
	if !retimed {
		s.refusal = &Break{Property: DeadlockFreedom, Moves: moves, Why: s.unfreed(moves[:done], ", yet B's acquire right after is refused")}
		return false, nil
	}
	s.srv.Restore(State{})
	moves = moves[:done]
	w = world{n: 2, owner: -1}
	for _, m := range moves {
		if _, err := s.apply(&w, m); err != nil {
			return false, err
		}
	}
	ok, err := s.probe()
	if err != nil || ok {
		return ok, err
	}
	s.refusal = &Break{Property: DeadlockFreedom, Moves: moves, Probe: true, Why: s.unfreed(moves, ", and a new client, twice the TTL later, is still refused")}
	return false, nil
}

// unfreed says, for a lock B could not take after A ran alone to its end,
// what A's last part did and what it left: "A's release answered 0 and
// left the key with no TTL".
func (s *search) unfreed(moves []Move, tail string) string {
	var last *Move
	for i := range moves {
		if moves[i].Client == "A" && moves[i].IsStep() && !strings.HasPrefix(moves[i].Label, "work") && moves[i].Label != "write" {
			last = &moves[i]
		}
	}
	left := "the key in place"
	if _, ends, has := s.lockKey(); has && ends == 0 {
		left = "the key with no TTL"
	} else if has {
		left = "the key with its TTL"
	}
	switch {
	case last == nil:
		return "A never ran its release" + tail
	case strings.Contains(last.Label, "release"):
		if _, _, has := s.lockKey(); !has {
			return "with nobody in its way, A released the lock" + tail + ": the acquire does not take a free lock"
		}
		return fmt.Sprintf("with nobody in its way, A's %s answered %s and removed nothing: it left %s%s: the release does not free the lock", last.Label, last.Reply, left, tail)
	case strings.Contains(last.Label, "extend"):
		return fmt.Sprintf("A's %s answered %s, so A gave the lock up without a release, and left %s%s", last.Label, last.Reply, left, tail)
	}
	return "A never reached its release, and left " + left + tail
}
