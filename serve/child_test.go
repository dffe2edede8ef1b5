//go:build unix

package serve

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"locksim/serve/termtest"
)

// shell is a Spawn that runs each command's first argument as a shell
// script, for tests.
func shell(name string, args []string) *exec.Cmd {
	return exec.Command("sh", "-c", args[0])
}

// TestChild: a command marked Child runs in a process of its own: its
// stdout, stderr and exit status are the client's, at the lowest CPU
// priority; one that is not marked runs in the server.
func TestChild(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run a child with")
	}
	h := newHolding(false)
	close(h.let)
	_, addr := testServer(t, Config{Spawn: shell, Commands: map[string]Command{
		"sh": {Child: true}, "hold": h.command()}})
	c := termtest.Dial(t, addr, "s", termtest.NewKey(t))
	out, errOut, code := termtest.Run(t, c, `sh 'echo out; echo err >&2; exit 3'`)
	if out != "out\n" || errOut != "err\n" || code != 3 {
		t.Fatalf("a child: stdout %q, stderr %q, status %d", out, errOut, code)
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		// the 19th field of /proc/PID/stat is the nice value; the server
		// lowers it just after the process starts, so the script waits
		// (up to 30 s) for the change rather than racing it
		out, _, _ = termtest.Run(t, c, `sh 'for i in $(seq 600); do n=$(cut -d" " -f19 /proc/$$/stat); [ "$n" = 19 ] && break; sleep 0.05; done; echo $n'`)
		if strings.TrimSpace(out) != "19" {
			t.Fatalf("the child's nice value is %q, want 19", out)
		}
	}
	if out, _, code := termtest.Run(t, c, "hold"); out != "done\n" || code != 0 {
		t.Fatalf("a command in the server: %q, %d", out, code)
	}
}

// TestChildStopped: a child that outlives its time gets SIGTERM, and one
// that ignores it SIGKILL; the client has the stop's line, and the key's
// slot comes back once the process is gone. The grace before SIGKILL is
// a millisecond: the test waits for the process to end, not for a second.
func TestChildStopped(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run a child with")
	}
	for _, script := range []string{"echo up; exec sleep 60", "trap '' TERM; echo up; sleep 60; sleep 60"} {
		t.Run(script, func(t *testing.T) {
			clock := newFakeClock()
			s, addr := testServer(t, Config{Clock: clock, Spawn: shell, CommandsPerKey: 1, ChildGrace: time.Millisecond,
				Commands: map[string]Command{"sh": {Child: true}}})
			c := termtest.Dial(t, addr, "s", termtest.NewKey(t))
			sess, err := c.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			out, _ := sess.StdoutPipe()
			var errOut strings.Builder
			sess.Stderr = &errOut
			if err := sess.Start(`sh "` + script + `"`); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 3)
			if _, err := out.Read(buf); err != nil || string(buf) != "up\n" {
				t.Fatalf("the child never said it was up: %q, %v", buf, err)
			}
			clock.Advance(DefaultCommandTime)
			err = sess.Wait()
			if err == nil || !strings.Contains(errOut.String(), "was stopped after 10 s") {
				t.Fatalf("stopped: %v, stderr %q", err, errOut.String())
			}
			waitSessions(t, s, 0)
		})
	}
}
