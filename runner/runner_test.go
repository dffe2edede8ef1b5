package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/sim/simtest/testmain"
)

// modeEnv makes this test binary a child (TestMain): "spin" enters (its
// CPU limit set) and spins for ever, "enter-sleep" enters and sleeps
// for ever; "sleep" sleeps for ever, ignoring
// SIGTERM when it is "sleep-term"; "env" prints its GORACE.
const modeEnv = "LOCKSIM_TEST_RUNNER_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(modeEnv) {
	case "":
		testmain.Run(m) // this tier's tests, without -race's second at exit
	case "spin":
		if err := Enter(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for {
		}
	case "enter-sleep":
		if err := Enter(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("up")
		select {}
	case "sleep", "sleep-term":
		ignoreTerm(os.Getenv(modeEnv) == "sleep-term")
		fmt.Println("up")
		select {}
	case "env":
		fmt.Print(os.Getenv("GORACE"))
		os.Exit(0)
	}
}

// child is this test binary in mode.
func child(t *testing.T, mode string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), modeEnv+"="+mode)
	return cmd
}

// TestWallLimit: a child past its wall time is killed, and the error
// names the limit.
func TestWallLimit(t *testing.T) {
	err := Run(context.Background(), child(t, "sleep"), Limits{Wall: 100 * time.Millisecond})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != WallTime || !errors.Is(err, ErrLimit) || err.Error() != "it ran past its time limit of 100ms" {
		t.Fatalf("a child past its wall time: %v", err)
	}
}

// TestStopped: a child whose context ends gets SIGTERM, and SIGKILL
// Grace later if it ignores it; Wait returns the context's error once it
// is gone.
func TestStopped(t *testing.T) {
	for _, mode := range []string{"sleep", "sleep-term"} {
		t.Run(mode, func(t *testing.T) {
			cmd := child(t, mode)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			p, err := Start(ctx, cmd, Limits{Grace: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := out.Read(make([]byte, 3)); err != nil {
				t.Fatal(err)
			}
			cancel()
			if err := p.Wait(); !errors.Is(err, context.Canceled) {
				t.Fatalf("a stopped child: %v", err)
			}
			if cmd.ProcessState == nil || cmd.ProcessState.Success() {
				t.Fatalf("the child was not ended: %v", cmd.ProcessState)
			}
		})
	}
}

// TestQuickRaceExit: a child of a -race binary is told not to sleep at
// exit, and a GORACE it was given keeps its options, whatever GORACE
// this test binary was run with (the child's environment is made
// without it); of two GORACE entries the last is the child's.
func TestQuickRaceExit(t *testing.T) {
	if !raceBuild {
		t.Skip("not a -race build")
	}
	for _, c := range []struct {
		gorace []string
		want   string
	}{
		{nil, "atexit_sleep_ms=0"},
		{[]string{"halt_on_error=1"}, "halt_on_error=1 atexit_sleep_ms=0"},
		{[]string{"atexit_sleep_ms=5"}, "atexit_sleep_ms=5"},
		{[]string{"atexit_sleep_ms=0", "halt_on_error=1"}, "halt_on_error=1 atexit_sleep_ms=0"},
	} {
		cmd := child(t, "env")
		cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "GORACE=") })
		for _, g := range c.gorace {
			cmd.Env = append(cmd.Env, "GORACE="+g)
		}
		var out strings.Builder
		cmd.Stdout = &out
		if err := Run(context.Background(), cmd, Limits{}); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("GORACE=%q: the child has %q, want %q", c.gorace, out.String(), c.want)
		}
	}
}
