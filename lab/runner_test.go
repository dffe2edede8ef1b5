package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/runner"
	"locksim/sim/simtest"
)

// childModeEnv makes this test binary a search's child (TestMain): "serve"
// serves ServeChild as locksim's hidden verb does; "hang" reads the
// request, says one progress line and waits for ever; "hog" does the same
// holding 256 MB of resident memory.
const childModeEnv = "LOCKSIM_TEST_LAB_CHILD"

func testChild(mode string) int {
	if mode == "serve" {
		if err := runner.Enter(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := ServeChild(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	var hold []byte
	if mode == "hog" {
		// a byte written in each page makes it resident: the whole 256 MB
		// at once, not a byte at a time (under -race, hundreds of
		// milliseconds of the child's CPU before the cap's poll found it)
		hold = make([]byte, 256<<20)
		for i := 0; i < len(hold); i += 4096 {
			hold[i] = byte(i>>12) | 1
		}
	}
	_, _ = os.Stdin.Read(make([]byte, 1))
	fmt.Println(`{"Progress": {"Explored": 1}}`)
	select {}
}

// testChildOf is a Child running this test binary in mode, and the
// processes it started.
func testChildOf(t *testing.T, mode string) (Child, func() []*exec.Cmd) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var cmds []*exec.Cmd
	c := Child{Start: func() *exec.Cmd {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), childModeEnv+"="+mode)
		mu.Lock()
		cmds = append(cmds, cmd)
		mu.Unlock()
		return cmd
	}}
	return c, func() []*exec.Cmd {
		mu.Lock()
		defer mu.Unlock()
		return cmds
	}
}

// gone fails t unless every process started has been waited for and no
// longer exists.
func gone(t *testing.T, cmds []*exec.Cmd) {
	t.Helper()
	if len(cmds) == 0 {
		t.Fatal("no child process was started")
	}
	for _, cmd := range cmds {
		if cmd.ProcessState == nil {
			t.Errorf("child %d was never waited for", cmd.Process.Pid)
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", cmd.Process.Pid)); err == nil {
			if data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid)); strings.Contains(string(data), "lab.test") {
				t.Errorf("child %d is still there", cmd.Process.Pid)
			}
		}
	}
}

// smallLock is the starter's GET-then-DEL lock under one fault, a pause
// past the TTL, and depth 8: a search of a few hundred schedules.
func smallLock() Lock {
	l := Starter()
	l.Policy.Faults = []Fault{PausePast}
	l.Policy.Bound = Bound{Clients: 2, Faults: 1, Depth: 8, MaxSchedules: DefaultBound().MaxSchedules}
	return l
}

// TestChildAgreesWithCheck: a search in a child process judges as Check
// does in this one, the same breaks with their lock, and its progress
// reaches the parent.
func TestChildAgreesWithCheck(t *testing.T) {
	c, started := testChildOf(t, "serve")
	l := smallLock()
	want, err := Check(context.Background(), &l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var last Progress
	got, err := c.Run(context.Background(), &l, Options{Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	want.Elapsed, got.Elapsed = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in a child:\n%+v\nin this process:\n%+v", got, want)
	}
	if got.First() == nil || got.First().Lock.Release.Src != l.Release.Src {
		t.Errorf("the break should carry the lock it breaks: %+v", got.First())
	}
	if last.Done != 1 || last.Explored != want.Explored {
		t.Errorf("the last progress: %+v, want all %d explored", last, want.Explored)
	}
	gone(t, started())
}

// TestChildScriptErrors: a script that does not compile ends the search
// in a child with the same *ScriptError as in this process, and hostile
// scripts (a loop where one host runs them, a backtracking pattern, a
// string doubled past the cap) the same report. The quick tier runs the
// script that does not compile, the loop and the pattern (over its
// budget); the slow tier the doubled string, over its byte cap, more
// than a second here and in the child. The searches here and in the
// child run under a tenth of the default instruction budget (the child
// gets it in its request): the loop and the pattern stop at it ten times
// sooner, the same error.
func TestChildScriptErrors(t *testing.T) {
	c, started := testChildOf(t, "serve")
	o := Options{Budget: Budget{Steps: DefaultBudget().Steps / 10, Deadline: DefaultBudget().Deadline}}
	for i, src := range []string{
		"local v = redis.call('GET', KEYS[1])\nif v == then return 1 end",
		"if rawget(_G, 'redis') then while true do end end\nreturn 1",
		"return string.find(string.rep('a', 200), '.-.-.-.-b')",
		"local s = 'x'\nfor i = 1, 40 do s = s .. s end\nreturn #s",
	} {
		if !simtest.InTier(i < 3) {
			continue
		}
		l := smallLock()
		l.Acquire.Src = src
		want, werr := Check(context.Background(), &l, o)
		got, gerr := c.Run(context.Background(), &l, o)
		var ws, gs *ScriptError
		switch {
		case errors.As(werr, &ws):
			if !errors.As(gerr, &gs) || !sameScriptError(*gs, *ws) {
				t.Errorf("%s\n in a child: %#v\n here: %#v", src, gerr, werr)
			}
		case werr != nil || gerr != nil:
			t.Errorf("%s: in a child %v, here %v", src, gerr, werr)
		default:
			want.Elapsed, got.Elapsed = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s\n in a child: %+v\n here: %+v", src, got, want)
			}
		}
	}
	gone(t, started())
}

// sameScriptError: a and b name the same error; of a run over its
// budget, whichever of its instructions and its wall-clock guard a busy
// machine reaches first.
func sameScriptError(a, b ScriptError) bool {
	if a.OverBudget && b.OverBudget && strings.Contains(a.Msg+b.Msg, "ran past its") {
		a.Msg, b.Msg = "", ""
	}
	// what stays in this process (the raw message, how it was raised)
	// does not cross to a child's report
	a.raw, b.raw, a.raised, b.raised = "", "", false, false
	return reflect.DeepEqual(a, b)
}

// TestChildCancelled: a search let go of (its context cancelled) kills
// its child, and leaves neither the process nor a goroutine behind.
func TestChildCancelled(t *testing.T) {
	before := runtime.NumGoroutine()
	c, started := testChildOf(t, "hang")
	l := smallLock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.Run(ctx, &l, Options{Progress: func(Progress) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled search: %v", err)
	}
	gone(t, started())
	waitGoroutines(t, before)
}

// TestChildLimits: a child past its wall time, or over its resident
// memory, is killed, and the error names the limit.
func TestChildLimits(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the memory cap holds on Linux only")
	}
	for _, c := range []struct {
		mode  string
		child func(Child) Child
		want  string
	}{
		// a child that hangs waits out its whole wall time: a tenth of a
		// second (the runner's own test's) is as much a limit as a second
		{"hang", func(c Child) Child { c.Wall = 100 * time.Millisecond; return c }, "time limit of 100ms"},
		{"hog", func(c Child) Child { c.MemoryMB = 64; return c }, "more than 64 MB"},
	} {
		ch, started := testChildOf(t, c.mode)
		l := smallLock()
		_, err := c.child(ch).Run(context.Background(), &l, Options{})
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want the limit %q", c.mode, err, c.want)
		}
		gone(t, started())
	}
}

// waitGoroutines waits, within a generous bound, for the goroutines to be
// back to before.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if runtime.NumGoroutine() <= before {
			return
		}
	}
	buf := make([]byte, 1<<16)
	t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
}
