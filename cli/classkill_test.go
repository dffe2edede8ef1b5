package cli

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"locksim/serve/termtest"
	"locksim/sim/simtest"

	gossh "golang.org/x/crypto/ssh"
)

// serveProcess starts this test binary as `locksim -serve` on a free
// loopback port with the class in classRedis, and returns its address and
// the process, which the test may kill -9; it is killed at the test's end.
func serveProcess(t *testing.T, hostKey, instructors, classRedis string) (string, *exec.Cmd) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(os.Args[0], "-serve", addr, "-host-key", hostKey, "-instructors", instructors, "-class-redis", classRedis)
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr, cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("locksim -serve %s never listened", addr)
		}
	}
}

var classOpen = regexp.MustCompile(`class ([a-z2-9]{5}) \([^)]*\) is open`)

// TestClassSurvivesAKilledServer: two locksim -serve processes share one
// class in one redis-server. The instructor leads on the first; a student
// answers on the second, which is then killed -9. Within the presence
// window the class view shows the student offline with the answer kept;
// the student, back on the first server with the same key, is the same
// row (not asked the name again) with the answer in the poll; a new
// second server serves the same class.
func TestClassSurvivesAKilledServer(t *testing.T) {
	url := simtest.StartRedis(t)
	dir := t.TempDir()
	teacherKey, annKey := termtest.NewKey(t), termtest.NewKey(t)
	instructors := filepath.Join(dir, "instructors")
	if err := os.WriteFile(instructors, gossh.MarshalAuthorizedKey(teacherKey.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	hostKey := filepath.Join(dir, "host_ed25519")
	one, _ := serveProcess(t, hostKey, instructors, url)
	two, twoCmd := serveProcess(t, hostKey, instructors, url)

	teacher := termtest.Open(t, termtest.Dial(t, one, "prof", teacherKey), "xterm-256color", 100, 30)
	teacher.WaitFor("Your name, as the class will see it")
	teacher.Send("Prof\r")
	m := classOpen.FindStringSubmatch(teacher.WaitFor("is open"))
	if m == nil {
		t.Fatal("no class code on the instructor's screen")
	}
	code := m[1]
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F...")
	teacher.WaitFor(" 3/", "the class is asked to follow")

	ann := termtest.Open(t, termtest.Dial(t, two, code, annKey), "xterm-256color", 100, 30)
	ann.WaitFor("Your name")
	ann.Send("ann\r")
	ann.WaitFor("the instructor asks the class to follow")
	ann.Send("F")
	ann.WaitFor(" 3/", "following the instructor · 1-3 your prediction")
	ann.Send("2")
	ann.WaitFor("You predicted")
	teacher.Send("l")
	teacher.WaitFor("1 online, 1 following", "1 of 1 answered · most chose 2 (1)")

	// the second server dies at once: no goodbye reaches the class
	if err := twoCmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = twoCmd.Wait()
	teacher.WaitFor("0 online, 0 following", "1 of 1 answered · most chose 2 (1)")

	// ann comes back on the first server with the same key: the same row,
	// her name known, her answer still counted
	back := termtest.Open(t, termtest.Dial(t, one, code, annKey), "xterm-256color", 100, 30)
	back.WaitFor(" 3/", "following the instructor", "You predicted")
	if s := back.Screen(); regexp.MustCompile(`Your name`).MatchString(s) {
		t.Errorf("ann was asked her name again:\n%s", s)
	}
	teacher.WaitFor("1 online", "1 of 1 answered · most chose 2 (1)", "ann")
	// the move runs in her run on this server: her answer, given on the
	// killed one, is reported now, to the class's report
	teacher.Send(".")
	teacher.WaitFor("their own runs answered (1 of 1 have run it)")
	// a row: class, its name, opened, written, student, id, scene, ...
	answered := regexp.MustCompile(`\n[^,\n]*,[^,\n]*,[^,\n]*,[^,\n]*,ann,[0-9a-f]{12},gc-pause,no,2,(yes|no),`)
	prof := termtest.Dial(t, one, "prof", teacherKey)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if out, _, _ := termtest.Run(t, prof, "report "+code); answered.MatchString(out) {
			break
		}
		if time.Now().After(deadline) {
			out, _, _ := termtest.Run(t, prof, "report "+code)
			t.Fatalf("ann's answer never reached the report:\n%s", out)
		}
	}

	// a new second server serves the same class
	three, _ := serveProcess(t, hostKey, instructors, url)
	bob := termtest.Open(t, termtest.Dial(t, three, code, termtest.NewKey(t)), "xterm-256color", 100, 30)
	bob.WaitFor("Your name")
	bob.Send("bob\r")
	bob.WaitFor("the instructor asks the class to follow")
	teacher.WaitFor("2 online", "bob", "ann", "1 of "+strconv.Itoa(1)+" answered")
}
