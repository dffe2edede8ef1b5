//go:build unix

package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"regexp"
	"syscall"
	"testing"

	"locksim/sim/simtest"
)

func ignoreTerm(ignore bool) {
	if ignore {
		signal.Ignore(syscall.SIGTERM)
	}
}

// TestCPULimit: a child that spins past its CPU time is killed by the
// kernel, and the error names the limit. It spins a second of CPU (the
// kernel's limit counts whole seconds): the slow tier's;
// TestCPULimitSet is its quick form.
func TestCPULimit(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	err := Run(context.Background(), child(t, "spin"), Limits{CPU: 1})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != CPUTime || err.Error() != "it ran past its CPU limit of 1 s" {
		t.Fatalf("a child past its CPU time: %v", err)
	}
}

// TestCPULimitSet: a child that entered (Enter) runs under the CPU
// rlimit it was given, soft and hard (read from /proc/PID/limits where
// there is one), and a child ended by the signal the kernel sends at
// that limit (SIGKILL at the hard one, which is the soft one too: a Go
// program ignores the SIGXCPU of the soft one) is read as the CPU limit,
// not a crash; one a parent's Kill ended is not.
func TestCPULimitSet(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		kill bool // ended by Proc.Kill, not the kernel
	}{{syscall.SIGKILL, false}, {syscall.SIGKILL, true}} {
		cmd := child(t, "enter-sleep")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		p, err := Start(context.Background(), cmd, Limits{CPU: 7})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := out.Read(make([]byte, 3)); err != nil {
			t.Fatal(err)
		}
		if limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", cmd.Process.Pid)); err == nil {
			if !regexp.MustCompile(`(?m)^Max cpu time +7 +7 +seconds`).Match(limits) {
				t.Errorf("the child's limits:\n%s", limits)
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Error(err)
		}
		if c.kill {
			p.Kill()
		} else if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		err = p.Wait()
		var le *LimitError
		switch {
		case c.kill && errors.As(err, &le):
			t.Errorf("a child its parent killed: %v, want its exit error", err)
		case !c.kill && (!errors.As(err, &le) || le.Limit != CPUTime || err.Error() != "it ran past its CPU limit of 7 s"):
			t.Errorf("a child the kernel's %v ended: %v", c.sig, err)
		}
	}
}
