package serve

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/serve/termtest"

	gossh "golang.org/x/crypto/ssh"
)

// TestCourseOverSSH plays the race over SSH: the name asked once per key,
// the contents, the race's prediction and its one OK; then the same key
// comes back to the exact place, with no name asked.
func TestCourseOverSSH(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, addr := testServer(t, Config{AskName: true, Dir: dir})
	key := termtest.NewKey(t)
	tm := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	tm.WaitFor("Your name, as the class will see it")
	tm.Send("Ada\r")
	tm.WaitFor("the course: Redis distributed locks", "1  race")
	tm.Send("\r") // the race, the first scene
	tm.WaitFor("1-3 your prediction")
	tm.Send("2")
	s := tm.WaitFor("OK · holder")
	if n := strings.Count(s, "OK · holder"); n != 1 {
		t.Fatalf("%d holders on the race's screen:\n%s", n, s)
	}
	seed := seedOn(t, s)
	// a resize: the screen is laid out again at the new width
	if err := tm.Resize(120, 40); err != nil {
		t.Fatal(err)
	}
	tm.WaitUntil("the title line 120 wide", func(s string) bool {
		first, _, _ := strings.Cut(s, "\n")
		return strings.HasSuffix(first, "seed "+seed) && utf8.RuneCountInString(first) == 120
	})
	tm.Send("q")
	if code := tm.WaitEnd(); code != 0 {
		t.Fatalf("q ended the session with status %d (stderr %q)", code, tm.Stderr())
	}
	data, err := os.ReadFile(filepath.Join(dir, keyHash(key.PublicKey()), "name.json"))
	if err != nil || !strings.Contains(string(data), `"Ada"`) {
		t.Fatalf("name.json: %q, %v", data, err)
	}

	back := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	s = back.WaitFor("OK · holder", "seed "+seed)
	if strings.Contains(s, "Your name") {
		t.Fatalf("the name was asked again:\n%s", s)
	}
	back.Send("q")
	back.WaitEnd()

	// another server on the same directory: the place is read from it
	_, addr = testServer(t, Config{AskName: true, Dir: dir})
	again := termtest.Open(t, termtest.Dial(t, addr, "student", key), "xterm-256color", 100, 30)
	again.WaitFor("OK · holder", "seed "+seed)
}

// TestHostKey: without -host-key the key is made under the config
// directory on first start and reused after.
func TestHostKey(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	dir, err := os.UserConfigDir()
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(dir, "locksim", "host_ed25519")
	if _, err := New(Config{}); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no host key made: %v", err)
	}
	if _, err := New(Config{}); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(path); string(second) != string(first) {
		t.Fatal("the host key was made again")
	}
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(first)
	if err != nil {
		t.Fatal(err)
	}
	if want := gossh.FingerprintSHA256(signer.PublicKey()); s.Fingerprint() != want || !strings.HasPrefix(want, "SHA256:") {
		t.Fatalf("Fingerprint %q, the key file's %q", s.Fingerprint(), want)
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

// TestShutdown: closing the server ends its sessions with a line, on
// both transports.
func TestShutdown(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ssh", "web"} {
		t.Run(name, func(t *testing.T) {
			s, addr, stop := startServer(t, Config{})
			d := termtest.SSH(addr)
			if name == "web" {
				d = termtest.Web(serveWeb(t, s))
			}
			tm := d.New(t).Open(t, termtest.At{}, 80, 24)
			tm.WaitFor("1  race")
			stop()
			endsWith(t, d, tm, false, "locksim: the server is shutting down")
		})
	}
}

// TestKeyless lets a client with no key in, by keyboard-interactive or by
// a password it does not read, and asks its name each time.
func TestKeyless(t *testing.T) {
	t.Parallel()
	_, addr := testServer(t, Config{AskName: true})
	byPassword, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "guest", Auth: []gossh.AuthMethod{gossh.Password("anything")},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: hang})
	if err != nil {
		t.Fatal(err)
	}
	defer byPassword.Close()
	for _, c := range []*gossh.Client{termtest.Dial(t, addr, "guest", nil), byPassword} {
		tm := termtest.Open(t, c, "xterm", 80, 24)
		tm.WaitFor("Your name, as the class will see it")
		tm.Send("\x1b") // esc: no name
		tm.WaitFor("1  race")
		tm.Send("\x03") // ctrl+c
		tm.WaitEnd()
	}
}

// TestNoTerminal: no command and no pty is told how to ask for one.
func TestNoTerminal(t *testing.T) {
	t.Parallel()
	_, addr := testServer(t, Config{})
	s, err := termtest.Dial(t, addr, "student", nil).NewSession()
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

// TestFull closes the session over the cap with one line, on both
// transports.
func TestFull(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{MaxSessions: 1}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		first := d.New(t).Open(t, termtest.At{User: "a"}, 80, 24)
		first.WaitFor("1  race")
		second := d.New(t).Open(t, termtest.At{User: "b"}, 80, 24)
		if got := endsWith(t, d, second, true, "locksim: the server is full (1 sessions at once)"); strings.Count(strings.TrimSpace(got), "\n") != 0 {
			t.Fatalf("over the cap: %q", got)
		}
		first.Send("\r") // the first is still there
		first.WaitFor("1-3 your prediction")
	})
}

// TestSeed: -seed gives every session the same tokens.
func TestSeed(t *testing.T) {
	t.Parallel()
	onBoth(t, Config{Seed: 4242}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		tm := d.New(t).Open(t, termtest.At{}, 100, 30)
		tm.WaitFor("1  race")
		tm.Send("\r")
		tm.WaitFor("seed 4242", "1-3 your prediction")
	})
}

var comeBackAs = regexp.MustCompile(`connect as (guest-[a-z2-9]{8}) to come back`)

// TestKeylessComesBack: a keyless session is told its reconnect token;
// connecting as USER-TOKEN comes back as the same student (no name asked,
// the place kept), and another keyless client is someone else.
func TestKeylessComesBack(t *testing.T) {
	t.Parallel()
	_, addr := testServer(t, Config{AskName: true})
	tm := termtest.Open(t, termtest.Dial(t, addr, "guest", nil), "xterm-256color", 100, 30)
	m := comeBackAs.FindStringSubmatch(tm.WaitFor("Your name, as the class will see it"))
	if m == nil {
		t.Fatalf("no reconnect token on the name prompt:\n%s", tm.Screen())
	}
	tm.Send("Kay\r")
	tm.WaitFor("1  race")
	tm.Send("\r")
	tm.WaitFor("1-3 your prediction")
	tm.Send("2")
	seed := seedOn(t, tm.WaitFor("OK · holder"))
	tm.Send("q")
	tm.WaitEnd()

	back := termtest.Open(t, termtest.Dial(t, addr, m[1], nil), "xterm-256color", 100, 30)
	if s := back.WaitFor("OK · holder", "seed "+seed); strings.Contains(s, "Your name") {
		t.Fatalf("the name was asked again:\n%s", s)
	}
	other := termtest.Open(t, termtest.Dial(t, addr, "guest", nil), "xterm-256color", 100, 30)
	if n := comeBackAs.FindStringSubmatch(other.WaitFor("Your name, as the class will see it")); n == nil || n[1] == m[1] {
		t.Fatalf("another keyless client's token: %v, the first's %s", n, m[1])
	}
}
