package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locksim/lab"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"

	gossh "golang.org/x/crypto/ssh"
)

// The keys a terminal sends for the lab's editor.
const (
	keyCtrlHome = "\x1b[1;5H"
	keyCtrlK    = "\x0b"
	keyDelete   = "\x1b[3~"
	keyCtrlR    = "\x12"
	keyDown     = "\x1b[B"
	keyUp       = "\x1b[A"
	keyEsc      = "\x1b"
	keyShiftTab = "\x1b[Z"
)

// labServer is an SSH server of the course as -serve runs it, each lab
// search in a child process (this test binary standing for locksim's
// -lab-child) with wall limit wall; each search's end, as its runner
// returned it, comes on ended. setWall changes the wall limit of the
// searches started after it (the lab page still names wall, the limit
// the server was started with).
func labServer(t *testing.T, wall time.Duration) (addr string, child lab.Child, ended <-chan error, setWall func(time.Duration)) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	child = labChildOf(exe, []string{"LOCKSIM_MAIN=1"})
	child.Wall = wall
	var walls atomic.Int64
	walls.Store(int64(wall))
	ends := make(chan error, 16)
	run := func(ctx context.Context, l *lab.Lock, o lab.Options) (*lab.Report, error) {
		c := child
		c.Wall = time.Duration(walls.Load())
		rep, err := c.Run(ctx, l, o)
		ends <- err
		return rep, err
	}
	s, err := serve.New(serve.Config{HostKey: filepath.Join(t.TempDir(), "host_ed25519"), Commands: sshCommands(),
		Log: log.New(io.Discard, "", 0), Lab: run, LabLimits: child.Limits().Holds()})
	if err != nil {
		t.Fatal(err)
	}
	l, err := serve.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(termtest.Serve(t, s, l))
	return l.Addr().String(), child, ends, func(d time.Duration) { walls.Store(int64(d)) }
}

// searchEnded waits for the next search to end, however long a busy
// machine makes it take: its wall limit bounds it, and the wait's own
// bound (that limit and termtest.Hang past it) only catches a search that
// never started or a limit that did not hold. It returns the search's
// error.
func searchEnded(t *testing.T, ended <-chan error, wall time.Duration) error {
	t.Helper()
	select {
	case err := <-ended:
		return err
	case <-time.After(wall + termtest.Hang):
		t.Fatalf("no search ended within its wall limit of %s and %s more", wall, termtest.Hang)
		return nil
	}
}

// labChildren are the pids of this process's -lab-child children.
func labChildren(t *testing.T) []int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue // gone since the glob
		}
		// the fields after the command's name (in parentheses): state, ppid
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		if cmd, _ := os.ReadFile(filepath.Join(d, "cmdline")); bytes.Contains(cmd, []byte("-lab-child")) {
			pid, _ := strconv.Atoi(filepath.Base(d))
			out = append(out, pid)
		}
	}
	return out
}

// waitLabChildren waits for there to be n -lab-child children (within
// termtest.Hang) and returns them.
func waitLabChildren(t *testing.T, n int) []int {
	t.Helper()
	deadline := time.Now().Add(termtest.Hang)
	for {
		pids := labChildren(t)
		if len(pids) == n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d searches' processes, want %d: %v", len(pids), n, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// openOwnLock opens the course on a terminal of c, the lab on the
// learner's own lock in the editor.
func openOwnLock(t *testing.T, c *gossh.Client) *termtest.Term {
	t.Helper()
	tm := termtest.Open(t, c, "xterm-256color", 120, 40)
	tm.WaitFor("the course:")
	tm.Send("/lab\r")
	tm.WaitFor("break this lock", "fix this lock")
	tm.Send(strings.Repeat(keyDown, 2*len(lab.Levels())))
	tm.WaitFor("Your own lock")
	tm.Send("\r")
	tm.WaitFor("release: a command a line") // the part to fix first
	tm.Send(keyShiftTab)
	tm.WaitFor("acquire: KEYS[1]")
	return tm
}

// setAcquire replaces the acquire's source in the editor with src (one
// line, or lines joined by \r as the terminal's enter).
func setAcquire(t *testing.T, tm *termtest.Term, src string) {
	t.Helper()
	tm.Send(keyCtrlHome + strings.Repeat(keyCtrlK+keyDelete, 12))
	tm.Send(src)
	first, _, _ := strings.Cut(src, "\r")
	tm.WaitFor(first, "acquire: KEYS[1]") // typed, and no error from before under it
}

// responsive returns a check that other answers its keys: each call
// moves its contents' selection (down, then back up) and waits for its
// screen to change.
func responsive(other *termtest.Term) func() {
	down := true
	return func() {
		before := other.Screen()
		key := keyUp
		if down {
			key = keyDown
		}
		down = !down
		other.Send(key)
		other.WaitUntil("a change after a key", func(s string) bool { return s != before })
	}
}

// TestServedLabAttacks: over SSH each lab search runs in a process of
// its own. Each hostile lock the CLI's grade is tested against, submitted
// in a session, ends with its error line on that session's screen while
// another session on the same server answers its keys, and leaves no
// search's process behind. A search past the wall limit is stopped with
// a line naming the limit; one cancelled with esc, or whose session
// closes, is killed.
func TestServedLabAttacks(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to find the searches' processes in")
	}
	// the limit only the slow lock reaches: the attacks end at their first
	// run, long before it on the busiest machine
	const wall = 15 * time.Second
	addr, child, ended, setWall := labServer(t, wall)
	other := termtest.Open(t, termtest.Dial(t, addr, "other", termtest.NewKey(t)), "xterm-256color", 100, 30)
	other.WaitFor("the course:")
	poke := responsive(other)
	tm := openOwnLock(t, termtest.Dial(t, addr, "student", termtest.NewKey(t)))
	for _, c := range []struct{ name, src, want string }{
		{"endless loop", "while true do end", "stopped: the script ran past its"},
		{"host detection", "if redis then while true do end end\rreturn 1", "stopped: the script ran past its"},
		{"backtracking find", "return string.find(string.rep('a', 200), '.-.-.-.-b')", "stopped: the script ran past its"},
		{"backtracking gsub", "return string.gsub(string.rep('a', 200), '.-.-.-.-b', 'x')", "stopped: the script ran past its"},
		{"string.rep", "return string.rep('x', 1e9)", "made more than"},
		{".. doubling", "local s = 'x'\rfor i = 1, 40 do s = s .. s end\rreturn #s", "made more than"},
		{"table.concat", "local t, mb = {}, string.rep('x', 1048576)\rfor i = 1, 1000 do t[i] = mb end\rreturn #table.concat(t)", "made more than"},
		{"unpack", "return select('#', unpack({}, 1, 1e8))", "too many results to unpack"},
		{"table growth", "local t, mb = {}, string.rep('x', 1048576)\rfor i = 1, 1e6 do t[i] = mb .. i end\rreturn #t", "made more than"},
		{"deep recursion", "local function f(n) return f(n + 1) + 1 end\rreturn f(1)", "stack overflow"},
		{"string metatable", "getmetatable('').__index = {upper = function() return 'owned' end} return 1", "attempt to index"},
		{"getfenv", "return getfenv(0)", "nonexistent global variable 'getfenv'"},
		{"setfenv", "setfenv(1, {}) return 1", "nonexistent global variable 'setfenv'"},
		{"debug", "return debug.getregistry()", "nonexistent global variable 'debug'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			setAcquire(t, tm, c.src)
			tm.Send(keyCtrlR)
			poke()
			// the attack's own limit, or, on a machine so busy that the
			// search at nice 19 gets little CPU, the wall limit: either
			// way the search was contained and ended. The test waits for
			// that end, never for a time, so the next case types its lock
			// only once this one's search is over.
			err := searchEnded(t, ended, wall)
			var se *lab.ScriptError
			switch {
			case errors.Is(err, lab.ErrLimit):
				if !strings.Contains(err.Error(), "ran past its time limit of "+wall.String()) {
					t.Fatalf("the search ended at a limit other than its wall time: %v", err)
				}
				tm.WaitFor("ran past its time limit of " + wall.String())
			case errors.As(err, &se):
				want := c.want
				if !strings.Contains(se.Error(), want) && se.OverBudget && strings.Contains(se.Msg, "ran past its") {
					// the run's own deadline, which a process starved of
					// CPU reaches before the attack's own limit
					t.Logf("the run's deadline came first: %v", se)
					want = "stopped: the script ran past its"
				}
				if !strings.Contains(se.Error(), want) {
					t.Fatalf("the search ended with %v, want %q", se, want)
				}
				tm.WaitUntil("the attack's limit: "+want, func(s string) bool {
					return strings.Contains(s, "✗ acquire.lua:") && strings.Contains(s, want)
				})
			default:
				t.Fatalf("the search ended with %v, want the script's error or the wall limit", err)
			}
			waitLabChildren(t, 0)
		})
	}

	// a lock within every budget whose search is long: each run loops
	slow := "for i = 1, 20000 do end\rreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"
	t.Run("cancelled", func(t *testing.T) {
		setAcquire(t, tm, slow)
		tm.Send(keyCtrlR)
		pid := waitLabChildren(t, 1)[0]
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		// the 19th field of /proc/PID/stat is the nice value
		if f := strings.Fields(string(stat)); err == nil && len(f) > 18 && f[18] != strconv.Itoa(serve.ChildNice) {
			t.Errorf("the search's process runs at nice %s, want %d", f[18], serve.ChildNice)
		}
		// the lab page says which limits hold while the search runs
		tm.WaitFor(child.Limits().Holds())
		poke()
		tm.Send(keyEsc)
		tm.WaitFor("search cancelled")
		if err := searchEnded(t, ended, wall); !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled search ended with %v", err)
		}
		waitLabChildren(t, 0)
	})
	t.Run("wall limit", func(t *testing.T) {
		// a shorter limit than the attacks', which the slow lock's search
		// outlasts too: the test waits it out (a second: the search spins
		// until then, at nice 19, and any limit it outlasts shows the same)
		const short = time.Second
		setWall(short)
		defer setWall(wall)
		tm.Send(keyCtrlR)
		waitLabChildren(t, 1)
		poke()
		err := searchEnded(t, ended, short)
		if !errors.Is(err, lab.ErrLimit) {
			t.Skipf("the search ended within its %s on this machine (%v): no limit to see", short, err)
		}
		tm.WaitFor("time limit of " + short.String())
		waitLabChildren(t, 0)
	})
	t.Run("session closed", func(t *testing.T) {
		c := termtest.Dial(t, addr, "leaving", termtest.NewKey(t))
		closing := openOwnLock(t, c)
		setAcquire(t, closing, slow)
		closing.Send(keyCtrlR)
		waitLabChildren(t, 1)
		c.Close() // the connection drops mid-search
		if err := searchEnded(t, ended, wall); !errors.Is(err, context.Canceled) {
			t.Errorf("the search of a closed session ended with %v", err)
		}
		waitLabChildren(t, 0)
		poke()
	})
}
