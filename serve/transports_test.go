package serve

import (
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/serve/termtest"
)

// dialers are the server's two transports, as the harness dials them:
// every test of sessions, admission, sizes and classes runs on both.
func dialers(addr, base string) []termtest.Dialer {
	return []termtest.Dialer{termtest.SSH(addr), termtest.Web(base)}
}

// onBoth runs test once per transport, each on a server of its own with
// cfg and both fronts; test is given the server, the transport's dialer
// and the SSH address (for an instructor's key or a command beside).
func onBoth(t *testing.T, cfg Config, test func(t *testing.T, s *Server, d termtest.Dialer, addr string)) {
	for _, name := range []string{"ssh", "web"} {
		t.Run(name, func(t *testing.T) {
			s, addr, base := webServer(t, cfg)
			for _, d := range dialers(addr, base) {
				if d.Name == name {
					test(t, s, d, addr)
				}
			}
		})
	}
}

// TestBothTransports runs one suite against an SSH session and a browser
// tab alike: the race played to its one OK with the name asked first, a
// resize laid out again, a story code opened at its place, and a fault
// that ends its own session only, with its line.
func TestBothTransports(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{AskName: true}, func(t *testing.T, s *Server, d termtest.Dialer, addr string) {
		s.faults = func(at string, ses *Session) bool { return at == "key" && ses.Name == "boom" }

		c := d.New(t).Open(t, termtest.At{}, 100, 30)
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
		if err := c.Resize(120, 40); err != nil {
			t.Fatal(err)
		}
		c.WaitUntil("the title line 120 wide", func(s string) bool {
			first, _, _ := strings.Cut(s, "\n")
			return strings.HasSuffix(first, "seed "+seed) && utf8.RuneCountInString(first) == 120
		})

		code, _ := fencingCode(t)
		story := d.New(t).Open(t, termtest.At{Story: code, User: "visitor"}, 200, 30)
		story.WaitFor("Your name")
		story.Send("\x1b") // esc: no name
		story.WaitFor("fencing", "seed 7", " 3/? ")

		boom := d.New(t).Open(t, termtest.At{User: "boom"}, 80, 24)
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
