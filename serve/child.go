package serve

import (
	"context"
	"errors"
	"os/exec"
	"time"
)

// childGrace is how long a child stopped with SIGTERM has to delete its
// keys on a live server before it is killed.
const childGrace = time.Second

// ChildNice is the CPU priority a command's child process runs at (the
// nice value, 19 the lowest): a flood of commands gets what the students'
// sessions leave, and never the other way round.
const ChildNice = 19

// runChild runs call in a process of its own (Config.Spawn) at ChildNice:
// its stdout and stderr are the client's, its exit status the command's.
// When ctx ends (the command's time is up, or the client went) the
// process and its children get SIGTERM, and SIGKILL childGrace later;
// runChild returns once the process has ended.
func (s *Server) runChild(ctx context.Context, call Call) int {
	cmd := s.cfg.Spawn(call.Name, call.Args)
	cmd.Stdout, cmd.Stderr = call.Out, call.Err
	ownGroup(cmd)
	// the output is copied by exec's goroutines: once the process is gone,
	// a grandchild holding the pipe open is not waited for past this
	cmd.WaitDelay = childGrace
	if err := cmd.Start(); err != nil {
		return call.Fail(err)
	}
	if err := lowerPriority(cmd.Process.Pid, ChildNice); err != nil {
		s.cfg.Log.Printf("session %s: the command's process keeps its priority: %v", call.Who.ID, err)
	}
	ended := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		signalGroup(cmd.Process.Pid, false)
		select {
		case <-ended:
		case <-time.After(childGrace):
			signalGroup(cmd.Process.Pid, true)
		}
	})
	err := cmd.Wait()
	// the group is signalled only before this: its id is not reused
	// while a kill may still be on its way
	close(ended)
	stop()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	case errors.As(err, &exit):
		return 1 // ended by a signal: its stop was said already
	}
	return call.Fail(err)
}
