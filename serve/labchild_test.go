//go:build unix

package serve

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/lab"
	"locksim/serve/termtest"
)

// shellLab is a Config.Lab whose child is the shell script script (its
// request on stdin), and the processes it started.
func shellLab(script string) (lab.Child, func() []*exec.Cmd) {
	var mu sync.Mutex
	var cmds []*exec.Cmd
	return lab.Child{Start: func() *exec.Cmd {
			cmd := exec.Command("sh", "-c", script)
			mu.Lock()
			cmds = append(cmds, cmd)
			mu.Unlock()
			return cmd
		}}, func() []*exec.Cmd {
			mu.Lock()
			defer mu.Unlock()
			return cmds
		}
}

// ownLock opens a course on a terminal of the server at addr, then the
// lab on the learner's own lock.
func ownLock(t *testing.T, addr string) *termtest.Term {
	t.Helper()
	tm := termtest.Open(t, termtest.Dial(t, addr, "s", termtest.NewKey(t)), "xterm-256color", 80, 24)
	tm.WaitFor("the course:")
	tm.Send("/lab\r")
	tm.WaitFor("break this lock")
	tm.Send(strings.Repeat("\x1b[B", 2*len(lab.Levels())))
	tm.WaitFor("Your own lock")
	tm.Send("\r")
	tm.WaitFor("ctrl+r run the adversary")
	return tm
}

// gone waits for the process pid (whose command line names what) to end.
func gone(t *testing.T, pid int, what string) {
	t.Helper()
	for end := time.Now().Add(termtest.Hang); ; time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err != nil || !strings.Contains(string(data), what) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("process %d is still there", pid)
		}
	}
}

// TestLabSearchInChild: a session's lab search runs by Config.Lab, in
// the process it starts: its report is what the session shows, and esc
// kills a search still running (the process is waited for and gone).
func TestLabSearchInChild(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run a child with")
	}
	report := `{"Report": {"Bound": {"Clients": 2, "Faults": 1, "Depth": 3}, "Explored": 4242, "Grants": true}}`
	done, _ := shellLab("cat >/dev/null; echo '" + report + "'")
	hang, started := shellLab("cat >/dev/null; echo '{\"Progress\": {\"Explored\": 7}}'; exec sleep 600")
	for _, c := range []struct {
		name  string
		child lab.Child
	}{{"report", done}, {"cancelled", hang}} {
		t.Run(c.name, func(t *testing.T) {
			_, addr := testServer(t, Config{Lab: c.child.Run})
			tm := ownLock(t, addr)
			tm.Send("\x12") // ctrl+r
			if c.name == "report" {
				tm.WaitFor("depth 3: 4 242 explored, 0 broke")
				return
			}
			tm.WaitFor("7 schedules explored")
			tm.Send("\x1b") // esc
			tm.WaitFor("search cancelled")
			cmds := started()
			if len(cmds) != 1 {
				t.Fatalf("%d searches started, want 1", len(cmds))
			}
			gone(t, cmds[0].Process.Pid, "sleep")
		})
	}
}

// TestLabSearchesQueue: past Config.LabSearches, a session's search waits
// for another's process to end before its own starts.
func TestLabSearchesQueue(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run a child with")
	}
	hang, started := shellLab("cat >/dev/null; echo '{\"Progress\": {\"Explored\": 7}}'; exec sleep 600")
	_, addr := testServer(t, Config{Lab: hang.Run, LabSearches: 1})
	first, second := ownLock(t, addr), ownLock(t, addr)
	first.Send("\x12")
	first.WaitFor("7 schedules explored")
	second.Send("\x12")
	// the queue's place, not "0 schedules explored": that frame is drawn
	// only if a render falls between ctrl+r and the queue's first word,
	// which a loaded machine may skip
	second.WaitFor("waiting for one of the server's 1 search slots")
	if n := len(started()); n != 1 {
		t.Fatalf("%d searches' processes while one slot is taken, want 1", n)
	}
	first.Send("\x1b")
	first.WaitFor("search cancelled")
	second.WaitFor("7 schedules explored")
	cmds := started()
	if len(cmds) != 2 {
		t.Fatalf("%d searches' processes, want 2", len(cmds))
	}
	gone(t, cmds[0].Process.Pid, "sleep")
	second.Send("\x1b")
	second.WaitFor("search cancelled")
	gone(t, cmds[1].Process.Pid, "sleep")
}
