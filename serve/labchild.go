package serve

import (
	"context"

	"locksim/lab"
)

// DefaultLabSearches is how many lab searches' processes run at once by
// default: each may take a core (at nice 19) and up to a lab.Child's
// memory cap, so a class that runs the adversary together queues rather than
// filling the machine.
const DefaultLabSearches = 4

// labSearch is the runner of the lab's searches in a session: each by
// Config.Lab, once one of the server's LabSearches slots is free, ended
// when the session ends or the learner cancels it; nil, with no
// Config.Lab, runs them in this process.
func (s *Server) labSearch() lab.Runner {
	run := s.cfg.Lab
	if run == nil {
		return nil
	}
	return func(ctx context.Context, l *lab.Lock, o lab.Options) (*lab.Report, error) {
		var tell func(int)
		if o.Progress != nil {
			// a search that waits says so, and its place in the line
			tell = func(place int) {
				o.Progress(lab.Progress{Max: l.Policy.Bound.MaxSchedules, Waiting: place, Slots: cap(s.labs)})
			}
		}
		release, err := s.labq.take(ctx, s.labs, tell)
		if err != nil {
			return nil, err
		}
		defer release()
		if tell != nil {
			tell(0) // running now: no longer in the line
		}
		return run(ctx, l, o)
	}
}
