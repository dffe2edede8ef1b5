package serve

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"locksim/runner"
)

// DefaultChildGrace is how long a child stopped with SIGTERM has to
// delete its keys on a live server before it is killed (Config.ChildGrace).
const DefaultChildGrace = time.Second

// ChildNice is the CPU priority a command's child process runs at (the
// nice value, 19 the lowest): a flood of commands gets what the students'
// sessions leave, and never the other way round.
const ChildNice = 19

// HeldEnv carries a command's Call.Held to its child process: the
// scenes' ids, separated by commas (HeldFromEnv reads them back).
const HeldEnv = "LOCKSIM_HELD"

// HeldFromEnv is the Call.Held a child process was started with (HeldEnv
// in its environment, getenv's reading), nil for none.
func HeldFromEnv(getenv func(string) string) map[string]bool {
	var out map[string]bool
	for _, id := range strings.Split(getenv(HeldEnv), ",") {
		if id != "" {
			if out == nil {
				out = map[string]bool{}
			}
			out[id] = true
		}
	}
	return out
}

// runChild runs call in a process of its own (Config.Spawn) by runner, at
// ChildNice and dying with the server where the OS allows: its stdout
// and stderr are the client's, its exit status the command's. When ctx
// ends (the command's time is up, or the client went) the process and
// its children get SIGTERM, and SIGKILL Config.ChildGrace later; runChild
// returns once the process has ended.
func (s *Server) runChild(ctx context.Context, call Call) int {
	cmd := s.cfg.Spawn(call.Name, call.Args)
	if len(call.Held) > 0 {
		// the scenes a class here is asked (Call.Held) go with the
		// command: the child's Call holds them as this one does
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		cmd.Env = append(cmd.Env, HeldEnv+"="+strings.Join(slices.Sorted(maps.Keys(call.Held)), ","))
	}
	cmd.Stdout, cmd.Stderr = call.Out, call.Err
	// the output is copied by exec's goroutines: once the process is gone,
	// a grandchild holding the pipe open is not waited for past this
	cmd.WaitDelay = s.cfg.ChildGrace
	err := runner.Run(ctx, cmd, runner.Limits{Nice: ChildNice, Grace: s.cfg.ChildGrace})
	switch st := cmd.ProcessState; {
	case st == nil:
		return call.Fail(err)
	case st.ExitCode() >= 0:
		return st.ExitCode()
	}
	return 1 // ended by a signal: its stop was said already
}
