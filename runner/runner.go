// Package runner is the one way locksim runs work it does not trust with
// its own process: a child process under OS limits (wall time, CPU time,
// resident memory, CPU priority, death with its parent), each held where
// the OS lets it (Holds says which). The lab's search served over SSH,
// -grade's search and the story-playing SSH commands run through it.
package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits are what a child process runs under; a zero field is no limit.
type Limits struct {
	// Wall is the wall time from its start at which the parent kills it.
	Wall time.Duration
	// CPU is its CPU time in seconds (the kernel's CPU rlimit, soft and hard), which
	// the child sets on itself in Enter: the kernel's backstop for a
	// parent that cannot kill it. Unix only.
	CPU int
	// MemoryMB is the resident memory (VmRSS, read from /proc every
	// 100 ms) past which the parent kills it; not an address-space rlimit, which a -race
	// build's terabytes of reserved address space would trip. Linux only.
	MemoryMB int
	// Nice is the nice value it runs at (19 the lowest priority). Unix only.
	Nice int
	// Grace is, when the context ends, how long the process group has
	// between SIGTERM and SIGKILL (to delete its keys on a live server);
	// 0 kills it at once. Windows has no SIGTERM: it is killed at once.
	Grace time.Duration
}

// Limit names one of the limits.
type Limit int

// The limits a LimitError names.
const (
	WallTime Limit = iota + 1
	CPUTime
	Memory
)

// ErrLimit is wrapped by every *LimitError.
var ErrLimit = errors.New("stopped at a limit")

// LimitError is the error of a process a limit ended.
type LimitError struct {
	Limit  Limit
	Limits Limits
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case WallTime:
		return fmt.Sprintf("it ran past its time limit of %s", e.Limits.Wall)
	case CPUTime:
		return fmt.Sprintf("it ran past its CPU limit of %d s", e.Limits.CPU)
	default:
		return fmt.Sprintf("it used more than %d MB of memory", e.Limits.MemoryMB)
	}
}

func (e *LimitError) Unwrap() error { return ErrLimit }

// cpuEnv carries Limits.CPU to the child, whose Enter sets it: no OS this
// package builds for lets a parent set a child's CPU rlimit before exec.
const cpuEnv = "LOCKSIM_CPU_SECONDS"

// Enter is the child's side, called first thing by a program a Proc may
// run: it sets the CPU rlimit its parent asked for, if any. Its error
// says the limit could not be set; the child should then not run.
func Enter() error {
	v := os.Getenv(cpuEnv)
	if v == "" {
		return nil
	}
	sec, err := strconv.Atoi(v)
	if err != nil || sec <= 0 {
		return fmt.Errorf("%s=%q is not a number of seconds", cpuEnv, v)
	}
	if err := limitCPU(sec); err != nil {
		return fmt.Errorf("cannot limit the CPU time to %d s: %v", sec, err)
	}
	return nil
}

// Proc is a child process started under Limits.
type Proc struct {
	cmd    *exec.Cmd
	limits Limits
	why    chan error    // the limit or the context's end that stopped it
	exited chan struct{} // closed once it has been waited for
	watch  sync.WaitGroup
	mu     sync.Mutex
	killed bool // by Kill: not a CPU limit's kill
}

// Start starts cmd (not yet started; its Stdin, Stdout, Stderr and Env
// as the caller set them) under l, and watches it until Wait: it is
// killed at l's limits and when ctx ends. It returns ctx's error without
// starting anything if ctx has ended already.
func Start(ctx context.Context, cmd *exec.Cmd, l Limits) (*Proc, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if l.CPU > 0 && cpuLimit || raceBuild {
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		if l.CPU > 0 && cpuLimit {
			cmd.Env = append(cmd.Env, cpuEnv+"="+strconv.Itoa(l.CPU))
		}
		if raceBuild {
			cmd.Env = QuickRaceExit(cmd.Env)
		}
	}
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if l.Nice != 0 {
		_ = lowerPriority(cmd.Process.Pid, l.Nice) // at the normal priority it still runs
	}
	p := &Proc{cmd: cmd, limits: l, why: make(chan error, 1), exited: make(chan struct{})}
	p.watch.Add(1)
	go p.watchLimits(ctx)
	return p, nil
}

// Run starts cmd under l and waits for it (Start, then Wait).
func Run(ctx context.Context, cmd *exec.Cmd, l Limits) error {
	p, err := Start(ctx, cmd, l)
	if err != nil {
		return err
	}
	return p.Wait()
}

// watchLimits kills the process at a limit or when ctx ends. It stops
// once the process has been waited for, so no signal reaches a reused
// pid or process group.
func (p *Proc) watchLimits(ctx context.Context) {
	defer p.watch.Done()
	var wall <-chan time.Time
	if p.limits.Wall > 0 {
		t := time.NewTimer(p.limits.Wall)
		defer t.Stop()
		wall = t.C
	}
	var tick <-chan time.Time
	if p.limits.MemoryMB > 0 && memoryCap {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		var stop error
		select {
		case <-p.exited:
			return
		case <-ctx.Done():
			p.why <- ctx.Err()
			p.stop(p.limits.Grace)
			return
		case <-wall:
			stop = &LimitError{Limit: WallTime, Limits: p.limits}
		case <-tick:
			if rss, ok := residentMB(p.cmd.Process.Pid); ok && rss > p.limits.MemoryMB {
				stop = &LimitError{Limit: Memory, Limits: p.limits}
			}
		}
		if stop != nil {
			p.why <- stop
			signalGroup(p.cmd.Process, true)
			return
		}
	}
}

// stop ends the process group: SIGTERM, and SIGKILL grace later if it is
// still there (at once with no grace).
func (p *Proc) stop(grace time.Duration) {
	if grace <= 0 {
		signalGroup(p.cmd.Process, true)
		return
	}
	signalGroup(p.cmd.Process, false)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		signalGroup(p.cmd.Process, true)
	}
}

// Kill ends the process at once (a parent that read garbage from it);
// Wait then returns its exit error, never a limit's.
func (p *Proc) Kill() {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	_ = p.cmd.Process.Kill()
}

// Wait waits for the process and the watch to end. Its error is ctx's
// once ctx ended it, a *LimitError when a limit did (the CPU limit read
// from how it died), or exec.Cmd.Wait's.
func (p *Proc) Wait() error {
	err := p.cmd.Wait()
	close(p.exited)
	p.watch.Wait()
	select {
	case why := <-p.why:
		return why
	default:
	}
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if p.limits.CPU > 0 && !killed && diedOfCPULimit(p.cmd.ProcessState) {
		return &LimitError{Limit: CPUTime, Limits: p.limits}
	}
	return err
}

// QuickRaceExit adds atexit_sleep_ms=0 to GORACE in env unless it is
// set, and returns env: a -race binary sleeps a second at exit otherwise,
// which every child a test starts would add to the tests' time. Start
// does it for the children of a -race binary; a test that starts a
// -race build of its own without Start calls it. Of several GORACE
// entries it reads the last, the one exec.Cmd gives the child (a caller
// that appends its own to os.Environ() where GORACE is set already).
func QuickRaceExit(env []string) []string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "GORACE="); ok {
			if strings.Contains(v, "atexit_sleep_ms") {
				return env
			}
			env[i] = "GORACE=" + strings.TrimSpace(v+" atexit_sleep_ms=0")
			return env
		}
	}
	return append(env, "GORACE=atexit_sleep_ms=0")
}

// Holds is one line saying which of l's limits hold on this system, for
// the lab page and -grade's output.
func (l Limits) Holds() string {
	var held []string
	if l.Wall > 0 {
		held = append(held, "wall time "+l.Wall.String())
	}
	if l.CPU > 0 && cpuLimit {
		held = append(held, fmt.Sprintf("CPU time %d s", l.CPU))
	}
	if l.MemoryMB > 0 && memoryCap {
		held = append(held, fmt.Sprintf("memory %d MB", l.MemoryMB))
	}
	if l.Nice != 0 && priority {
		held = append(held, fmt.Sprintf("nice %d", l.Nice))
	}
	if diesWithParent {
		held = append(held, "ends with locksim")
	}
	if len(held) == 0 {
		return "limits on " + runtime.GOOS + ": none"
	}
	return "limits on " + runtime.GOOS + ": " + strings.Join(held, ", ")
}
