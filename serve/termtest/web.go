package termtest

import (
	"context"
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// Browser is one browser: its cookies, kept across the tabs it opens.
type Browser struct {
	Client *http.Client
	// from is the source address it connects from, "" for any
	from string
}

// NewBrowser is a browser with no cookie yet.
func NewBrowser(t testing.TB) *Browser {
	return NewBrowserFrom(t, "")
}

// NewBrowserFrom is a browser with no cookie yet that connects from the
// source address from (a loopback address: 127.0.0.N; "" for any).
func NewBrowserFrom(t testing.TB, from string) *Browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = dialer(from).DialContext
	t.Cleanup(tr.CloseIdleConnections)
	return &Browser{Client: &http.Client{Jar: jar, Timeout: Hang, Transport: tr}, from: from}
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

// wsPipe is a tab's WebSocket.
type wsPipe struct {
	conn *websocket.Conn
}

func (p wsPipe) send(keys string) error {
	return p.conn.Write(context.Background(), websocket.MessageBinary, []byte(keys))
}

func (p wsPipe) resize(w, h int) error {
	return p.conn.Write(context.Background(), websocket.MessageText, sizeFrame(w, h))
}

// Write sends p as keys, for the emulator's answers.
func (p wsPipe) Write(b []byte) (int, error) {
	if err := p.send(string(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// sizeFrame is the text frame the page sends for a size.
func sizeFrame(w, h int) []byte {
	return []byte(`{"cols":` + strconv.Itoa(w) + `,"rows":` + strconv.Itoa(h) + `}`)
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
	p := wsPipe{conn}
	tm := newTerm(t, p, w, h)
	if err := p.resize(w, h); err != nil {
		t.Fatalf("resize: %v", err)
	}
	// the emulator's answers go back as the terminal's input; the
	// emulator stays open, as an SSH terminal's does: closing it races
	// with its answers' reader
	go tm.answer(p)
	go func() {
		defer close(tm.ended)
		for {
			typ, data, err := conn.Read(context.Background())
			if err != nil {
				var ce websocket.CloseError
				if errors.As(err, &ce) {
					tm.end.close, tm.end.said = int(ce.Code), ce.Reason
					if ce.Code != websocket.StatusNormalClosure {
						tm.end.status = 1
					}
				} else {
					tm.end.close, tm.end.err = -1, err
				}
				return
			}
			if typ == websocket.MessageBinary {
				tm.screenWrite(data)
			}
		}
	}()
	t.Cleanup(func() { _ = conn.CloseNow() })
	return tm
}

// WaitClose waits for the server to close the tab and returns the close
// frame's status and reason (-1 and the error for a connection that ended
// without one).
func (tm *Term) WaitClose() (websocket.StatusCode, string) {
	tm.t.Helper()
	e := tm.wait()
	if e.err != nil {
		return -1, e.err.Error()
	}
	return websocket.StatusCode(e.close), e.said
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

// Get fetches base+path as the browser, and returns its status, or -1
// when the connection failed.
func (b *Browser) Get(base, path string) int {
	resp, err := b.Client.Get(base + path)
	if err != nil {
		return -1
	}
	resp.Body.Close()
	return resp.StatusCode
}
