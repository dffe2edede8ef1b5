package termtest

import (
	"bytes"
	"errors"
	"io"
	"net"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// NewKey is a fresh client key: ed25519, or P-256 under the race
// detector (see keyExchanges).
func NewKey(t testing.TB) gossh.Signer {
	t.Helper()
	priv, err := newPrivateKey()
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
	c, err := DialFrom("", addr, user, key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// DialFrom is Dial from the source address from (a loopback address:
// 127.0.0.N; "" for any) with the error returned, for a test that
// expects a refusal.
func DialFrom(from, addr, user string, key gossh.Signer) (*gossh.Client, error) {
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	conn, err := dialer(from).Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: Hang, Config: gossh.Config{KeyExchanges: keyExchanges}})
	if err != nil {
		conn.Close()
		return nil, err
	}
	return gossh.NewClient(c, chans, reqs), nil
}

// dialer dials from the source address from ("" for any).
func dialer(from string) *net.Dialer {
	d := &net.Dialer{Timeout: Hang}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	return d
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

// sshPipe is a terminal's SSH session.
type sshPipe struct {
	sess *gossh.Session
	in   io.WriteCloser
}

func (p *sshPipe) send(keys string) error { _, err := io.WriteString(p.in, keys); return err }
func (p *sshPipe) resize(w, h int) error  { return p.sess.WindowChange(h, w) }

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
	p := &sshPipe{sess: s}
	tm := newTerm(t, p, w, h)
	if err := s.RequestPty(termType, h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if p.in, err = s.StdinPipe(); err != nil {
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
	go tm.answer(p.in)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				tm.screenWrite(buf[:n])
			}
			if err != nil {
				break
			}
		}
		err := s.Wait()
		var exit *gossh.ExitError
		switch {
		case err == nil:
		case errors.As(err, &exit):
			tm.end.status = exit.ExitStatus()
		default:
			tm.end.err = err
		}
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
