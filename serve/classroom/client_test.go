// The SSH client these tests drive the server with: the same as the
// serve package's own tests use (a pty, and a vt emulator that answers
// the terminal's queries as a real one would).
package classroom

import (
	"bytes"
	"log"
	"net"
	"path/filepath"
	"sync"
	"testing"

	"locksim/serve"
	"locksim/serve/termtest"
)

// hang bounds every wait of these tests (see termtest.Hang).
const hang = termtest.Hang

// testServer starts a server on a free loopback port with cfg (its host key
// in a temporary directory) and closes it at the end of the test.
func testServer(t testing.TB, cfg serve.Config) (*serve.Server, string) {
	t.Helper()
	if cfg.HostKey == "" {
		cfg.HostKey = filepath.Join(t.TempDir(), "host_key")
		termtest.WriteHostKey(t, cfg.HostKey) // P-256 under the race detector
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
	t.Cleanup(termtest.Serve(t, s, l))
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

// serveWebOf serves s's web front on a free loopback port until the test
// ends (the SSH server's stop closes it), and returns its base URL.
func serveWebOf(t *testing.T, s *serve.Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.ServeWeb(l, "", "") }()
	t.Cleanup(func() { l.Close() })
	return "http://" + l.Addr().String()
}
