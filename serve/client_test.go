package serve

import (
	"bytes"
	"locksim/serve/termtest"
	"log"
	"path/filepath"
	"sync"
	"testing"
)

// hang bounds every wait of these tests (see termtest.Hang).
const hang = termtest.Hang

// testServer starts a server on a free loopback port with cfg (its host key
// in a temporary directory) and closes it at the end of the test.
func testServer(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	s, addr, stop := startServer(t, cfg)
	t.Cleanup(stop)
	return s, addr
}

// startServer starts a server as testServer does; stop closes it.
func startServer(t testing.TB, cfg Config) (*Server, string, func()) {
	t.Helper()
	if cfg.HostKey == "" {
		cfg.HostKey = filepath.Join(t.TempDir(), "host_key")
		termtest.WriteHostKey(t, cfg.HostKey) // P-256 under the race detector
	}
	if cfg.Log == nil {
		cfg.Log = log.New(&testLog{}, "", 0)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return s, l.Addr().String(), termtest.Serve(t, s, l)
}

// testLog keeps the server's log lines for a test to read.
type testLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
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
