package classroom

import (
	"context"
	"encoding/csv"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locksim/class"
	"locksim/scenes"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// instructorsFile writes the keys' public halves as an authorized_keys file.
func instructorsFile(t *testing.T, keys ...gossh.Signer) string {
	t.Helper()
	var b strings.Builder
	for _, k := range keys {
		b.Write(gossh.MarshalAuthorizedKey(k.PublicKey()))
	}
	path := filepath.Join(t.TempDir(), "instructors")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// classServer starts a server whose classes are kept in hub, with the
// instructors' keys in the file instructors, and returns its address.
func classServer(t *testing.T, hub class.Hub, instructors string) string {
	t.Helper()
	_, addr := testServer(t, serve.Config{AskName: true, Instructors: instructors,
		Class:    New(hub, "ssh -p 2222 CODE@localhost", t.Logf),
		Commands: map[string]serve.Command{"report": ReportAt(hub, atReport), "close": Close(hub), "clear": Clear(hub)}})
	return addr
}

// reportAt is when the tests' reports are written.
var reportAt = time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC)

func atReport() time.Time { return reportAt }

var isDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

var openLine = regexp.MustCompile(`class ([a-z2-9]{5}) \([^)]*\) is open`)

// openClass connects the instructor's key as user, gives a name, and
// returns the terminal and the code of the class it opened.
func openClass(t *testing.T, addr string, key gossh.Signer) (*termtest.Term, string) {
	t.Helper()
	tm := termtest.Open(t, termtest.Dial(t, addr, "prof", key), "xterm-256color", 100, 30)
	tm.WaitFor("Your name, as the class will see it")
	tm.Send("Prof\r")
	s := tm.WaitFor("is open · l shows the class")
	m := openLine.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no class code on the instructor's screen:\n%s", s)
	}
	return tm, m[1]
}

// joinClass connects a fresh key as user code, gives name, waits until
// the instructor's call to follow shows, and follows.
func joinClass(t *testing.T, addr, code, name string) *termtest.Term {
	t.Helper()
	return joinClassOn(t, termtest.SSH(addr), code, name)
}

// joinClassOn is joinClass over d's transport: a fresh key over SSH, a
// fresh browser's tab at /c/CODE.
func joinClassOn(t *testing.T, d termtest.Dialer, code, name string) *termtest.Term {
	t.Helper()
	tm := d.New(t).Open(t, termtest.At{Class: code}, 100, 30)
	tm.WaitFor("Your name, as the class will see it")
	tm.Send(name + "\r")
	tm.WaitFor("the instructor asks the class to follow", "F follows")
	tm.Send("F")
	tm.WaitFor("following the instructor")
	return tm
}

var stepOn = regexp.MustCompile(`(\d+/\d+)  t=`)

// step reads the story's step counter ("4/10") off a screen.
func step(t *testing.T, screen string) string {
	t.Helper()
	m := stepOn.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no step counter on the screen:\n%s", screen)
	}
	return m[1]
}

// TestClassOverSSH: an instructor key opens a class; two students join it
// by its code and follow, over SSH, then (its second run) in browser tabs; the instructor steps to gc-pause's question and
// the students' screens reach it; their predictions arrive in the
// instructor's histogram, then what their own runs answered; the
// instructor's key writes the class summary, a student's key may not.
func TestClassOverSSH(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	for _, name := range []string{"ssh", "web"} {
		t.Run(name, func(t *testing.T) { classOver(t, name) })
	}
}

// classOver is TestClassOverSSH with its students over the transport
// named (the instructor, the projector and the report over SSH).
func classOver(t *testing.T, transport string) {
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class:    New(hub, "ssh -p 2222 CODE@localhost", t.Logf),
		Commands: map[string]serve.Command{"report": ReportAt(hub, atReport), "close": Close(hub), "clear": Clear(hub)}})
	d := termtest.SSH(addr)
	if transport == "web" {
		d = termtest.Web(serveWebOf(t, s))
	}
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann, bob := joinClassOn(t, d, code, "ann"), joinClassOn(t, d, code, "bob")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("Frozen while holding the lock", "0/10")
	}

	// the projector: the instructor's own key on the class's code
	projector := termtest.Open(t, termtest.Dial(t, addr, code, teacherKey), "xterm-256color", 100, 30)
	projector.WaitFor("projector: following the instructor", "Frozen while holding the lock", "0/10")

	teacher.Send("...") // the clicker, to the question
	teacher.WaitFor("3/10", "Ask the room before the server answers")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("3/10", "following the instructor · 1-3 your prediction")
	}
	projector.WaitFor("3/10", "Ask the room before the server answers")
	ann.Send("1")
	bob.Send("2")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("You predicted", "3/10")
	}
	teacher.Send("l")
	teacher.WaitFor("2 online, 2 following", "2 of 2 answered · most chose 1 and 2, 1 each", "ann", "predicted 1", "bob", "predicted 2")

	teacher.Send(".") // the move runs in each student's own run
	teacher.WaitFor("their own runs answered (2 of 2 have run it)", "ran 2")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("4/10", "following the instructor")
	}

	out, errOut, status := termtest.Run(t, termtest.Dial(t, addr, "prof", teacherKey), "report "+code)
	if status != 0 {
		t.Fatalf("report: status %d, %q", status, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// every row names the class and when the report was written; each
	// student has a summary row (one prediction, judged by their run)
	var got, all []string
	for _, r := range rows[1:] {
		if r[0] != code || r[3] != "2026-12-01T10:30:00Z" || !isDate.MatchString(r[2]) {
			t.Errorf("a row that does not name class %s, the day it opened and when the report was written: %q", code, r)
		}
		switch r[6] {
		case "gc-pause":
			got = append(got, strings.Join([]string{r[4], r[8]}, ":"))
		case class.AllScenes:
			all = append(all, strings.Join([]string{r[4], r[8], r[9][1:]}, ":"))
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"ann:1", "bob:2"}) {
		t.Errorf("the summary's gc-pause rows: %q\n%s", got, out)
	}
	slices.Sort(all)
	if !slices.Equal(all, []string{"ann:1:/1", "bob:1:/1"}) || len(rows) != 1+2+2*len(scenes.All()) {
		t.Errorf("the summary rows (student:predictions:/of them): %q, %d rows\n%s", all, len(rows), out)
	}
	if _, errOut, status := termtest.Run(t, termtest.Dial(t, addr, code, termtest.NewKey(t)), "report "+code); status != 1 || !strings.Contains(errOut, "instructor's key") {
		t.Errorf("report from a student's key: status %d, %q", status, errOut)
	}
}

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

// TestPlaces: who a session is in a class, by its key and user name.
func TestPlaces(t *testing.T) {
	ctx := context.Background()
	hub := class.NewMemory(nil)
	c := New(hub, "ssh -p 2222 CODE@host", nil)
	lead, err := hub.OpenNamed(ctx, "teacher", "prof")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		id         serve.Identity
		role       class.Role
		code, note string
	}{
		{"the instructor, under the class's name", serve.Identity{KeyHash: "teacher", User: "prof", Instructor: true}, class.Instructor, lead.Code, "(prof) is open"},
		{"the instructor on their code", serve.Identity{KeyHash: "teacher", User: lead.Code, Instructor: true}, class.Projector, lead.Code, "projector"},
		{"the instructor's name with bidirectional controls", serve.Identity{KeyHash: "teacher", User: "\u202epr\u2066of\u200f", Instructor: true}, class.Instructor, lead.Code, "(prof) is open"},
		{"another instructor on that code", serve.Identity{KeyHash: "other", User: lead.Code, Instructor: true}, class.Student, lead.Code, "joined"},
		{"a student on the code", serve.Identity{KeyHash: "s", User: lead.Code}, class.Student, lead.Code, "joined"},
		{"a student on no class's code", serve.Identity{KeyHash: "s", User: "zzzzz"}, "", "", "no class has code zzzzz"},
		{"a student under their own name", serve.Identity{KeyHash: "s", User: "ann"}, "", "", "ann is no class code · codes (like k7m2q) are on the instructor's screen"},
		{"a student who typed the class's name", serve.Identity{KeyHash: "s", User: "prof"}, "", "", "prof is no class code · codes (like k7m2q) are on the instructor's screen"},
		{"a word of five letters, not a code", serve.Identity{KeyHash: "s", User: "hello"}, "", "", "hello is no class code"},
		{"a long word", serve.Identity{KeyHash: "s", User: "distributed-locks-course"}, "", "", "distribut… is no class code"},
		{"a name with a terminal's escape", serve.Identity{KeyHash: "s", User: "a\x1b[2Jb"}, "", "", "a?[2Jb is no class code"},
		{"no user name (the web's /)", serve.Identity{KeyHash: "s"}, "", "", ""},
		{"an instructor's key taken off the list", serve.Identity{KeyHash: "teacher", User: "prof"}, "", "", "prof is no class code"},
	} {
		role, code, note, err := c.place(ctx, tc.id)
		if w := ansi.StringWidth(note); w > 80 {
			t.Errorf("%s: the note is %d columns, more than a screen's 80: %q", tc.name, w, note)
		}
		if err != nil || role != tc.role || code != tc.code || !strings.Contains(note, tc.note) || (tc.note == "") != (note == "") {
			t.Errorf("%s: %q in %q (%q, %v); want %q in %q (%q)", tc.name, role, code, note, err, tc.role, tc.code, tc.note)
		}
	}
	if got := c.joinLine("k7m2q"); got != "ssh -p 2222 k7m2q@host" {
		t.Errorf("join line %q", got)
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
	teacher.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann, bob := joinClass(t, a, code, "ann"), joinClass(t, b, code, "bob")
	teacher.Send("...")
	teacher.WaitFor("3/10", "Ask the room before the server answers")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("3/10", "following the instructor · 1-3 your prediction")
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
	ann.WaitFor(AwayNote, "3/10", "following the instructor")

	// the instructor is back and moves on: ann follows by herself
	again := termtest.Open(t, termtest.Dial(t, a, "prof", teacherKey), "xterm-256color", 100, 30)
	again.WaitFor("Frozen while holding the lock", "3/10", "the class is asked to follow")
	ann.WaitFor(BackNote)
	again.Send(".")
	// ann has not answered: the first step says so, the second runs it
	again.WaitFor("1 of 2 have answered · → again to step")
	again.Send(".")
	again.WaitFor("4/10")
	ann.WaitFor("4/10", "following the instructor")
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
	teacher.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("F...")
	teacher.WaitFor("3/10", "the class is asked to follow")

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
	kay.WaitFor("3/10", "following the instructor · 1-3 your prediction")
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
	again.WaitFor("following the instructor", "3/10")
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
	teacher.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("F...")
	teacher.WaitFor("3/10", "the class is asked to follow")
	annKey := termtest.NewKey(t)
	ann := termtest.Open(t, termtest.Dial(t, addr, code, annKey), "xterm-256color", 100, 30)
	ann.WaitFor("Your name")
	ann.Send("ann\r")
	ann.WaitFor("the instructor asks the class to follow")
	ann.Send("F")
	ann.WaitFor("3/10", "following the instructor · 1-3 your prediction")
	ann.Send("2")
	ann.WaitFor("You predicted")
	teacher.Send("l")
	teacher.WaitFor("1 of 1 answered")
	teacher.Send(".") // the move runs in ann's own run: her answer is judged
	teacher.WaitFor("their own runs answered (1 of 1 have run it)")
	ann.WaitFor("4/10")
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
	again.WaitFor("class "+code+" · the class is asked to follow", "Frozen while holding the lock", "4/10")
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

// TestJoinLineFromTheConnection: without -public-addr, the join line is
// the address the instructor's own client reached (the port left out when
// it is 22), and says it may not be the students' way in; with it, the
// server's line.
func TestJoinLineFromTheConnection(t *testing.T) {
	c := New(class.NewMemory(nil), "", nil)
	for _, tc := range []struct{ local, want string }{
		{"10.0.0.5:2222", "ssh -p 2222 k7m2q@10.0.0.5 (the address you reached: behind a NAT or a port forward, use -public-addr)"},
		{"192.168.1.9:22", "ssh k7m2q@192.168.1.9 (the address you reached:"},
		{"[::1]:2222", "ssh -p 2222 k7m2q@[::1] ("},
	} {
		if got := c.joinFor("k7m2q", tc.local); !strings.HasPrefix(got, tc.want) {
			t.Errorf("reached at %s: %q, want it to start %q", tc.local, got, tc.want)
		}
	}
	pub := New(class.NewMemory(nil), "ssh -p 2222 CODE@class.example.org", nil)
	if got := pub.joinFor("k7m2q", "10.0.0.5:2222"); got != "ssh -p 2222 k7m2q@class.example.org" {
		t.Errorf("with -public-addr: %q", got)
	}
}

// TestWebJoinFromTheConnection: with -web, the browser's way in is
// -public-url's page, else the -web port on the host the instructor
// reached (https under TLS) with the same caution; no -web, no page.
func TestWebJoinFromTheConnection(t *testing.T) {
	for _, tc := range []struct {
		public, addr string
		tls          bool
		want         string
	}{
		{"https://class.example.org/", ":8080", false, "https://class.example.org/c/k7m2q"},
		{"", ":8080", false, "http://10.0.0.5:8080/c/k7m2q (the address you reached: behind a NAT or a proxy, use -public-url)"},
		{"", "127.0.0.1:8443", true, "https://10.0.0.5:8443/c/k7m2q ("},
	} {
		c := New(class.NewMemory(nil), "", nil)
		c.OnWeb(tc.public, tc.addr, tc.tls)
		if got := c.web.link("k7m2q", "10.0.0.5:2222"); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want it to start %q", tc, got, tc.want)
		}
	}
	if got := New(class.NewMemory(nil), "", nil).web.link("k7m2q", "10.0.0.5:2222"); got != "" {
		t.Errorf("a server with no page gives a link: %q", got)
	}
}

// TestHoldOverSSH: the instructor holds the class from the class view; a
// follower's F is refused and their class line says so; the
// release lets F leave follow mode; S shows the instructor the class's
// summary.
func TestHoldOverSSH(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	addr := classServer(t, hub, instructorsFile(t, teacherKey))
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann := joinClass(t, addr, code, "ann")
	ann.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("l")
	teacher.WaitFor("1 online, 1 following")
	teacher.Send("H")
	// the class view says the hold in its note, in place of its keys
	// until the next key (TestHoldKeepsTheFollowers)
	teacher.WaitFor("the class is held", "H in the class view releases it")
	ann.WaitFor("the class is held: following the instructor")
	ann.Send("F")
	// the refused key is told in the class's line, in place of its
	// "following the instructor" until the next key
	s := ann.WaitFor("the class is held: you stay on the instructor's place until they release it")
	if !strings.Contains(s, "Frozen while holding the lock") || strings.Contains(s, "you left follow mode") {
		t.Fatalf("a held follower's F let them go:\n%s", s)
	}
	teacher.Send("H")
	ann.WaitFor("the instructor released the class")
	ann.Send("F")
	ann.WaitFor("you left follow mode")
	teacher.Send("S")
	teacher.WaitFor("summary of 1 student", "ann", "S/esc class view")
}
