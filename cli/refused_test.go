package cli

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// hangGuard is how long runRefused waits for a refusal when the server
// neither refuses nor says it serves: far past any refusal's time on a
// loaded machine, it only ends a real hang.
const hangGuard = 5 * time.Minute

// startedWriter is stderr that tells (started) when the server says it
// serves ("…; ctrl+c stops"), which a refused start never writes.
type startedWriter struct {
	mu      sync.Mutex
	b       bytes.Buffer
	started chan struct{}
	once    sync.Once
}

func (w *startedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.b.Write(p)
	if strings.Contains(w.b.String(), "ctrl+c stops") {
		w.once.Do(func() { close(w.started) })
	}
	return n, err
}

func (w *startedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// runRefused is runMain for arguments a server must refuse at start: it
// fails the test at once, with what the server wrote, when the server
// starts serving instead (it serves until the process ends, so waiting
// for it to return hung the test), and after hangGuard with neither.
func runRefused(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	out := &startedWriter{started: make(chan struct{})} // stdout: never "ctrl+c stops"
	errw := &startedWriter{started: make(chan struct{})}
	done := make(chan int, 1)
	go func() { done <- Main(args, os.Stdin, out, errw) }()
	select {
	case code = <-done:
		return code, out.String(), errw.String()
	case <-errw.started:
		t.Fatalf("%v: the server started serving instead of refusing: stderr %q", args, errw.String())
	case <-time.After(hangGuard):
		t.Fatalf("%v: neither refused nor served in %v: stdout %q, stderr %q", args, hangGuard, out.String(), errw.String())
	}
	return 0, "", ""
}
