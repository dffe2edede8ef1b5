// Package webtest is the browser tab the web front's tests drive a server
// with, beside sshtest's SSH client: a WebSocket (binary frames for the
// terminal's bytes, text frames for its size, as the page sends them)
// whose output goes through the same vt emulator, whose answers go back
// as the terminal's input. It is for tests only.
package webtest

import (
	"context"
	"errors"
	"image/color"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/serve/sshtest"

	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"
)

// Hang bounds every wait, as sshtest.Hang does.
const Hang = sshtest.Hang

// Browser is one browser: its cookies, kept across the tabs it opens.
type Browser struct {
	Client *http.Client
}

// NewBrowser is a browser with no cookie yet.
func NewBrowser(t testing.TB) *Browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &Browser{Client: &http.Client{Jar: jar, Timeout: Hang}}
}

// Term is one tab's terminal.
type Term struct {
	t     testing.TB
	conn  *websocket.Conn
	ctx   context.Context
	emu   *vt.Emulator
	mu    sync.Mutex // guards emu
	wrote chan struct{}
	ended chan struct{}
	err   error // how the connection ended, once ended is closed
}

// Dial opens the WebSocket of route (/ws/…) on base (http://host:port) as
// a page of origin would ("" sends no Origin header), and returns the
// connection or the error the server's answer made.
func (b *Browser) Dial(base, route, origin string) (*websocket.Conn, *http.Response, error) {
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Hang)
	defer cancel()
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+route, &websocket.DialOptions{HTTPClient: b.Client, HTTPHeader: h})
}

// Open opens route as the page at base would, at w×h, with the page's own
// origin; it fails t if the upgrade is refused.
func (b *Browser) Open(t testing.TB, base, route string, w, h int) *Term {
	t.Helper()
	conn, _, err := b.Dial(base, route, base)
	if err != nil {
		t.Fatalf("opening %s: %v", route, err)
	}
	conn.SetReadLimit(-1)
	tm := &Term{t: t, conn: conn, ctx: context.Background(), emu: vt.NewEmulator(w, h),
		wrote: make(chan struct{}, 1), ended: make(chan struct{})}
	tm.emu.SetBackgroundColor(color.RGBA{0, 0, 0, 255})
	tm.resize(w, h)
	// the emulator's answers go back as the terminal's input
	go func() {
		buf := make([]byte, 1024)
		for {
			n, err := tm.emu.Read(buf)
			if n > 0 {
				_ = conn.Write(tm.ctx, websocket.MessageBinary, buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer close(tm.ended)
		for {
			typ, data, err := conn.Read(tm.ctx)
			if err != nil {
				// the emulator stays open, as sshtest's does: closing it
				// races with its answers' reader
				tm.err = err
				return
			}
			if typ != websocket.MessageBinary {
				continue
			}
			tm.mu.Lock()
			_, _ = tm.emu.Write(data)
			tm.mu.Unlock()
			select {
			case tm.wrote <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() { _ = conn.CloseNow() })
	return tm
}

func (tm *Term) resize(w, h int) {
	msg := `{"cols":` + itoa(w) + `,"rows":` + itoa(h) + `}`
	if err := tm.conn.Write(tm.ctx, websocket.MessageText, []byte(msg)); err != nil {
		tm.t.Fatalf("resize: %v", err)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// Resize changes the tab's size, on the emulator and for the server.
func (tm *Term) Resize(w, h int) {
	tm.mu.Lock()
	tm.emu.Resize(w, h)
	tm.mu.Unlock()
	tm.resize(w, h)
}

// Send types keys (raw bytes, as xterm.js sends them).
func (tm *Term) Send(keys string) {
	tm.t.Helper()
	if err := tm.conn.Write(tm.ctx, websocket.MessageBinary, []byte(keys)); err != nil {
		tm.t.Fatalf("typing %q: %v", keys, err)
	}
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
			tm.t.Fatalf("the tab was closed (%v) before the screen showed %s; screen:\n%s", tm.err, what, s)
		case <-deadline.C:
			tm.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
	}
}

// WaitEnd waits for the server to close the tab and returns the close
// frame's status and reason.
func (tm *Term) WaitEnd() (websocket.StatusCode, string) {
	tm.t.Helper()
	select {
	case <-tm.ended:
	case <-time.After(Hang):
		tm.t.Fatalf("the tab was not closed; screen:\n%s", tm.Screen())
	}
	var ce websocket.CloseError
	if errors.As(tm.err, &ce) {
		return ce.Code, ce.Reason
	}
	return -1, tm.err.Error()
}

// SetID gives the browser the id cookie v for base, as if the server had
// set it: a benchmark seeds that student's place first.
func (b *Browser) SetID(t testing.TB, base, name, v string) {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	b.Client.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: v, Path: "/"}})
}

// Light is a tab for benchmarks: no emulator; it looks for text in the
// bytes the server sends.
type Light struct {
	conn *websocket.Conn
	mu   sync.Mutex
	buf  []byte // what came since the last mark
	seen chan struct{}
	n    int // bytes in all
}

// OpenLight opens route at w×h as a light tab.
func (b *Browser) OpenLight(tb testing.TB, base, route string, w, h int) *Light {
	tb.Helper()
	conn, _, err := b.Dial(base, route, base)
	if err != nil {
		tb.Fatalf("opening %s: %v", route, err)
	}
	conn.SetReadLimit(-1)
	tb.Cleanup(func() { _ = conn.CloseNow() })
	if err := conn.Write(context.Background(), websocket.MessageText, []byte(`{"cols":`+itoa(w)+`,"rows":`+itoa(h)+`}`)); err != nil {
		tb.Fatal(err)
	}
	lt := &Light{conn: conn, seen: make(chan struct{}, 1)}
	go func() {
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			lt.mu.Lock()
			lt.buf = append(lt.buf, data...)
			lt.n += len(data)
			lt.mu.Unlock()
			select {
			case lt.seen <- struct{}{}:
			default:
			}
		}
	}()
	return lt
}

// Send types keys.
func (lt *Light) Send(keys string) error {
	return lt.conn.Write(context.Background(), websocket.MessageBinary, []byte(keys))
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
		ok := strings.Contains(string(lt.buf), text)
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
