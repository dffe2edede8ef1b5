package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"locksim/serve/termtest"

	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"
)

// holding is a command that runs until the test lets it go: it tells
// started when it runs, waits for let (or, when heed is set, for its
// context too), then writes "done" and tells wrote what the write
// answered.
type holding struct {
	started chan string // the caller's id
	let     chan struct{}
	wrote   chan error
	heed    bool
}

func newHolding(heed bool) *holding {
	return &holding{started: make(chan string, 100), let: make(chan struct{}), wrote: make(chan error, 100), heed: heed}
}

func (h *holding) command() Command {
	return Command{Run: func(ctx context.Context, c Call) int {
		h.started <- c.Who.ID
		if h.heed {
			select {
			case <-h.let:
			case <-ctx.Done():
			}
		} else {
			<-h.let
		}
		_, err := fmt.Fprintln(c.Out, "done")
		h.wrote <- err
		return 0
	}}
}

// waitStarted waits for n commands to have started.
func (h *holding) waitStarted(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-h.started:
		case <-time.After(hang):
			t.Fatal("a command never started")
		}
	}
}

// result is how a command run without a terminal ended.
type result struct {
	out, errOut string
	code        int
	err         error
}

// runAsync runs cmd on c without a terminal; the result comes on the
// channel once it ends.
func runAsync(c *gossh.Client, cmd string) <-chan result {
	ch := make(chan result, 1)
	go func() {
		s, err := c.NewSession()
		if err != nil {
			ch <- result{err: err}
			return
		}
		defer s.Close()
		var out, errOut bytes.Buffer
		s.Stdout, s.Stderr = &out, &errOut
		err = s.Run(cmd)
		r := result{out: out.String(), errOut: errOut.String()}
		var exit *gossh.ExitError
		switch {
		case errors.As(err, &exit):
			r.code = exit.ExitStatus()
		case err != nil:
			r.err = err
		}
		ch <- r
	}()
	return ch
}

func waitResult(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r
	case <-time.After(hang):
		t.Fatal("a command never ended")
	}
	return result{}
}

// refused checks that r is a refusal: status 1, nothing on stdout, one
// line on stderr holding each of want.
func refused(t *testing.T, what string, r result, want ...string) {
	t.Helper()
	if r.code != 1 || r.out != "" || strings.Count(r.errOut, "\n") != 1 {
		t.Fatalf("%s: status %d, stdout %q, stderr %q; want 1, nothing, one line", what, r.code, r.out, r.errOut)
	}
	for _, w := range want {
		if !strings.Contains(r.errOut, w) {
			t.Fatalf("%s: stderr %q lacks %q", what, r.errOut, w)
		}
	}
}

// TestCommandsPerKey: one key runs at most CommandsPerKey commands at
// once; the next is refused in one line, another key's runs, and once one
// of the key's commands ends the key may run another.
func TestCommandsPerKey(t *testing.T) {
	t.Parallel()
	h := newHolding(false)
	s, addr := testServer(t, Config{Clock: newFakeClock(), Commands: map[string]Command{"hold": h.command()}})
	flood := termtest.Dial(t, addr, "s", termtest.NewKey(t))
	var running []<-chan result
	for range DefaultCommandsPerKey {
		running = append(running, runAsync(flood, "hold"))
	}
	h.waitStarted(t, DefaultCommandsPerKey)
	refused(t, "the fifth", waitResult(t, runAsync(flood, "hold")),
		"one key may run 4 commands at once", "try again in 10 s")
	other := runAsync(termtest.Dial(t, addr, "s", termtest.NewKey(t)), "hold")
	h.waitStarted(t, 1)
	close(h.let)
	for _, ch := range append(running, other) {
		if r := waitResult(t, ch); r.code != 0 || r.out != "done\n" {
			t.Fatalf("a held command ended with %d, %q, %q", r.code, r.out, r.errOut)
		}
	}
	// the slots come back as the handlers return, just after the clients
	// have their exit status
	waitSessions(t, s, 0)
	if r := waitResult(t, runAsync(flood, "hold")); r.code != 0 {
		t.Fatalf("the key's command once the others ended: %d, %q", r.code, r.errOut)
	}
}

// TestCommandsInAll: the commands' budget in all holds whatever the keys,
// and keyless clients share one address's budget.
func TestCommandsInAll(t *testing.T) {
	t.Parallel()
	h := newHolding(false)
	_, addr := testServer(t, Config{Clock: newFakeClock(), MaxCommands: 3, CommandsPerKey: 2,
		Commands: map[string]Command{"hold": h.command()}})
	defer close(h.let)
	a, b := termtest.Dial(t, addr, "s", termtest.NewKey(t)), termtest.Dial(t, addr, "s", termtest.NewKey(t))
	runAsync(a, "hold")
	runAsync(a, "hold")
	h.waitStarted(t, 2)
	// keyless: one address, 127.0.0.1, two clients
	k1, k2 := termtest.Dial(t, addr, "s", nil), termtest.Dial(t, addr, "s", nil)
	runAsync(k1, "hold")
	h.waitStarted(t, 1)
	refused(t, "a third command in all", waitResult(t, runAsync(b, "hold")),
		"the server runs its most commands at once (3)", "try again in 10 s")
	refused(t, "another keyless client", waitResult(t, runAsync(k2, "hold")),
		"the server runs its most commands at once (3)")
}

// TestKeylessShareAnAddress: without a key, the budget per key is one
// address's.
func TestKeylessShareAnAddress(t *testing.T) {
	t.Parallel()
	h := newHolding(false)
	_, addr := testServer(t, Config{Clock: newFakeClock(), CommandsPerKey: 1, Commands: map[string]Command{"hold": h.command()}})
	defer close(h.let)
	runAsync(termtest.Dial(t, addr, "s", nil), "hold")
	h.waitStarted(t, 1)
	refused(t, "a second keyless client on the address", waitResult(t, runAsync(termtest.Dial(t, addr, "s", nil), "hold")),
		"one address may run 1 commands at once")
	runAsync(termtest.Dial(t, addr, "s", termtest.NewKey(t)), "hold")
	h.waitStarted(t, 1) // a key of its own is not the address's
}

// TestCommandStopped: a command is stopped after CommandTime with one
// line; what it writes after never reaches the client; one that does not
// heed its context keeps its key's slot until it returns.
func TestCommandStopped(t *testing.T) {
	t.Parallel()
	for _, heed := range []bool{true, false} {
		t.Run(fmt.Sprintf("heeds its context %v", heed), func(t *testing.T) {
			clock := newFakeClock()
			h := newHolding(heed)
			s, addr := testServer(t, Config{Clock: clock, CommandsPerKey: 1, Commands: map[string]Command{"hold": h.command()}})
			c := termtest.Dial(t, addr, "s", termtest.NewKey(t))
			ch := runAsync(c, "hold 400x200")
			h.waitStarted(t, 1)
			clock.Advance(DefaultCommandTime)
			r := waitResult(t, ch)
			if r.code != 1 || r.out != "" || r.errOut != "locksim: hold 400x200 was stopped after 10 s, the most a command without a terminal may run\n" {
				t.Fatalf("stopped: status %d, stdout %q, stderr %q", r.code, r.out, r.errOut)
			}
			if !heed {
				refused(t, "the key's next while the stopped one runs on", waitResult(t, runAsync(c, "hold")), "one key may run 1 commands at once")
				h.let <- struct{}{}
			}
			select {
			case err := <-h.wrote:
				if err == nil {
					t.Fatal("a stopped command's write went through")
				}
			case <-time.After(hang):
				t.Fatal("the stopped command never wrote")
			}
			waitSessions(t, s, 0)
			go func() { h.let <- struct{}{} }()
			if r := waitResult(t, runAsync(c, "hold")); r.code != 0 || r.out != "done\n" {
				t.Fatalf("the key's next command: status %d, %q, %q", r.code, r.out, r.errOut)
			}
		})
	}
}

// waitSessions waits until s counts n sessions and commands.
func waitSessions(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(hang)
	for s.Sessions() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions counted, want %d", s.Sessions(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSessionsPerKey: a key (a browser) opens at most SessionsPerKey
// terminal sessions (tabs); the next is refused in one line and none is
// closed for it.
func TestSessionsPerKey(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{}, func(t *testing.T, s *Server, d termtest.Dialer, addr string) {
		who := d.New(t)
		var open []*termtest.Term
		for range DefaultSessionsPerKey {
			tm := who.Open(t, termtest.At{User: "s"}, 80, 24)
			tm.WaitFor("1  race")
			open = append(open, tm)
		}
		over := who.Open(t, termtest.At{User: "s"}, 80, 24)
		want := "locksim: a key may have 3 sessions open at once and yours has 3: close one, then try again"
		if d.Name == "web" {
			want = "locksim: a browser may have 3 sessions open at once and yours has 3: close a tab, then try again"
		}
		// a pty's stderr ends its line with \r\n
		if got := endsWith(t, d, over, true, want); d.Name == "ssh" && got != want+"\r\n" {
			t.Fatalf("over the key's cap: %q", got)
		}
		other := d.New(t).Open(t, termtest.At{User: "s"}, 80, 24)
		other.WaitFor("1  race")
		for _, tm := range open {
			tm.Send("\x1b[B")
			tm.WaitFor("2  options")
		}
		open[0].Send("q")
		open[0].WaitEnd()
		waitSessions(t, s, DefaultSessionsPerKey) // the key's two and the other's
		who.Open(t, termtest.At{User: "s"}, 80, 24).WaitFor("1  race")
	})
}

// endsWith waits for tm's session to end and checks that it said want:
// over SSH on stderr with status 1, in a tab on its close frame (policy
// violation when refused, a normal close else; its reason without
// "locksim: " when not refused, cut to 120 bytes). want may be the
// line's start. It returns what was said.
func endsWith(t *testing.T, d termtest.Dialer, tm *termtest.Term, refused bool, want string) string {
	t.Helper()
	if refused {
		// a session let in shows the contents: that is the failure, now
		if s, ended := tm.EndOr(func(s string) bool { return strings.Contains(s, "1  race") }); !ended {
			t.Fatalf("the session was let in; want it refused with %q:\n%s", want, s)
		}
	}
	if d.Name == "ssh" {
		if code := tm.WaitEnd(); code != 1 || !strings.Contains(tm.Stderr(), want) {
			t.Fatalf("the session ended with %d, stderr %q; want 1 and %q", code, tm.Stderr(), want)
		}
		return tm.Stderr()
	}
	code, reason := tm.WaitClose()
	wantCode, wantReason := websocket.StatusNormalClosure, strings.TrimPrefix(want, "locksim: ")
	if refused {
		wantCode, wantReason = websocket.StatusPolicyViolation, want
	}
	// want may be the line's start; a reason may be the line's start, cut
	cut := strings.HasPrefix(wantReason, reason) && len(reason) >= 100
	if code != wantCode || !strings.HasPrefix(reason, wantReason) && !cut {
		t.Fatalf("the tab was closed with %v %q; want %v %q", code, reason, wantCode, wantReason)
	}
	return reason
}

// TestInstructorSlots: two slots of MaxSessions are the instructors'
// alone, so an instructor (an SSH key) gets in when students, over SSH or
// in tabs, have filled the rest; commands have a budget of their own and
// still run.
func TestInstructorSlots(t *testing.T) {
	t.Parallel()
	teacher := termtest.NewKey(t)
	file := filepath.Join(t.TempDir(), "instructors")
	writeKeys(t, file, teacher)
	h := newHolding(false)
	onBoth(t, Config{MaxSessions: 4, Instructors: file, Commands: map[string]Command{"hold": h.command()}}, func(t *testing.T, s *Server, d termtest.Dialer, addr string) {
		for range 2 {
			d.New(t).Open(t, termtest.At{User: "s"}, 80, 24).WaitFor("1  race")
		}
		third := d.New(t).Open(t, termtest.At{User: "s"}, 80, 24)
		want := "locksim: the server is full (4 sessions at once, 2 of them kept for instructors); try again in a few minutes, as sessions close"
		if got := endsWith(t, d, third, true, want); d.Name == "ssh" && got != want+"\r\n" {
			t.Fatalf("a third student: %q", got)
		}
		for range 2 {
			termtest.Open(t, termtest.Dial(t, addr, "s", teacher), "xterm", 80, 24).WaitFor("1  race")
		}
		// full for everyone now, instructors too
		last := termtest.Open(t, termtest.Dial(t, addr, "s", teacher), "xterm", 80, 24)
		if code := last.WaitEnd(); code != 1 || !strings.Contains(last.Stderr(), "the server is full") {
			t.Fatalf("an instructor over the cap: %d, %q", code, last.Stderr())
		}
		go func() { h.let <- struct{}{} }()
		if r := waitResult(t, runAsync(termtest.Dial(t, addr, "s", termtest.NewKey(t)), "hold")); r.code != 0 || r.out != "done\n" {
			t.Fatalf("a command beside full sessions: %d, %q, %q", r.code, r.out, r.errOut)
		}
	})
}
