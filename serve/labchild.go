package serve

import "locksim/lab"

// labSearch is the runner of the lab's searches in a session: each in a
// process of its own (Config.Lab) at ChildNice, killed when the session
// ends or the learner cancels it; nil, with no Config.Lab, runs them in
// this process.
func (s *Server) labSearch() lab.Runner {
	c := s.cfg.Lab
	if c.Start == nil {
		return nil
	}
	if c.Nice == 0 {
		c.Nice = ChildNice
	}
	return c.Run
}
