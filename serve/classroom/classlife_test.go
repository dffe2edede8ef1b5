package classroom

// Classes across servers and sessions: two servers of one class, two
// sessions of one instructor, presence, a keyless student, closing,
// restarting, a name that follows its key.

import (
	"context"
	"log"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// TestTwoServersOneClass: two servers keep their classes in one
// redis-server; the instructor on one drives a student on the other, and
// every key the classes left is under locksim:class: with a TTL.
func TestTwoServersOneClass(t *testing.T) {
	url := simtest.StartRedis(t)
	hub := func() class.Hub {
		h, err := class.NewRedis(context.Background(), url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		return h
	}
	teacherKey := termtest.NewKey(t)
	file := instructorsFile(t, teacherKey)
	one, other := classServer(t, hub(), file), classServer(t, hub(), file)

	teacher, code := openClass(t, one, teacherKey)
	teacher.Send("/fencing\r")
	teacher.WaitFor("A number on every write", "0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann := joinClass(t, other, code, "ann")
	ann.WaitFor("A number on every write", "0/")
	teacher.Send("..")
	at := step(t, teacher.WaitFor("2/"))
	ann.WaitFor(at, "following the instructor")

	// the instructor, back on the other server, finds the same class
	again := termtest.Open(t, termtest.Dial(t, other, "prof", teacherKey), "xterm-256color", 100, 30)
	// the class's store knows the instructor's name: not asked again
	// (TestInstructorNamedOnce); one leader: the second session opens at the class's place and ask
	again.WaitFor("A number on every write", "class "+code+" · the class is asked to follow")

	c := simtest.Client(t, url)
	for _, k := range simtest.Keys(t, url) {
		if !strings.HasPrefix(k, class.Prefix) && !strings.HasPrefix(k, "locksim:") {
			t.Errorf("key %s is outside locksim:", k)
		}
		if ttl := c.PTTL(context.Background(), k).Val(); strings.HasPrefix(k, class.Prefix) && (ttl <= 0 || ttl > class.TTL) {
			t.Errorf("key %s has TTL %v", k, ttl)
		}
	}
}

// TestTwoInstructorSessions: two sessions of one instructor key, on two
// servers of one class (one redis-server), are one leader: the second
// opens at the class's place and ask; a step in either moves the other
// and the students who follow, who stay following; F in one stops the
// ask in both.
func TestTwoInstructorSessions(t *testing.T) {
	url := simtest.StartRedis(t)
	hub := func() class.Hub {
		h, err := class.NewRedis(context.Background(), url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		return h
	}
	teacherKey := termtest.NewKey(t)
	file := instructorsFile(t, teacherKey)
	one, other := classServer(t, hub(), file), classServer(t, hub(), file)

	first, code := openClass(t, one, teacherKey)
	first.Send("/fencing\r")
	first.WaitFor("A number on every write", "0/")
	first.Send("F")
	first.WaitFor("the class is asked to follow")
	ann := joinClass(t, other, code, "ann")
	first.Send("..")
	at := step(t, first.WaitFor("2/"))
	ann.WaitFor(at, "following the instructor")

	// the second session opens where the class is, asking it to follow
	// the class's store knows the instructor's name: not asked again
	second := termtest.Open(t, termtest.Dial(t, other, "prof", teacherKey), "xterm-256color", 100, 30)
	second.WaitFor("A number on every write", at, "class "+code+" · the class is asked to follow")

	// a step in the second moves the first and the class
	second.Send(".")
	at = step(t, second.WaitFor("3/"))
	first.WaitFor(at, "the class is asked to follow")
	ann.WaitFor(at, "following the instructor")
	first.Send("l")
	first.WaitFor("1 online, 1 following")
	first.Send("l")

	// and one in the first moves the second
	first.Send(".")
	at = step(t, first.WaitFor("4/"))
	second.WaitFor(at)
	ann.WaitFor(at, "following the instructor")

	// F in the second stops the ask in both, and lets the class go
	second.Send("F")
	second.WaitUntil("the ask stopped", func(s string) bool { return !strings.Contains(s, "the class is asked to follow") })
	first.WaitUntil("the ask stopped on the first", func(s string) bool {
		return strings.Contains(s, at) && !strings.Contains(s, "the class is asked to follow")
	})
	ann.WaitFor("the instructor stopped leading")
}

// gateHub holds the next move put through it until the test lets it go,
// so a test can make a move lose its race.
type gateHub struct {
	class.Hub
	armed   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (h *gateHub) SwapLead(ctx context.Context, code string, prev int64, l class.Lead) (class.Lead, bool, error) {
	if h.armed.CompareAndSwap(true, false) {
		h.entered <- struct{}{}
		<-h.release
	}
	return h.Hub.SwapLead(ctx, code, prev, l)
}

// TestLostMove: of two sessions of one instructor, the one whose move
// was made from a place the other had already moved says so and shows
// the winning place, as does the class.
func TestLostMove(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	shared := class.NewMemory(nil)
	gate := &gateHub{Hub: shared, entered: make(chan struct{}), release: make(chan struct{})}
	teacherKey := termtest.NewKey(t)
	file := instructorsFile(t, teacherKey)
	one, other := classServer(t, shared, file), classServer(t, gate, file)

	first, code := openClass(t, one, teacherKey)
	first.Send("/fencing\r")
	first.WaitFor("A number on every write", "0/")
	first.Send("F")
	first.WaitFor("the class is asked to follow")
	first.Send("....")
	at := step(t, first.WaitFor("4/"))
	ann := joinClass(t, one, code, "ann")
	ann.WaitFor(at)
	// the class's store knows the instructor's name: not asked again
	second := termtest.Open(t, termtest.Dial(t, other, "prof", teacherKey), "xterm-256color", 100, 30)
	second.WaitFor("A number on every write", at, "the class is asked to follow")

	// the second steps on; its move waits in the hub while the first
	// steps back and wins
	gate.armed.Store(true)
	second.Send(".")
	second.WaitFor("5/")
	<-gate.entered
	first.Send("\x1b[D")
	back := step(t, first.WaitFor("3/"))
	ann.WaitFor(back, "following the instructor")
	close(gate.release)
	second.WaitFor("your move lost the race", back)
	// the class stays at the winner's place
	first.Send("l")
	first.WaitFor("1 online, 1 following")
	first.Send("l")
	first.WaitFor(back)
	ann.WaitFor(back, "following the instructor")
}

// TestPresenceOverSSH: two servers of one class on one redis-server. The
// class part of the students' second server dies: its student goes
// offline on the instructor's class view, his answer kept in the poll.
// The instructor leaves: a follower is told the instructor is away, keeps
// her place, and when the instructor comes back and moves on she follows
// without a key.
func TestPresenceOverSSH(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	url := simtest.StartRedis(t)
	newHub := func() *class.Redis {
		h, err := class.NewRedis(context.Background(), url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		return h
	}
	teacherKey := termtest.NewKey(t)
	file := instructorsFile(t, teacherKey)
	hubB := newHub()
	a, b := classServer(t, newHub(), file), classServer(t, hubB, file)

	teacher, code := openClass(t, a, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann, bob := joinClass(t, a, code, "ann"), joinClass(t, b, code, "bob")
	teacher.Send("...")
	teacher.WaitFor(" 3/", "Ask the room before the server answers")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor(" 3/", "following the instructor · 1-3 your prediction")
	}
	bob.Send("2")
	bob.WaitFor("You predicted")
	teacher.Send("l")
	teacher.WaitFor("2 online, 2 following", "1 of 2 answered · most chose 2 (1)", "waiting for: ann")

	// the class part of bob's server dies: his beats stop; his answer stays
	_ = hubB.Close()
	teacher.WaitFor("1 online, 1 following", "1 of 2 answered · most chose 2 (1)")
	teacher.Send("l")

	// the instructor leaves; ann, following, is told, and keeps her place
	teacher.Send("q")
	teacher.WaitEnd()
	ann.WaitFor(AwayNote, " 3/", "following the instructor")

	// the instructor is back and moves on: ann follows by herself
	again := termtest.Open(t, termtest.Dial(t, a, "prof", teacherKey), "xterm-256color", 100, 30)
	again.WaitFor("Frozen while holding the lock", " 3/", "the class is asked to follow")
	ann.WaitFor(BackNote)
	again.Send(".")
	// ann has not answered: the first step says so, the second runs it
	again.WaitFor("1 of 2 have answered · → again to step")
	again.Send(".")
	again.WaitFor(" 4/")
	ann.WaitFor(" 4/", "following the instructor")
}

var comeBackLine = regexp.MustCompile(`connect as ([a-z2-9]{5}-[a-z2-9]{8}) to come back as yourself`)

// TestKeylessStudentIsOneRow: a keyless student who leaves and connects
// again with the reconnect token their screen gave them is the same row
// of the roster, with their answer.
func TestKeylessStudentIsOneRow(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	addr := classServer(t, class.NewMemory(nil), instructorsFile(t, teacherKey))
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F...")
	teacher.WaitFor(" 3/", "the class is asked to follow")

	kay := termtest.Open(t, termtest.Dial(t, addr, code, nil), "xterm-256color", 100, 30)
	// the way back is on the name prompt (and, for a moment, beside the
	// class's code once joined: a flash the next note may replace)
	m := comeBackLine.FindStringSubmatch(kay.WaitFor("Your name, as the class will see it"))
	if m == nil {
		t.Fatalf("no way back on the keyless student's screen:\n%s", kay.Screen())
	}
	kay.Send("Kay\r")
	kay.WaitFor("the instructor asks the class to follow")
	kay.Send("F")
	kay.WaitFor(" 3/", "following the instructor · 1-3 your prediction")
	kay.Send("2")
	kay.WaitFor("You predicted")
	teacher.Send("l")
	teacher.WaitFor("1 online, 1 following", "1 of 1 answered · most chose 2 (1)", "Kay")
	kay.Send("q")
	kay.WaitEnd()
	teacher.WaitFor("0 online, 0 following", "1 of 1 answered · most chose 2 (1)")

	// back, with no name asked: the same row, online again
	again := termtest.Open(t, termtest.Dial(t, addr, m[1], nil), "xterm-256color", 100, 30)
	// she followed when she left: she follows again, at her place
	again.WaitFor("following the instructor", " 3/")
	s := teacher.WaitFor("1 online", "Kay")
	if n := strings.Count(s, "Kay"); n != 1 {
		t.Fatalf("Kay is %d rows of the roster:\n%s", n, s)
	}
}

// TestCloseAndClear: the instructor's key closes its class: a student
// with its code is told it is closed, its report stays, the next session
// under the class's name opens a new class; clear empties the report;
// another key may do neither.
func TestCloseAndClear(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	addr := classServer(t, class.NewMemory(nil), instructorsFile(t, teacherKey))
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock")
	teacher.Send("F")
	joinClass(t, addr, code, "ann")
	stranger := termtest.Dial(t, addr, code, termtest.NewKey(t))
	for _, cmd := range []string{"close " + code, "clear " + code} {
		if _, errOut, status := termtest.Run(t, stranger, cmd); status != 1 || !strings.Contains(errOut, "instructor's key") {
			t.Errorf("%s from a student's key: %d, %q", cmd, status, errOut)
		}
	}
	prof := termtest.Dial(t, addr, "prof", teacherKey)
	if out, errOut, status := termtest.Run(t, prof, "close "+code); status != 0 || !strings.Contains(out, "class "+code+" (prof) is closed") {
		t.Fatalf("close: %d, %q, %q", status, out, errOut)
	}
	late := termtest.Open(t, termtest.Dial(t, addr, code, termtest.NewKey(t)), "xterm-256color", 100, 30)
	late.WaitFor("Your name")
	late.Send("Cy\r")
	late.WaitFor("class " + code + " is closed: you are on the course alone")
	if out, _, status := termtest.Run(t, prof, "report "+code); status != 0 || !strings.Contains(out, ",ann,") {
		t.Fatalf("the closed class's report: %d\n%s", status, out)
	}
	again := termtest.Open(t, termtest.Dial(t, addr, "prof", teacherKey), "xterm-256color", 100, 30)
	m := openLine.FindStringSubmatch(again.WaitFor("(prof) is open"))
	if m == nil || m[1] == code {
		t.Fatalf("after closing, the name opened %v (the closed one %s)", m, code)
	}
	if out, _, status := termtest.Run(t, prof, "clear "+code); status != 0 || !strings.Contains(out, "roster is cleared") {
		t.Fatalf("clear: %d, %q", status, out)
	}
	if out, _, status := termtest.Run(t, prof, "report "+code); status != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("the cleared class's report: %d\n%s", status, out)
	}
}

// TestRestartKeepsTheClass: with a directory (-serve-dir), a restart of
// the server keeps the class: the instructor's next session under its
// name finds the same code, a student joins it again by that code, and
// the report has the answers given before.
func TestRestartKeepsTheClass(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	dir := t.TempDir()
	teacherKey := termtest.NewKey(t)
	file := instructorsFile(t, teacherKey)
	hostKey := filepath.Join(t.TempDir(), "host_ed25519")
	start := func() (string, func()) {
		hub, err := class.OpenDir(filepath.Join(dir, "classes"), 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := serve.New(serve.Config{HostKey: hostKey, Dir: dir, AskName: true, Instructors: file,
			Class: New(hub, "ssh -p 2222 CODE@localhost", t.Logf), Log: log.New(&testLog{t: t}, "", 0),
			Commands: map[string]serve.Command{"report": Report(hub)}})
		if err != nil {
			t.Fatal(err)
		}
		l, err := serve.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		stop := termtest.Serve(t, s, l)
		return l.Addr().String(), func() {
			stop()
			if err := hub.Close(); err != nil {
				t.Error(err)
			}
		}
	}
	addr, stop := start()
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F...")
	teacher.WaitFor(" 3/", "the class is asked to follow")
	annKey := termtest.NewKey(t)
	ann := termtest.Open(t, termtest.Dial(t, addr, code, annKey), "xterm-256color", 100, 30)
	ann.WaitFor("Your name")
	ann.Send("ann\r")
	ann.WaitFor("the instructor asks the class to follow")
	ann.Send("F")
	ann.WaitFor(" 3/", "following the instructor · 1-3 your prediction")
	ann.Send("2")
	ann.WaitFor("You predicted")
	teacher.Send("l")
	teacher.WaitFor("1 of 1 answered")
	teacher.Send(".") // the move runs in ann's own run: her answer is judged
	teacher.WaitFor("their own runs answered (1 of 1 have run it)")
	ann.WaitFor(" 4/")
	// her row reaches the class from her session's goroutine: wait until
	// the report has her answer
	answered := regexp.MustCompile(`,ann,[0-9a-f]{12},gc-pause,no,2,yes,`)
	prof := termtest.Dial(t, addr, "prof", teacherKey)
	for deadline := time.Now().Add(hang); ; time.Sleep(20 * time.Millisecond) {
		if out, _, _ := termtest.Run(t, prof, "report "+code); answered.MatchString(out) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ann's answer never reached the report")
		}
	}
	stop()

	addr, stop = start()
	defer stop()
	again := termtest.Open(t, termtest.Dial(t, addr, "prof", teacherKey), "xterm-256color", 100, 30)
	again.WaitFor("class "+code+" · the class is asked to follow", "Frozen while holding the lock", " 4/")
	if s := again.Screen(); strings.Contains(s, "lost the race") {
		t.Fatalf("a session that had moved nothing was told its move lost:\n%s", s)
	}
	back := termtest.Open(t, termtest.Dial(t, addr, code, annKey), "xterm-256color", 100, 30)
	back.WaitFor("following the instructor") // she followed when the server went down
	out, errOut, status := termtest.Run(t, termtest.Dial(t, addr, "prof", teacherKey), "report "+code)
	if status != 0 || !strings.Contains(out, ",ann,") {
		t.Fatalf("the report after the restart: %d, %q\n%s", status, errOut, out)
	}
	if !answered.MatchString(out) {
		t.Fatalf("ann's answer is not in the report after the restart:\n%s", out)
	}
}

// TestNameFollowsTheKey: a student known to the class on one server is
// not asked their name on another server of it, and is one row there.
func TestNameFollowsTheKey(t *testing.T) {
	url := simtest.StartRedis(t)
	hub := func() class.Hub {
		h, err := class.NewRedis(context.Background(), url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		return h
	}
	teacherKey, annKey := termtest.NewKey(t), termtest.NewKey(t)
	file := instructorsFile(t, teacherKey)
	one, other := classServer(t, hub(), file), classServer(t, hub(), file)
	teacher, code := openClass(t, one, teacherKey)
	teacher.Send("/fencing\r")
	teacher.WaitFor("A number on every write")
	teacher.Send("F")
	ann := termtest.Open(t, termtest.Dial(t, one, code, annKey), "xterm-256color", 100, 30)
	ann.WaitFor("Your name, as the class will see it")
	ann.Send("Ann Lee\r")
	ann.WaitFor("the instructor asks the class to follow")
	ann.Send("q")
	ann.WaitEnd()

	there := termtest.Open(t, termtest.Dial(t, other, code, annKey), "xterm-256color", 100, 30)
	if s := there.WaitFor("the instructor asks the class to follow"); strings.Contains(s, "Your name") {
		t.Fatalf("asked the name again on the other server:\n%s", s)
	}
	teacher.Send("l")
	s := teacher.WaitFor("1 online", "Ann Lee")
	if n := strings.Count(s, "Ann Lee"); n != 1 {
		t.Fatalf("Ann Lee is %d rows:\n%s", n, s)
	}
}
