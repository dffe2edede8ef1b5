package play

import (
	"context"
	"fmt"
	"sync"

	"locksim/sim"
)

// Driver runs a Session synchronously, for tests and headless runs: each
// command runs in place and its message goes back to the session before
// the next action, as the screen's runtime would once the work is done,
// but with no timers (a driver never waits for playback's tick or a live
// read-back). So an action never finds the session busy.
type Driver struct {
	S *Session
}

// Run runs cmd and every command its message leads to.
func (d Driver) Run(cmd Cmd) {
	for cmd != nil {
		m := cmd()
		if m == nil || IsTimer(m) {
			return
		}
		cmd = d.S.Update(m)
	}
}

// Do applies the actions in turn, each run to completion; it returns the
// first action the scene has no use for, with an error naming it.
func (d Driver) Do(actions ...Action) error {
	for _, a := range actions {
		cmd, ok := d.S.Act(a)
		d.Run(cmd)
		if !ok {
			return fmt.Errorf("%s: nothing to do in %s", a, d.S.Scene.ID)
		}
	}
	return nil
}

// Open starts a session on backend b at pos, replayed to it (the learner's
// own moves put back, then the step), and returns it driven to rest;
// exact on the embedded server. Close the session's run when done
// (Session.Close). ctx ends its commands.
func Open(ctx context.Context, pos Position, b *sim.Backend) (*Session, error) {
	if err := pos.Check(); err != nil {
		return nil, err
	}
	sc, err := pos.scene()
	if err != nil {
		return nil, err
	}
	s, err := NewSession(ctx, 1, sc, b, pos.Seed, &sync.WaitGroup{})
	if err != nil {
		return nil, err
	}
	s.lab = pos.Lab.clone()
	s.Predict = sc.Asks()
	s.ApplyPosition(pos)
	d := Driver{S: s}
	d.Run(s.Start(nil))
	if s.Err != "" {
		return s, fmt.Errorf("position: %s", s.Err)
	}
	return s, nil
}
