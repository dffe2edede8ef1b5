// A command over SSH that plays a story (cast, plain, story, cli) runs in
// a process of its own, this same binary started with childEnv set: the
// server runs it at the lowest CPU priority and stops it with the
// command's time (serve.Config.Spawn), so one student's flood of casts
// cannot slow the class's sessions, however much of the machine it asks
// for.

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"locksim/serve"
	"locksim/sim"
)

// The environment a command's child process reads: childEnv set to "1"
// makes locksim run the SSH command its arguments name; the live server
// the sessions play on, its scale and timeout come in the others (the
// URL may hold a password, which an argument would show to ps).
const (
	childEnv        = "LOCKSIM_SSH_COMMAND"
	childRedisEnv   = "LOCKSIM_SSH_REDIS"
	childScaleEnv   = "LOCKSIM_SSH_SCALE"
	childTimeoutEnv = "LOCKSIM_SSH_TIMEOUT"
)

// spawner is serve.Config.Spawn: exe (this binary) with extra on top of
// the process's environment, running the command for the server's live
// options (Redis "" for the embedded server).
func spawner(exe string, extra []string, redis string, live sim.LiveOptions) func(name string, args []string) *exec.Cmd {
	return func(name string, args []string) *exec.Cmd {
		cmd := exec.Command(exe, append([]string{name}, args...)...)
		cmd.Env = append(os.Environ(), extra...)
		cmd.Env = append(cmd.Env, childEnv+"=1")
		if redis != "" {
			cmd.Env = append(cmd.Env, childRedisEnv+"="+redis, childScaleEnv+"="+strconv.Itoa(live.Scale),
				childTimeoutEnv+"="+live.Timeout.String())
		}
		return cmd
	}
}

// runChild is the child's side: args are the SSH command's name and
// arguments; it runs the verb's SSH form on stdout and stderr until it
// ends or a SIGTERM (the command's time) stops it.
func runChild(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "locksim: the command's process was started without a command")
		return 2
	}
	cmd, ok := sshCommands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "locksim: unknown command %q\n", args[0])
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGPIPE)
	defer stop()
	var live sim.LiveOptions
	redis := os.Getenv(childRedisEnv)
	if redis != "" {
		live.Scale, _ = strconv.Atoi(os.Getenv(childScaleEnv))
		live.Timeout, _ = time.ParseDuration(os.Getenv(childTimeoutEnv))
		live.NoSweep = true // the server swept once, when it started
	}
	call := serve.Call{Name: args[0], Args: args[1:], Out: stdout, Err: stderr, Held: serve.HeldFromEnv(os.Getenv),
		Backend: func() (*sim.Backend, func(), error) {
			var b *sim.Backend
			var err error
			if redis == "" {
				b, err = sim.OpenEmbedded()
			} else {
				b, err = sim.OpenLive(ctx, redis, live)
			}
			if err != nil {
				return nil, nil, err
			}
			return b, func() {
				cctx, cancel := context.WithTimeout(context.Background(), shutdownWithin)
				defer cancel()
				if err := b.Close(cctx); err != nil {
					fmt.Fprintf(stderr, "locksim: %v\n", err)
				}
			}, nil
		}}
	return cmd.Run(ctx, call)
}
