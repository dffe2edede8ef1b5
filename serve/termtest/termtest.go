// Package termtest is the one client the tests drive a server with, over
// either transport: a Dialer opens terminals over SSH (a pty) or in a
// browser tab (a WebSocket: binary frames for the terminal's bytes, text
// frames for its size, as the page sends them), and each terminal's
// output goes through a vt emulator that answers the terminal's queries
// (background colour, device attributes) as a real one would, or wish
// v1.4.7 waits a second or two for each session. Light terminals, with no
// emulator, are for benchmarks. It is for tests only.
package termtest

import (
	"bytes"
	"context"
	"image/color"
	"io"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
)

// Hang bounds every wait: a guard against a hang, never a timing a test
// depends on.
const Hang = 30 * time.Second

// Server is a server a test runs: locksim's serve.Server, named by what
// Serve needs (termtest cannot import serve, whose tests import it).
type Server interface {
	Serve(net.Listener) error
	Close(context.Context) error
}

// Serve runs s on l on a goroutine of its own; stop closes it within Hang
// and fails t if Serve returned an error.
func Serve(t testing.TB, s Server, l net.Listener) (stop func()) {
	served := make(chan error, 1)
	go func() { served <- s.Serve(l) }()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), Hang)
		defer cancel()
		_ = s.Close(ctx)
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}
}

// pipe is a terminal's connection, as a Term drives it.
type pipe interface {
	// send types keys
	send(keys string) error
	// resize tells the server the terminal's new size
	resize(w, h int) error
}

// Term is a terminal on either transport: what the server writes goes
// through a vt emulator, which answers the terminal's queries
// (background colour, device attributes) as a real one would.
type Term struct {
	t     testing.TB
	p     pipe
	emu   *vt.Emulator
	mu    sync.Mutex    // guards emu (its cells are read while it writes) and waits
	ended chan struct{} // closed when the session ended
	raw   struct {
		sync.Mutex
		bytes.Buffer
	}
	errOut bytes.Buffer
	// end is how the session ended, once ended is closed
	end ending
	// waits are the WaitUntil calls under way, each told of every screen
	// drawn (guarded by mu)
	waits []*waiting
}

// waiting is one WaitUntil: its check, and the first screen drawn that
// passed it.
type waiting struct {
	ok  func(screen string) bool
	hit chan string
}

// ending is how a session ended: over SSH its exit status (or the error
// that stood for one) and stderr; in a tab, its close frame.
type ending struct {
	status int
	err    error
	// said is the line the session ended with: an SSH session's stderr,
	// a tab's close frame's reason
	said string
	// close is a tab's close frame's status
	close int
}

func newTerm(t testing.TB, p pipe, w, h int) *Term {
	tm := &Term{t: t, p: p, emu: vt.NewEmulator(w, h), ended: make(chan struct{})}
	tm.emu.SetBackgroundColor(color.RGBA{0, 0, 0, 255})
	return tm
}

// answer copies the emulator's answers to queries to w, as the
// terminal's input, until the emulator's reader fails.
func (tm *Term) answer(w io.Writer) {
	_, _ = io.Copy(w, tm.emu)
}

// screenWrite draws what the server sent.
func (tm *Term) screenWrite(p []byte) {
	tm.raw.Lock()
	tm.raw.Write(p)
	tm.raw.Unlock()
	tm.mu.Lock()
	_, _ = tm.emu.Write(p)
	var s string
	waits := slices.Clone(tm.waits)
	if len(waits) > 0 {
		s = tm.screen()
	}
	tm.mu.Unlock()
	// every screen drawn is seen, however briefly it stood: a note the
	// next frame replaces, before the test's goroutine ran on a busy
	// machine, still counts as shown (the checks run outside the lock,
	// free to read the terminal)
	for _, w := range waits {
		if w.ok(s) {
			select {
			case w.hit <- s: // the first screen that passed; later ones are dropped
			default:
			}
		}
	}
}

// Screen is the text on the emulator's screen, one line per row, trailing
// spaces dropped.
func (tm *Term) Screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.screen()
}

// screen is Screen with tm.mu held.
func (tm *Term) screen() string {
	var b strings.Builder
	for y := range tm.emu.Height() {
		var line strings.Builder
		for x := range tm.emu.Width() {
			c := tm.emu.CellAt(x, y)
			switch {
			case c == nil:
				line.WriteByte(' ')
			case c.Width == 0:
			case c.Content == "":
				line.WriteByte(' ')
			default:
				line.WriteString(c.Content)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// BytesSeen is how many bytes the server has written so far.
func (tm *Term) BytesSeen() int {
	tm.raw.Lock()
	defer tm.raw.Unlock()
	return tm.raw.Len()
}

// RawSince is what the server wrote after the first n bytes.
func (tm *Term) RawSince(n int) string {
	tm.raw.Lock()
	defer tm.raw.Unlock()
	return tm.raw.String()[n:]
}

// Stderr is what an SSH session wrote on its stderr ("" for a tab).
func (tm *Term) Stderr() string {
	tm.raw.Lock()
	defer tm.raw.Unlock()
	return tm.errOut.String()
}

// WaitFor waits until the screen shows every one of want, and returns it.
func (tm *Term) WaitFor(want ...string) string {
	tm.t.Helper()
	return tm.WaitUntil(strings.Join(want, " and "), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// WaitUntil waits until ok holds of the screen: of the screen as it is,
// or of any the server draws after, however briefly it stands (a note
// the next frame replaces); it returns that screen.
func (tm *Term) WaitUntil(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	s, got := tm.await(ok)
	switch {
	case got == awaitShown:
		return s
	case got == awaitEnded && ok(s):
		return s
	case got == awaitEnded:
		tm.t.Fatalf("the session ended (%v %q) before the screen showed %s; stderr %q; screen:\n%s", tm.end.err, tm.end.said, what, tm.Stderr(), s)
	default:
		tm.t.Fatalf("the screen never showed %s:\n%s", what, s)
	}
	return ""
}

// EndOr waits until the session ends or ok holds of a screen drawn (as
// WaitUntil sees them), whichever comes first; ended tells which. A test
// that wants a session refused fails at once on the screen of one let in,
// rather than at the end of Hang.
func (tm *Term) EndOr(ok func(screen string) bool) (screen string, ended bool) {
	tm.t.Helper()
	s, got := tm.await(ok)
	if got == awaitHung {
		tm.t.Fatalf("the session neither ended nor showed what was asked; screen:\n%s", s)
	}
	return s, got == awaitEnded
}

// awaited is how an await ended.
type awaited int

const (
	awaitShown awaited = iota // a screen passed the check
	awaitEnded                // the session ended first
	awaitHung                 // neither, within Hang
)

// await waits until ok holds of the screen as it is or of one drawn after
// (that screen, awaitShown), the session ends (the last screen,
// awaitEnded: a screen that passed as it ended still counts as shown)
// or Hang passes (the screen, awaitHung).
func (tm *Term) await(ok func(screen string) bool) (string, awaited) {
	w := &waiting{ok: ok, hit: make(chan string, 1)}
	tm.mu.Lock()
	if s := tm.screen(); ok(s) {
		tm.mu.Unlock()
		return s, awaitShown
	}
	tm.waits = append(tm.waits, w)
	tm.mu.Unlock()
	defer tm.unwait(w)
	deadline := time.NewTimer(Hang)
	defer deadline.Stop()
	select {
	case s := <-w.hit:
		return s, awaitShown
	case <-tm.ended:
		select {
		case s := <-w.hit:
			return s, awaitShown
		default:
		}
		return tm.Screen(), awaitEnded
	case <-deadline.C:
		return tm.Screen(), awaitHung
	}
}

// unwait takes w off the waits.
func (tm *Term) unwait(w *waiting) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if i := slices.Index(tm.waits, w); i >= 0 {
		tm.waits = slices.Delete(tm.waits, i, i+1)
	}
}

// wait waits for the session to end.
func (tm *Term) wait() ending {
	tm.t.Helper()
	select {
	case <-tm.ended:
	case <-time.After(Hang):
		tm.t.Fatalf("the session did not end; screen:\n%s", tm.Screen())
	}
	return tm.end
}

// WaitEnd waits for an SSH session to end and returns its exit status; a
// tab's is 0 when its close frame is normal, 1 otherwise.
func (tm *Term) WaitEnd() int {
	tm.t.Helper()
	e := tm.wait()
	if e.err != nil {
		tm.t.Fatalf("session: %v", e.err)
	}
	return e.status
}

// Said waits for the session to end and returns the line it ended with:
// an SSH session's stderr, a tab's close frame's reason.
func (tm *Term) Said() string {
	tm.t.Helper()
	e := tm.wait()
	if e.said == "" {
		return tm.Stderr()
	}
	return e.said
}

// Send types keys (raw bytes, as a terminal sends them).
func (tm *Term) Send(keys string) {
	tm.t.Helper()
	if err := tm.p.send(keys); err != nil {
		tm.t.Fatalf("typing %q: %v", keys, err)
	}
}

// Resize changes the terminal's size, on the emulator and for the server
// (an SSH window change, a tab's size frame).
func (tm *Term) Resize(w, h int) error {
	tm.mu.Lock()
	tm.emu.Resize(w, h)
	tm.mu.Unlock()
	return tm.p.resize(w, h)
}

// Goroutines are the stacks of every goroutine of the process but a
// test's own: the test runner's, and the terminals' (whose emulator's
// answers are copied by a goroutine that only ends with the process). A
// leak test counts them before and after.
func Goroutines() []string {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var keep []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "testing.(*T).Run") && !strings.Contains(g, "testing.tRunner") &&
			!strings.Contains(g, "testing.(*M)") && !strings.Contains(g, "termtest.(*Term).answer") {
			keep = append(keep, g)
		}
	}
	return keep
}

// WaitGoroutines waits until no more goroutines run than before did
// (Goroutines), collecting garbage as it goes; past Hang it fails t with
// the stacks left.
func WaitGoroutines(t testing.TB, before int) {
	t.Helper()
	deadline := time.Now().Add(Hang)
	for {
		runtime.GC()
		now := Goroutines()
		if len(now) <= before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines before, %d after:\n%s", before, len(now), strings.Join(now, "\n\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
