package serve

import (
	"log"
	"regexp"
	"strings"
	"testing"

	"locksim/serve/termtest"
)

// TestLogNamesEachSession: two sessions of one key (a projector beside a
// laptop) are two sessions in the server's log: each line names the
// key's id and the session's own, and the two differ.
func TestLogNamesEachSession(t *testing.T) {
	t.Parallel()
	tl := &testLog{}
	_, addr := testServer(t, Config{Log: log.New(tl, "", 0)})
	key := termtest.NewKey(t)
	a := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	b := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	a.WaitFor("1  race")
	b.WaitFor("1  race")
	opened := regexp.MustCompile(`session (\S+) open `).FindAllStringSubmatch(tl.String(), -1)
	if len(opened) != 2 {
		t.Fatalf("want two sessions opened in the log:\n%s", tl.String())
	}
	kid := keyHash(key.PublicKey())
	x, y := opened[0][1], opened[1][1]
	if x == y || !strings.HasPrefix(x, kid+"/") || !strings.HasPrefix(y, kid+"/") {
		t.Errorf("each session should have its own id after its key's (%s/…): %q, %q", kid, x, y)
	}
}
