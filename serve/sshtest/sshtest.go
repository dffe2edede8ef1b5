// Package sshtest is the SSH client the classroom's tests drive a server
// with: keys, connections, commands run without a terminal, and terminals
// with a pty whose output goes through a vt emulator that answers the
// terminal's queries (background colour, device attributes) as a real one
// would, or wish v1.4.7 waits a second or two for each session. It is for
// tests only.
package sshtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"image/color"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// Hang bounds every wait: a guard against a hang, never a timing a test
// depends on.
const Hang = 30 * time.Second

// Server is an SSH server a test runs: locksim's serve.Server, named by
// what Serve needs (sshtest cannot import serve, whose tests import it).
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

// NewKey is a fresh ed25519 client key.
func NewKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Dial connects as user with key, or keyless (keyboard-interactive with no
// question answered) when key is nil.
func Dial(t testing.TB, addr, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: Hang})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Run runs cmd without a terminal and returns its stdout, stderr and exit
// status.
func Run(t testing.TB, c *gossh.Client, cmd string) (string, string, int) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr = &out, &errOut
	err = s.Run(cmd)
	code := 0
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	case err != nil:
		t.Fatalf("%s: %v", cmd, err)
	}
	return out.String(), errOut.String(), code
}

// Term is a terminal on an SSH session: what the server writes goes
// through a vt emulator, which answers the terminal's queries (background
// colour, device attributes) as a real one would.
type Term struct {
	t     testing.TB
	sess  *gossh.Session
	in    io.WriteCloser
	emu   *vt.Emulator
	mu    sync.Mutex // guards emu: its cells are read while it writes
	w, h  int
	wrote chan struct{} // a signal after each write to the screen
	ended chan struct{} // closed when the session ended
	raw   struct {
		sync.Mutex
		bytes.Buffer
	}
	errOut bytes.Buffer
	err    error // the session's end, once ended is closed
}

// Open asks for a pty of w×h with the terminal type termType and
// starts a shell (the course) on it.
func Open(t testing.TB, c *gossh.Client, termType string, w, h int) *Term {
	t.Helper()
	return OpenEnv(t, c, termType, w, h, nil)
}

// OpenEnv is Open with environment variables sent first.
func OpenEnv(t testing.TB, c *gossh.Client, termType string, w, h int, env map[string]string) *Term {
	t.Helper()
	return OpenCmd(t, c, termType, w, h, env, "")
}

// OpenCmd is OpenEnv running cmd on the terminal (ssh -t HOST cmd)
// in place of a shell when cmd is not "".
func OpenCmd(t testing.TB, c *gossh.Client, termType string, w, h int, env map[string]string, cmd string) *Term {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range env {
		if err := s.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	tm := &Term{t: t, sess: s, emu: vt.NewEmulator(w, h), w: w, h: h,
		wrote: make(chan struct{}, 1), ended: make(chan struct{})}
	tm.emu.SetBackgroundColor(color.RGBA{0, 0, 0, 255})
	if err := s.RequestPty(termType, h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if tm.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.Stderr = &syncWriter{w: &tm.errOut, mu: &tm.raw.Mutex}
	if cmd != "" {
		err = s.Start(cmd)
	} else {
		err = s.Shell()
	}
	if err != nil {
		t.Fatal(err)
	}
	// the emulator's answers to queries go back as the terminal's input
	go func() { _, _ = io.Copy(tm.in, tm.emu) }()
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				tm.raw.Lock()
				tm.raw.Write(buf[:n])
				tm.raw.Unlock()
				tm.mu.Lock()
				_, _ = tm.emu.Write(buf[:n])
				tm.mu.Unlock()
				select {
				case tm.wrote <- struct{}{}:
				default:
				}
			}
			if err != nil {
				break
			}
		}
		tm.err = s.Wait()
		close(tm.ended)
	}()
	t.Cleanup(func() { s.Close() })
	return tm
}

type syncWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// Screen is the text on the emulator's screen, one line per row, trailing
// spaces dropped.
func (tm *Term) Screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
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

// Stderr is what the session wrote on its stderr.
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

// WaitUntil waits until ok holds of the screen.
func (tm *Term) WaitUntil(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.NewTimer(Hang)
	defer deadline.Stop()
	for {
		s := tm.Screen()
		if ok(s) {
			return s
		}
		select {
		case <-tm.wrote:
		case <-tm.ended:
			s := tm.Screen()
			if ok(s) {
				return s
			}
			tm.t.Fatalf("the session ended (%v) before the screen showed %s; stderr %q; screen:\n%s", tm.err, what, tm.Stderr(), s)
		case <-deadline.C:
			tm.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
	}
}

// WaitEnd waits for the session to end and returns its exit status.
func (tm *Term) WaitEnd() int {
	tm.t.Helper()
	select {
	case <-tm.ended:
	case <-time.After(Hang):
		tm.t.Fatalf("the session did not end; screen:\n%s", tm.Screen())
	}
	var exit *gossh.ExitError
	switch {
	case tm.err == nil:
		return 0
	case errors.As(tm.err, &exit):
		return exit.ExitStatus()
	}
	tm.t.Fatalf("session: %v", tm.err)
	return -1
}

// Send types keys (raw bytes, as a terminal sends them).
func (tm *Term) Send(keys string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, keys); err != nil {
		tm.t.Fatalf("typing %q: %v", keys, err)
	}
}

// Resize changes the terminal's size, on the emulator and for the server
// (an SSH window change).
func (tm *Term) Resize(w, h int) error {
	tm.mu.Lock()
	tm.emu.Resize(w, h)
	tm.mu.Unlock()
	return tm.sess.WindowChange(h, w)
}

// Goroutines are the stacks of every goroutine of the process but a
// test's own: the test runner's, and the terminals' (whose emulator's
// answers are copied by a goroutine that only ends with the process; a
// webtest tab's too). A
// leak test counts them before and after.
func Goroutines() []string {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var keep []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "testing.(*T).Run") && !strings.Contains(g, "testing.tRunner") &&
			!strings.Contains(g, "testing.(*M)") && !strings.Contains(g, "sshtest.OpenCmd") &&
			!strings.Contains(g, "webtest.(*Browser).Open") {
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

// Light is a terminal for benchmarks: no emulator, it answers the
// background-colour and device-attribute queries itself and looks for
// text in the bytes the server sends.
type Light struct {
	In   io.Writer
	mu   sync.Mutex
	buf  []byte // what came since the last mark
	seen chan struct{}
	n    int // bytes in all
}

// OpenLight asks for a pty of w×h (xterm-256color) and starts the course
// on it, or cmd on it when cmd is not "" (ssh -t HOST cmd).
func OpenLight(tb testing.TB, c *gossh.Client, w, h int, cmd string) *Light {
	tb.Helper()
	s, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		tb.Fatal(err)
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	if cmd != "" {
		err = s.Start(cmd)
	} else {
		err = s.Shell()
	}
	if err != nil {
		tb.Fatal(err)
	}
	lt := &Light{In: in, seen: make(chan struct{}, 1)}
	go func() {
		p := make([]byte, 32<<10)
		for {
			n, err := out.Read(p)
			if n > 0 {
				chunk := p[:n]
				if bytes.Contains(chunk, []byte("\x1b]11;?")) {
					_, _ = io.WriteString(in, "\x1b]11;rgb:0000/0000/0000\x1b\\")
				}
				if bytes.Contains(chunk, []byte("\x1b[c")) {
					_, _ = io.WriteString(in, "\x1b[?62;c")
				}
				lt.mu.Lock()
				lt.buf = append(lt.buf, chunk...)
				lt.n += n
				lt.mu.Unlock()
				select {
				case lt.seen <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return lt
}

// Mark forgets what came so far.
func (lt *Light) Mark() {
	lt.mu.Lock()
	lt.buf = lt.buf[:0]
	lt.mu.Unlock()
}

// Wait waits until text came since the mark; past Hang it reports the
// miss on tb (tb.Errorf: it may be called from any goroutine) and returns
// false.
func (lt *Light) Wait(tb testing.TB, text string) bool {
	deadline := time.After(Hang)
	for {
		lt.mu.Lock()
		ok := bytes.Contains(lt.buf, []byte(text))
		lt.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-lt.seen:
		case <-deadline:
			tb.Errorf("never saw %q", text)
			return false
		}
	}
}

// Bytes is how many bytes the server has written in all.
func (lt *Light) Bytes() int {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return lt.n
}
