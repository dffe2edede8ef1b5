package serve

import (
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// freezer is a TCP proxy to addr for one client whose packets can be
// made to stop without a FIN or a RST: after freeze it reads and writes
// nothing, and closes nothing until the test ends.
type freezer struct {
	addr   string
	frozen chan struct{}
	once   sync.Once
}

func newFreezer(t *testing.T, to string) *freezer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{addr: l.Addr().String(), frozen: make(chan struct{})}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); _ = l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", to)
		if err != nil {
			_ = c.Close()
			return
		}
		go func() { <-done; _ = c.Close(); _ = s.Close() }()
		go f.pipe(s, c)
		go f.pipe(c, s)
	}()
	return f
}

// pipe copies src to dst until frozen, then holds both open.
func (f *freezer) pipe(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-f.frozen:
			return // what came after the freeze is never delivered
		default:
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (f *freezer) freeze() { f.once.Do(func() { close(f.frozen) }) }

// TestSilentDropLeavesTheClass: a student's SSH client whose packets stop
// without a FIN (cut at the test's proxy) misses two keepalives; the
// server closes the session, says why in its log, and the class hears
// the student leave (its seat goes offline at once). It takes two probes
// on the wall clock (probeEvery, a second: the same watch as the default
// 5 s, sooner), so it is in the slow tier.
func TestSilentDropLeavesTheClass(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Parallel() // it waits out the probes, with nothing to do
	tl := &testLog{}
	class := &recordingClass{}
	_, addr := testServer(t, Config{Class: class, Log: log.New(tl, "", 0), ProbeEvery: probeEvery})
	px := newFreezer(t, addr)
	tm := termtest.Open(t, termtest.Dial(t, px.addr, "k7q2", termtest.NewKey(t)), "xterm", 80, 24)
	tm.WaitFor("welcome to class k7q2")
	px.freeze()
	waitLeft(t, class, tl)
	if !strings.Contains(tl.String(), "answered no keepalive for 2 probes: closed") {
		t.Fatalf("the server did not log why it closed the session:\n%s", tl.String())
	}
}

// TestSilentDropLeavesTheClassTab is TestSilentDropLeavesTheClass for a
// browser tab: its packets stop at the proxy, two WebSocket pings go
// unanswered, the session closes and leaves the class.
func TestSilentDropLeavesTheClassTab(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Parallel()
	tl := &testLog{}
	class := &recordingClass{}
	_, _, base := webServer(t, Config{Class: class, Log: log.New(tl, "", 0), ProbeEvery: probeEvery})
	px := newFreezer(t, strings.TrimPrefix(base, "http://"))
	tm := termtest.NewBrowser(t).Open(t, "http://"+px.addr, "/ws/c/k7q2", 80, 24)
	tm.WaitFor("welcome to class k7q2")
	px.freeze()
	waitLeft(t, class, tl)
	if !strings.Contains(tl.String(), "the tab answered no ping for 2 probes: closed") {
		t.Fatalf("the server did not log why it closed the session:\n%s", tl.String())
	}
}

// probeEvery is the silent-drop tests' probe interval: long enough that a
// client on a loaded machine answers within its half, short enough that
// the two missed probes take 2.5 s rather than the default's 12.5 s.
const probeEvery = time.Second

// waitLeft waits until the class heard one session leave: a hang guard
// far past the 2.5 s the probes take, never a timing.
func waitLeft(t *testing.T, class *recordingClass, tl *testLog) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		class.mu.Lock()
		left := len(class.left)
		class.mu.Unlock()
		if left == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the silent client never left the class; the server's log:\n%s", tl.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
