package play

import (
	"context"
	"errors"
	"fmt"

	"locksim/lab"
)

// Search is the adversary's run on one lock (lab.Check), in the
// background: CheckLock starts it, Stop cancels it, and its messages
// (SearchProgress, then one SearchOver) name it, so a screen drops those
// of a search it has let go of.
type Search struct {
	lk      lab.Lock
	check   lab.Runner
	ctx     context.Context
	cancel  context.CancelFunc
	updates chan Msg
}

// SearchProgress is the adversary's count so far; Next waits for the
// search's next message.
type SearchProgress struct {
	S    *Search
	P    lab.Progress
	Next Cmd
}

// SearchOver is the search's end: the report, or the error that stopped it
// (a script's, as a *lab.ScriptError; a cancelled search's; a fault in
// locksim, which ends the search and never the process).
type SearchOver struct {
	S      *Search
	Report *lab.Report
	Err    error
}

// CheckLock prepares the adversary's search of lk and returns it with the
// command that starts it and reports its first message; each progress
// message carries the command for the next. Progress comes as fast as it
// is taken: one the receiver is not ready for is dropped for the next.
func CheckLock(lk lab.Lock) (*Search, Cmd) { return CheckLockBy(nil, lk) }

// CheckLockBy is CheckLock with the search run by check: lab.Check in
// this process when nil, or a lab.Child's Run (a session served over SSH,
// whose search must not take the server's cores or memory). Stop cancels
// either.
func CheckLockBy(check lab.Runner, lk lab.Lock) (*Search, Cmd) {
	if check == nil {
		check = lab.Check
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Search{lk: lk, check: check, ctx: ctx, cancel: cancel, updates: make(chan Msg, 1)}
	return s, func() Msg {
		go s.run()
		return s.next()
	}
}

// Stop cancels the search; its late messages still name it.
func (s *Search) Stop() { s.cancel() }

// run searches, on its own goroutine.
func (s *Search) run() {
	defer s.cancel()
	defer close(s.updates)
	// the learner's scripts run in here, outside the screen runtime's own
	// recover: a panic ends this search with an error, never the process
	// (which, served over SSH, every other session is in)
	defer func() {
		if r := recover(); r != nil {
			// waits for the receiver as the report does: a progress message
			// in the buffer must not push the fault out
			select {
			case s.updates <- SearchOver{S: s, Err: fmt.Errorf("the search stopped on a fault in locksim: %v", r)}:
			case <-s.ctx.Done():
			}
		}
	}()
	rep, err := s.check(s.ctx, &s.lk, lab.Options{Progress: s.progress})
	select {
	case s.updates <- SearchOver{S: s, Report: rep, Err: err}:
	case <-s.ctx.Done(): // cancelled: nobody waits for it any more
	}
}

// progress hands p to the receiver without waiting for it: when the
// receiver is behind, p replaces the count still waiting in the buffer, so
// the last count always arrives (a search that waited for a slot says 0,
// then its one count: dropping the newer left the page at 0).
func (s *Search) progress(p lab.Progress) {
	m := SearchProgress{S: s, P: p}
	for {
		select {
		case s.updates <- m:
			return
		default:
		}
		// only counts wait in the buffer while the check runs: SearchOver
		// is sent after it returns
		select {
		case <-s.updates:
		default:
		}
	}
}

// next waits for the search's next message. A search that ended with no
// report for the receiver (stopped, or a fault whose word could not be
// handed over) still ends: SearchOver, with why.
func (s *Search) next() Msg {
	m, ok := <-s.updates
	if !ok {
		err := s.ctx.Err()
		if err == nil {
			err = errors.New("the search ended without a report")
		}
		return SearchOver{S: s, Err: err}
	}
	if p, ok := m.(SearchProgress); ok {
		p.Next = s.next
		return p
	}
	return m
}
