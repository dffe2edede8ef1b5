//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"locksim/runner"
	"locksim/sim/simtest"
)

// TestGradeCPULimit: the search's own process (-grade-child, which sets
// the CPU rlimit its runner asks for) is killed by the kernel there, and
// the grade reads that end as the CPU limit. It spins a second of CPU:
// the slow tier's; TestGradeCPULimitSet is its quick form.
func TestGradeCPULimit(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	cmd := exec.Command(os.Args[0], "-grade-child", slowLock(t))
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
	err := runner.Run(context.Background(), cmd, runner.Limits{CPU: 1})
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	var limit *runner.LimitError
	if !ok || !ws.Signaled() || !errors.As(err, &limit) {
		t.Fatalf("the search with a CPU limit of 1 s: %v", err)
	}
	if res := stoppedAt(limit); res.Status != "error" || !strings.Contains(res.Message, "CPU limit of 1 s (the kernel's)") {
		t.Errorf("read as %+v", res)
	}
}

// TestGradeCPULimitSet: the search's own process (-grade-child) runs
// under the CPU rlimit its runner asks for (read from /proc/PID/limits
// where there is one), and when it dies of the kernel's signal at that
// limit (SIGKILL, sent here by hand) the grade reads that end as the CPU
// limit.
func TestGradeCPULimitSet(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-grade-child", slowLock(t))
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
	p, err := runner.Start(context.Background(), cmd, runner.Limits{CPU: 7})
	if err != nil {
		t.Fatal(err)
	}
	limits := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/limits"
	if _, err := os.Stat(limits); err == nil {
		// the child sets its limit as it starts (runner.Enter): wait for it
		deadline := time.Now().Add(30 * time.Second)
		for data, _ := os.ReadFile(limits); !cpuLimitIs(data, "7"); data, _ = os.ReadFile(limits) {
			if time.Now().After(deadline) {
				p.Kill()
				_ = p.Wait()
				t.Fatalf("the search's limits 30 s after its start:\n%s", data)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = p.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	var limit *runner.LimitError
	if !ok || !ws.Signaled() || !errors.As(err, &limit) {
		t.Fatalf("the search with a CPU limit of 7 s: %v", err)
	}
	if res := stoppedAt(limit); res.Status != "error" || !strings.Contains(res.Message, "CPU limit of 7 s (the kernel's)") {
		t.Errorf("read as %+v", res)
	}
}

// cpuLimitIs: /proc/PID/limits says the CPU time's soft and hard limits
// are both sec seconds.
func cpuLimitIs(limits []byte, sec string) bool {
	for _, line := range strings.Split(string(limits), "\n") {
		if rest, ok := strings.CutPrefix(line, "Max cpu time"); ok {
			f := strings.Fields(rest)
			return len(f) == 3 && f[0] == sec && f[1] == sec
		}
	}
	return false
}

// TestGradeStopsOnSignal: SIGTERM or SIGINT ends a grade that would run
// for hours at once (the search's process with it), and results.json
// says it was stopped.
func TestGradeStopsOnSignal(t *testing.T) {
	dir := slowLock(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		out := t.TempDir()
		cmd := exec.Command(os.Args[0], "-grade", dir, "-out", out, "-grade-timeout", "1h")
		cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		child := waitForChild(t, cmd.Process.Pid)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: -grade still running 30 s later", sig)
		}
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("%v: exit %d, want 1", sig, code)
		}
		if status, msg, _ := results(t, out); status != "error" || !strings.Contains(msg, "interrupted") {
			t.Errorf("%v: %s %q", sig, status, msg)
		}
		// the search went with it
		if err := syscall.Kill(child, 0); !errors.Is(err, syscall.ESRCH) {
			if st, _ := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat"); !strings.Contains(string(st), ") Z ") {
				t.Errorf("%v: the search (pid %d) outlived the grade: %v", sig, child, err)
			}
		}
	}
}

// waitForChild waits until pid has started a child process and returns
// the child's pid.
func waitForChild(t *testing.T, pid int) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		// every process's parent, from /proc/PID/stat's fourth field (after
		// the command name in parentheses)
		stats, _ := filepath.Glob("/proc/[0-9]*/stat")
		for _, f := range stats {
			data, _ := os.ReadFile(f)
			i := strings.LastIndex(string(data), ")")
			if fields := strings.Fields(string(data[i+1:])); i >= 0 && len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
				child, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f, "/proc/"), "/stat"))
				return child
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("pid %d started no search in 30 s", pid)
	return 0
}
