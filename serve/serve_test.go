package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCourseOverSSH plays the race over SSH: the name asked once per key,
// the contents, the race's prediction and its one OK; then the same key
// comes back to the exact place, with no name asked.
func TestCourseOverSSH(t *testing.T) {
	dir := t.TempDir()
	_, addr := testServer(t, Config{AskName: true, Dir: dir})
	key := newKey(t)
	tm := openTerm(t, dial(t, addr, "student", key), "xterm-256color", 100, 30)
	tm.waitFor("Your name, as the class will see it")
	tm.send("Ada\r")
	tm.waitFor("the course: Redis distributed locks", "1  race")
	tm.send("\r") // the race, the first scene
	tm.waitFor("1-3 your prediction")
	tm.send("2")
	s := tm.waitFor("OK · holder")
	if n := strings.Count(s, "OK · holder"); n != 1 {
		t.Fatalf("%d holders on the race's screen:\n%s", n, s)
	}
	seed := seedOn(t, s)
	tm.send("q")
	if code := tm.waitEnd(); code != 0 {
		t.Fatalf("q ended the session with status %d (stderr %q)", code, tm.stderr())
	}
	data, err := os.ReadFile(filepath.Join(dir, keyHash(key.PublicKey()), "name.json"))
	if err != nil || !strings.Contains(string(data), `"Ada"`) {
		t.Fatalf("name.json: %q, %v", data, err)
	}

	back := openTerm(t, dial(t, addr, "student", key), "xterm-256color", 100, 30)
	s = back.waitFor("OK · holder", "seed "+seed)
	if strings.Contains(s, "Your name") {
		t.Fatalf("the name was asked again:\n%s", s)
	}
}

// seedOn reads the seed off the scene's title line.
func seedOn(t *testing.T, screen string) string {
	t.Helper()
	_, after, ok := strings.Cut(screen, "seed ")
	if !ok {
		t.Fatalf("no seed on the screen:\n%s", screen)
	}
	return strings.Fields(after)[0]
}

// TestKeyless lets a client with no key in, and asks its name each time.
func TestKeyless(t *testing.T) {
	_, addr := testServer(t, Config{AskName: true})
	for range 2 {
		tm := openTerm(t, dial(t, addr, "guest", nil), "xterm", 80, 24)
		tm.waitFor("Your name, as the class will see it")
		tm.send("\x1b") // esc: no name
		tm.waitFor("1  race")
		tm.send("\x03") // ctrl+c
		tm.waitEnd()
	}
}

// TestCommands runs the commands that need no terminal, and a bad one.
func TestCommands(t *testing.T) {
	_, addr := testServer(t, Config{})
	c := dial(t, addr, "student", newKey(t))
	out, errOut, code := run(t, c, "plain race")
	if code != 0 || !strings.HasPrefix(out, "locksim · race ·") || !strings.Contains(out, "NX PX 30000") || errOut != "" {
		t.Fatalf("plain race: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, errOut, code = run(t, c, "cli fencing")
	if code != 0 || !strings.Contains(out, "EVAL ") || !strings.Contains(out, "locksim:replay:resource:fence") || errOut != "" {
		t.Fatalf("cli fencing: status %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	out, _, code = run(t, c, "list")
	if code != 0 || !strings.HasPrefix(out, "race ") || !strings.Contains(out, "\nfencing ") {
		t.Fatalf("list: status %d:\n%s", code, out)
	}
	for _, bad := range []string{"nope", "plain", "plain nosuch", "plain race x", "cli quiz", "list x"} {
		out, errOut, code = run(t, c, bad)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "locksim: ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2, nothing, one line", bad, code, out, errOut)
		}
	}
}

// TestNoTerminal: no command and no pty is told how to ask for one.
func TestNoTerminal(t *testing.T) {
	_, addr := testServer(t, Config{})
	s, err := dial(t, addr, "student", nil).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	s.Stderr = &errOut
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	err = s.Wait()
	if err == nil || !strings.Contains(errOut.String(), "ssh -t") {
		t.Fatalf("no pty: %v, stderr %q", err, errOut.String())
	}
}

// TestFull closes the session over the cap with one line.
func TestFull(t *testing.T) {
	_, addr := testServer(t, Config{MaxSessions: 1})
	first := openTerm(t, dial(t, addr, "a", newKey(t)), "xterm", 80, 24)
	first.waitFor("1  race")
	second := openTerm(t, dial(t, addr, "b", newKey(t)), "xterm", 80, 24)
	if code := second.waitEnd(); code != 1 {
		t.Fatalf("the session over the cap ended with status %d", code)
	}
	if got := second.stderr(); !strings.Contains(got, "the server is full (1 sessions at once)") || strings.Count(strings.TrimSpace(got), "\n") != 0 {
		t.Fatalf("over the cap, stderr %q", got)
	}
	first.send("\r") // the first is still there
	first.waitFor("1-3 your prediction")
}
