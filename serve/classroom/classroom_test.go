package classroom

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

var stepOn = regexp.MustCompile(`(\d+/(?:\d+|\?))  t=`)

// step reads the story's step counter ("4/10", or "4/?" while a question
// is open) off a screen.
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
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann, bob := joinClassOn(t, d, code, "ann"), joinClassOn(t, d, code, "bob")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("Frozen while holding the lock", " 0/")
	}

	// the projector: the instructor's own key on the class's code
	projector := termtest.Open(t, termtest.Dial(t, addr, code, teacherKey), "xterm-256color", 100, 30)
	projector.WaitFor("projector: following the instructor", "Frozen while holding the lock", " 0/")

	teacher.Send("...") // the clicker, to the question
	teacher.WaitFor(" 3/", "Ask the room before the server answers")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor(" 3/", "following the instructor · 1-3 your prediction")
	}
	projector.WaitFor(" 3/", "Ask the room before the server answers")
	ann.Send("1")
	bob.Send("2")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor("You predicted", " 3/")
	}
	teacher.Send("l")
	teacher.WaitFor("2 online, 2 following", "2 of 2 answered · most chose 1 and 2, 1 each", "ann", "predicted 1", "bob", "predicted 2")

	teacher.Send(".") // the move runs in each student's own run
	teacher.WaitFor("their own runs answered (2 of 2 have run it)", "ran 2")
	for _, s := range []*termtest.Term{ann, bob} {
		s.WaitFor(" 4/", "following the instructor")
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
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann := joinClass(t, addr, code, "ann")
	ann.WaitFor("Frozen while holding the lock", " 0/")
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
