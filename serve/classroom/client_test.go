// The SSH client these tests drive the server with: the same as the
// serve package's own tests use (a pty, and a vt emulator that answers
// the terminal's queries as a real one would).
package classroom

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"image/color"
	"io"
	"log"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/serve"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// hang bounds every wait of these tests: a guard against a hang, never
// a timing the test depends on.
const hang = 30 * time.Second

// testServer starts a server on a free loopback port with cfg (its host key
// in a temporary directory) and closes it at the end of the test.
func testServer(t testing.TB, cfg serve.Config) (*serve.Server, string) {
	t.Helper()
	if cfg.HostKey == "" {
		cfg.HostKey = filepath.Join(t.TempDir(), "host_ed25519")
	}
	if cfg.Log == nil {
		cfg.Log = log.New(&testLog{t: t}, "", 0)
	}
	s, err := serve.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := serve.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), hang)
		defer cancel()
		_ = s.Close(ctx)
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s, l.Addr().String()
}

// testLog sends the server's lines to the test's log while it runs.
type testLog struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
	buf  bytes.Buffer
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	return len(p), nil
}

func (l *testLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// newKey is a fresh ed25519 client key.
func newKey(t testing.TB) gossh.Signer {
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

// dial connects as user with key, or keyless (keyboard-interactive with no
// question answered) when key is nil.
func dial(t testing.TB, addr, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: hang})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// run runs cmd without a terminal and returns its stdout, stderr and exit
// status.
func run(t testing.TB, c *gossh.Client, cmd string) (string, string, int) {
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

// term is a terminal on an SSH session: what the server writes goes
// through a vt emulator, which answers the terminal's queries (background
// colour, device attributes) as a real one would.
type term struct {
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

// openTerm asks for a pty of w×h with the terminal type termType and
// starts a shell (the course) on it.
func openTerm(t testing.TB, c *gossh.Client, termType string, w, h int) *term {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, sess: s, emu: vt.NewEmulator(w, h), w: w, h: h,
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
	if err := s.Shell(); err != nil {
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

// screen is the text on the emulator's screen, one line per row, trailing
// spaces dropped.
func (tm *term) screen() string {
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

// bytesSeen is how many bytes the server has written so far.
func (tm *term) bytesSeen() int {
	tm.raw.Lock()
	defer tm.raw.Unlock()
	return tm.raw.Len()
}

// rawSince is what the server wrote after the first n bytes.
func (tm *term) rawSince(n int) string {
	tm.raw.Lock()
	defer tm.raw.Unlock()
	return tm.raw.String()[n:]
}

// stderr is what the session wrote on its stderr.
func (tm *term) stderr() string {
	tm.raw.Lock()
	defer tm.raw.Unlock()
	return tm.errOut.String()
}

// waitFor waits until the screen shows every one of want, and returns it.
func (tm *term) waitFor(want ...string) string {
	tm.t.Helper()
	return tm.waitUntil(strings.Join(want, " and "), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// waitUntil waits until ok holds of the screen.
func (tm *term) waitUntil(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	deadline := time.NewTimer(hang)
	defer deadline.Stop()
	for {
		s := tm.screen()
		if ok(s) {
			return s
		}
		select {
		case <-tm.wrote:
		case <-tm.ended:
			s := tm.screen()
			if ok(s) {
				return s
			}
			tm.t.Fatalf("the session ended (%v) before the screen showed %s; stderr %q; screen:\n%s", tm.err, what, tm.stderr(), s)
		case <-deadline.C:
			tm.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
	}
}

// waitEnd waits for the session to end and returns its exit status.
func (tm *term) waitEnd() int {
	tm.t.Helper()
	select {
	case <-tm.ended:
	case <-time.After(hang):
		tm.t.Fatalf("the session did not end; screen:\n%s", tm.screen())
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

// send types keys (raw bytes, as a terminal sends them).
func (tm *term) send(keys string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, keys); err != nil {
		tm.t.Fatalf("typing %q: %v", keys, err)
	}
}

var _ net.Addr
