//go:build unix

package runner

import (
	"context"
	"errors"
	"os/signal"
	"syscall"
	"testing"
)

func ignoreTerm(ignore bool) {
	if ignore {
		signal.Ignore(syscall.SIGTERM)
	}
}

// TestCPULimit: a child that spins past its CPU time is killed by the
// kernel, and the error names the limit.
func TestCPULimit(t *testing.T) {
	err := Run(context.Background(), child(t, "spin"), Limits{CPU: 1})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != CPUTime || err.Error() != "it ran past its CPU limit of 1 s" {
		t.Fatalf("a child past its CPU time: %v", err)
	}
}
