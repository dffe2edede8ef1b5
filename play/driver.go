package play

import (
	"fmt"
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

// Start starts the session from nothing (Session.Start) and runs it to
// rest; exact on the embedded server. The error is the run's failure, if
// any (the session stays open: close its run when done, Session.Close).
func (d Driver) Start() error {
	d.Run(d.S.Start(nil))
	if d.S.Err != "" {
		return fmt.Errorf("position: %s", d.S.Err)
	}
	return nil
}
