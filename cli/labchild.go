// The hidden verb -lab-child: a lab search of a session served over SSH,
// in a process of its own (serve.Config.Lab), so that one learner's lock
// cannot take the cores or the memory the other sessions share.

package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"locksim/lab"
	"locksim/serve"
	"locksim/sim"
)

// labChildOf is the child behind serve.Config.Lab: this binary (exe)
// running -lab-child, with extra on top of the process's environment, at
// serve.ChildNice; lab.Child's defaults for its other limits.
func labChildOf(exe string, extra []string) lab.Child {
	return lab.Child{Nice: serve.ChildNice, Start: func() *exec.Cmd {
		cmd := exec.Command(exe, "-lab-child")
		cmd.Env = append(os.Environ(), extra...)
		return cmd
	}}
}

// labChild is the hidden verb -lab-child: the lock and its policy on
// stdin, the search's progress and its outcome on stdout (lab.ServeChild).
// Exit status 0 once the outcome is written, whatever it is; 1 with one
// line on stderr when the request cannot be read or the CPU limit set.
func labChild(ctx context.Context, e *env, _ config, _ *sim.Backend) int {
	if err := lab.ServeChild(ctx, e.in, e.out); err != nil {
		fmt.Fprintf(e.err, "locksim: -lab-child: %v\n", err)
		return 1
	}
	return 0
}
