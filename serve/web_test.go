package serve

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"locksim/serve/termtest"
	"locksim/sim/simtest"
	"locksim/web"

	"github.com/coder/websocket"
)

// webServer starts cfg's server with a web front on a free loopback port
// beside its SSH one, and returns the server, its SSH address and the web
// front's base URL (http://127.0.0.1:PORT).
func webServer(t *testing.T, cfg Config) (*Server, string, string) {
	t.Helper()
	s, addr := testServer(t, cfg)
	return s, addr, serveWeb(t, s)
}

// serveWeb serves s's web front on a free loopback port until the test
// ends, and returns its base URL.
func serveWeb(t testing.TB, s *Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.ServeWeb(l, "", "") }()
	t.Cleanup(func() {
		// the SSH server's stop (registered first) runs last; the web
		// front's listener closes with it
		l.Close()
		if err := <-served; err != nil && !strings.Contains(err.Error(), "use of closed") {
			t.Errorf("ServeWeb: %v", err)
		}
	})
	return "http://" + l.Addr().String()
}

// TestCourseOverWeb plays the race in a browser tab: the page with its
// security policy and its id cookie, the name asked once per browser, the
// race's prediction and its one OK, a resize laid out again; then the same
// browser comes back, not asked its name again.
func TestCourseOverWeb(t *testing.T) {
	t.Parallel()
	_, _, base := webServer(t, Config{AskName: true})
	br := termtest.NewBrowser(t)
	resp, err := br.Client.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get("Content-Security-Policy"); got != web.CSP {
		t.Errorf("Content-Security-Policy %q, want %q", got, web.CSP)
	}
	if !strings.Contains(string(body), `<script src="/static/app.js"></script>`) {
		t.Errorf("the page loads no app.js:\n%s", body)
	}
	cookie := resp.Header.Get("Set-Cookie")
	for _, want := range []string{cookieName + "=", "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("the id cookie %q lacks %s", cookie, want)
		}
	}
	if strings.Contains(cookie, "Secure") {
		t.Errorf("the id cookie is Secure over plain HTTP: %q", cookie)
	}
	for _, asset := range []string{"/static/vendor/xterm/xterm.js", "/static/vendor/addon-fit/addon-fit.js", "/static/app.js", "/static/vendor/xterm/LICENSE"} {
		r, err := http.Get(base + asset)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", asset, r.Status)
		}
	}

	tm := br.Open(t, base, "/ws/", 100, 30)
	tm.WaitFor("Your name, as the class will see it")
	tm.Send("Ada\r")
	tm.WaitFor("the course: Redis distributed locks", "1  race")
	tm.Send("\r")
	tm.WaitFor("1-3 your prediction")
	tm.Send("2")
	s := tm.WaitFor("OK · holder")
	if n := strings.Count(s, "OK · holder"); n != 1 {
		t.Fatalf("%d holders on the race's screen:\n%s", n, s)
	}
	seed := seedOn(t, s)
	tm.Resize(120, 40)
	tm.WaitUntil("the title line 120 wide", func(s string) bool {
		first, _, _ := strings.Cut(s, "\n")
		return strings.HasSuffix(first, "seed "+seed) && utf8.RuneCountInString(first) == 120
	})
	tm.Send("q")
	if code, reason := tm.WaitClose(); code != websocket.StatusNormalClosure {
		t.Fatalf("q closed the tab with %v %q", code, reason)
	}

	// the same browser (its cookie) is the same student: its place, and no
	// name asked
	back := br.Open(t, base, "/ws/", 100, 30)
	s = back.WaitFor("OK · holder", "seed "+seed)
	if strings.Contains(s, "Your name") {
		t.Fatalf("the name was asked again:\n%s", s)
	}
	// another browser is another student
	other := termtest.NewBrowser(t).Open(t, base, "/ws/", 100, 30)
	other.WaitFor("Your name, as the class will see it")
}

// TestWebStoryCode: /s/CODE opens the course at the code's place, and y
// there shows the code's link.
func TestWebStoryCode(t *testing.T) {
	t.Parallel()
	_, _, base := webServer(t, Config{PublicURL: "https://class.example.org/"})
	code, _ := fencingCode(t)
	tm := termtest.NewBrowser(t).Open(t, base, "/ws/s/"+code, 200, 30)
	tm.WaitFor("fencing", "seed 7", " 3/? ")
	tm.Send("y")
	tm.WaitFor("https://class.example.org/s/" + code)

	bad := termtest.NewBrowser(t).Open(t, base, "/ws/s/fencing.zzzz", 80, 24)
	bad.WaitFor("locksim: story code: ")
	if code, _ := bad.WaitClose(); code != websocket.StatusPolicyViolation {
		t.Fatalf("a bad code closed the tab with %v", code)
	}
}

// TestWebOrigin: a page of another origin cannot open a session; the
// page's own can.
func TestWebOrigin(t *testing.T) {
	t.Parallel()
	s, _, base := webServer(t, Config{})
	br := termtest.NewBrowser(t)
	conn, resp, err := br.Dial(base, "/ws/", "https://evil.example")
	if err == nil {
		conn.CloseNow()
		t.Fatal("a foreign Origin opened a session")
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a foreign Origin: %v (response %v)", err, resp)
	}
	if n := s.Sessions(); n != 0 {
		t.Fatalf("%d sessions after a refused upgrade", n)
	}
	br.Open(t, base, "/ws/", 80, 24).WaitFor("1  race")
}

// TestWebFault: a panic in one tab's program ends that tab, with a line,
// and the tab beside it goes on.
func TestWebFault(t *testing.T) {
	t.Parallel()
	s, _, base := webServer(t, Config{AskName: true})
	s.faults = func(at string, ses *Session) bool {
		return at == "key" && ses.Name == "boom"
	}
	other := termtest.NewBrowser(t).Open(t, base, "/ws/", 80, 24)
	other.WaitFor("Your name")
	other.Send("calm\r")
	other.WaitFor("1  race")
	boom := termtest.NewBrowser(t).Open(t, base, "/ws/", 80, 24)
	boom.WaitFor("Your name")
	boom.Send("boom\r")
	boom.WaitFor("1  race")
	boom.Send("\x1b[B")
	boom.WaitFor("this session hit a fault in locksim and was closed")
	if code, _ := boom.WaitClose(); code != websocket.StatusNormalClosure {
		t.Fatalf("the faulty tab was closed with %v", code)
	}
	other.Send("\r")
	other.WaitFor("1-3 your prediction")
	other.Send("2")
	other.WaitFor("OK · holder")
	if log := s.cfg.Log.Writer().(*testLog).String(); !strings.Contains(log, "ended by a panic") {
		t.Fatalf("no log line of the panic:\n%s", log)
	}
}

// TestWebLimits: tabs and SSH sessions share one budget: with room for
// one session, an SSH session open refuses a tab with the line that
// says so; one browser may have SessionsPerKey tabs.
func TestWebLimits(t *testing.T) {
	t.Parallel()
	_, addr, base := webServer(t, Config{MaxSessions: 1})
	ssh := termtest.Open(t, termtest.Dial(t, addr, "student", termtest.NewKey(t)), "xterm", 80, 24)
	ssh.WaitFor("1  race")
	tab := termtest.NewBrowser(t).Open(t, base, "/ws/", 80, 24)
	tab.WaitFor("locksim: the server is full (1 sessions at once)")
	if code, _ := tab.WaitClose(); code != websocket.StatusPolicyViolation {
		t.Fatalf("a tab past the limit was closed with %v", code)
	}
	ssh.Send("q")
	ssh.WaitEnd()

	_, _, base = webServer(t, Config{SessionsPerKey: 1})
	br := termtest.NewBrowser(t)
	br.Open(t, base, "/ws/", 80, 24).WaitFor("1  race")
	second := br.Open(t, base, "/ws/", 80, 24)
	second.WaitFor("a browser may have 1 sessions open at once")
	termtest.NewBrowser(t).Open(t, base, "/ws/", 80, 24).WaitFor("1  race")
}

// TestWebIdle: an idle tab is warned and closed as an idle SSH session
// is, the line on its terminal and as the close frame's reason.
func TestWebIdle(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	_, _, base := webServer(t, Config{Clock: clock, Idle: 10 * time.Minute, MaxTime: -1})
	tm := termtest.NewBrowser(t).Open(t, base, "/ws/", 80, 24)
	tm.WaitFor("1  race")
	clock.Advance(9*time.Minute - time.Second)
	clock.Advance(time.Second)
	tm.WaitFor("this session closes in 1 min unless a key is pressed")
	clock.Advance(time.Minute)
	tm.WaitFor("locksim: closed after 10 min without a key")
	if code, reason := tm.WaitClose(); code != websocket.StatusNormalClosure || !strings.Contains(reason, "closed after 10 min without a key") {
		t.Fatalf("the idle close: %v %q", code, reason)
	}
}

// TestWebTLSAndProxy: under TLS the id cookie is Secure; the client's
// address is the connection's unless -trust-proxy, which takes the last
// X-Forwarded-For entry (the one the proxy added), never a forged first.
func TestWebTLSAndProxy(t *testing.T) {
	t.Parallel()
	s, _ := testServer(t, Config{})
	hs := httptest.NewTLSServer(s.WebHandler())
	defer hs.Close()
	resp, err := hs.Client().Get(hs.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if c := resp.Header.Get("Set-Cookie"); !strings.Contains(c, "; Secure") {
		t.Errorf("the id cookie over TLS: %q", c)
	}

	r := httptest.NewRequest("GET", "/ws/", nil)
	r.RemoteAddr = "10.0.0.9:5555"
	r.Header.Set("X-Forwarded-For", "6.6.6.6, 192.0.2.7")
	if got := s.remoteOf(r); got != "10.0.0.9" {
		t.Errorf("without -trust-proxy the address is %q", got)
	}
	s.cfg.Web.TrustProxy = true
	if got := s.remoteOf(r); got != "192.0.2.7" {
		t.Errorf("with -trust-proxy the address is %q", got)
	}
}

// TestWebNoLeaks opens and closes 30 tabs, ten at a time, one in ten
// playing the race: once they have ended, with the server still up, no
// goroutine they started is left and no slot is counted.
func TestWebNoLeaks(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	s, _, base := webServer(t, Config{})
	before := len(termtest.Goroutines())
	const tabs, together = 30, 10
	for batch := 0; batch < tabs/together; batch++ {
		t.Run(fmt.Sprintf("batch %d", batch), func(t *testing.T) {
			for i := range together {
				t.Run(fmt.Sprintf("tab%d", batch*together+i), func(t *testing.T) {
					t.Parallel()
					tm := termtest.NewBrowser(t).Open(t, base, "/ws/", 80, 24)
					tm.WaitFor("1  race")
					if i == 0 {
						tm.Send("\r")
						tm.WaitFor("1-3 your prediction")
						tm.Send("2")
						tm.WaitFor("holders 1")
					}
					tm.Send("q")
					if code, reason := tm.WaitClose(); code != websocket.StatusNormalClosure {
						t.Fatalf("a tab was closed with %v %q", code, reason)
					}
				})
			}
		})
		if t.Failed() {
			t.FailNow()
		}
	}
	deadline := time.Now().Add(hang)
	for s.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still counted after all ended", s.Sessions())
		}
		time.Sleep(20 * time.Millisecond)
	}
	termtest.WaitGoroutines(t, before)
}

// TestWebStoryPointer: a story code kept on the server's shelf opens by
// its short pointer at /s/, as it does in an SSH command.
func TestWebStoryPointer(t *testing.T) {
	t.Parallel()
	s, _, base := webServer(t, Config{})
	code, _ := fencingCode(t)
	ptr := s.stories.Put(code)
	if ptr == code {
		t.Fatalf("the shelf gave the code back as its pointer: %q", ptr)
	}
	tm := termtest.NewBrowser(t).Open(t, base, "/ws/s/"+ptr, 200, 30)
	tm.WaitFor("fencing", "seed 7", " 3/? ")
}
