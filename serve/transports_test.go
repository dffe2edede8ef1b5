package serve

import (
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/serve/sshtest"
	"locksim/serve/webtest"
)

// client is one session's terminal as a test drives it, over either
// transport.
type client struct {
	Send      func(keys string)
	WaitFor   func(want ...string) string
	WaitUntil func(what string, ok func(string) bool) string
	Resize    func(w, h int)
	// Said waits for the session's end and returns the line it ended
	// with ("" for none)
	Said func() string
}

// transport opens clients of one kind on a server with both fronts.
type transport struct {
	name string
	// open opens a new student's session at the course, or at a story
	// code's place when code is not ""
	open func(t *testing.T, addr, base, user, code string, w, h int) client
}

var transports = []transport{
	{"ssh", func(t *testing.T, addr, _, user, code string, w, h int) client {
		c := sshtest.Dial(t, addr, user, sshtest.NewKey(t))
		cmd := ""
		if code != "" {
			cmd = "story " + code
		}
		tm := sshtest.OpenCmd(t, c, "xterm-256color", w, h, nil, cmd)
		return client{Send: tm.Send, WaitFor: tm.WaitFor, WaitUntil: tm.WaitUntil,
			Resize: func(w, h int) {
				if err := tm.Resize(w, h); err != nil {
					t.Fatal(err)
				}
			},
			Said: func() string { tm.WaitEnd(); return tm.Stderr() }}
	}},
	{"web", func(t *testing.T, _, base, _, code string, w, h int) client {
		route := "/ws/"
		if code != "" {
			route = "/ws/s/" + code
		}
		tm := webtest.NewBrowser(t).Open(t, base, route, w, h)
		return client{Send: tm.Send, WaitFor: tm.WaitFor, WaitUntil: tm.WaitUntil, Resize: tm.Resize,
			Said: func() string { _, reason := tm.WaitEnd(); return reason }}
	}},
}

// TestBothTransports runs one suite against an SSH session and a browser
// tab alike: the race played to its one OK with the name asked first, a
// resize laid out again, a story code opened at its place, and a fault
// that ends its own session only, with its line.
func TestBothTransports(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s, addr, base := webServer(t, Config{AskName: true})
			s.faults = func(at string, ses *Session) bool { return at == "key" && ses.Name == "boom" }

			c := tr.open(t, addr, base, "student", "", 100, 30)
			c.WaitFor("Your name, as the class will see it")
			c.Send("Ada\r")
			c.WaitFor("1  race")
			c.Send("\r")
			c.WaitFor("1-3 your prediction")
			c.Send("2")
			screen := c.WaitFor("OK · holder")
			if n := strings.Count(screen, "OK · holder"); n != 1 {
				t.Fatalf("%d holders:\n%s", n, screen)
			}
			seed := seedOn(t, screen)
			c.Resize(120, 40)
			c.WaitUntil("the title line 120 wide", func(s string) bool {
				first, _, _ := strings.Cut(s, "\n")
				return strings.HasSuffix(first, "seed "+seed) && utf8.RuneCountInString(first) == 120
			})

			code, _ := fencingCode(t)
			story := tr.open(t, addr, base, "visitor", code, 200, 30)
			story.WaitFor("Your name")
			story.Send("\x1b") // esc: no name
			story.WaitFor("fencing", "seed 7", " 3/10 ")

			boom := tr.open(t, addr, base, "boom", "", 80, 24)
			boom.WaitFor("Your name")
			boom.Send("boom\r")
			boom.WaitFor("1  race")
			boom.Send("\x1b[B")
			if said := boom.Said(); !strings.Contains(said, "this session hit a fault in locksim and was closed") {
				t.Fatalf("the faulty session ended saying %q", said)
			}
			// the first session went on: it still takes keys, and ends
			// with no line
			c.Send("1") // selects w1's line
			c.WaitFor("▸+0.000s   w1>")
			c.Send("q")
			if said := c.Said(); said != "" {
				t.Fatalf("q ended the first session saying %q", said)
			}
		})
	}
}
