package serve

import (
	"net"
	"strings"
	"testing"

	"locksim/play"
	"locksim/serve/termtest"
	"locksim/storycode"
)

// fencingCode is a story code of the fencing scene a few steps in, and the
// position it carries.
func fencingCode(t *testing.T) (string, play.Position) {
	t.Helper()
	pos := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 7, Step: 3}
	code, err := storycode.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	return code, pos
}

// TestStoryOnATerminal: ssh -t HOST story CODE opens the course at the
// code's place, not at the student's saved one.
func TestStoryOnATerminal(t *testing.T) {
	t.Parallel()
	_, addr := testServer(t, Config{})
	code, _ := fencingCode(t)
	tm := termtest.OpenCmd(t, termtest.Dial(t, addr, "student", termtest.NewKey(t)), "xterm-256color", 200, 30, nil, "story "+code)
	tm.WaitFor("fencing", "seed 7", " 3/? ")
	// y over SSH writes nothing on the server: it says how to fetch the
	// script, on the port the student came in by
	tm.Send("y")
	_, port, _ := net.SplitHostPort(addr)
	tm.WaitFor("ssh -p " + port + " HOST cli " + code + " > story.redis")
	tm.Send("q")
	tm.WaitEnd()

	// a code is a visit: the student's own saved place stays theirs
	key := termtest.NewKey(t)
	own := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	own.WaitFor("1  race")
	own.Send("\r")
	own.WaitFor("1-3 your prediction")
	own.Send("2")
	seed := seedOn(t, own.WaitFor("OK · holder"))
	own.Send("q")
	own.WaitEnd()
	visit := termtest.OpenCmd(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 200, 30, nil, "story "+code)
	visit.WaitFor("fencing", "seed 7", " 3/? ", "visiting a story code · esc goes back to your own place")
	visit.Send("n")
	visit.WaitFor(" 4/? ")
	visit.Send("q")
	visit.WaitEnd()
	back := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	back.WaitFor("OK · holder", "seed "+seed)
	back.Send("q")
	back.WaitEnd()

	bad := termtest.OpenCmd(t, termtest.Dial(t, addr, "student", termtest.NewKey(t)), "xterm-256color", 80, 24, nil, "story fencing.zzzz")
	if status := bad.WaitEnd(); status != 2 || !strings.HasPrefix(bad.Stderr(), "locksim: story code: ") || strings.Count(bad.Stderr(), "\n") != 1 {
		t.Fatalf("a bad code on a terminal: status %d, stderr %q", status, bad.Stderr())
	}
}
