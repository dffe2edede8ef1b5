package classroom

import (
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
)

var tabLinkOn = regexp.MustCompile(`(http://\S+/i/[a-z2-9]+)`)

// TestInstructorTab: with a web front, I on the class view of the
// instructor's SSH session shows a one-time link; it opens that
// instructor's class view in a browser tab, admitted as the instructor's
// key, where W watches a student, who is told, and P pairs; the same link opens
// nothing a second time, nor does a made-up token; and a key allowed
// one session at once, held by its SSH session, is refused the tab.
func TestInstructorTab(t *testing.T) {
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class: New(hub, "ssh -p 2222 CODE@localhost", t.Logf)})
	base := serveWebOf(t, s)

	prof := termtest.Open(t, termtest.Dial(t, addr, "prof", teacherKey), "xterm-256color", 120, 30)
	prof.WaitFor("Your name, as the class will see it")
	prof.Send("Prof\r")
	m := openLine.FindStringSubmatch(prof.WaitFor("is open · l shows the class"))
	if m == nil {
		t.Fatal("no class code")
	}
	code := m[1]
	prof.Send("l")
	prof.WaitFor("── roster")
	prof.Send("I")
	link := tabLinkOn.FindStringSubmatch(prof.WaitFor("your tab (opens one, for 2m): " + base + "/i/"))
	if link == nil {
		t.Fatal("no tab link on the class view")
	}
	route := "/ws" + strings.TrimPrefix(link[1], base)

	ann := termtest.NewBrowser(t).Open(t, base, "/ws/c/"+code, 80, 24)
	ann.WaitFor("Your name")
	ann.Send("ann\r")
	ann.WaitFor("you joined class " + code)

	// the tab is the instructor's: no name asked, the class view on l,
	// and W watches the student picked
	tab := termtest.NewBrowser(t).Open(t, base, route, 120, 30)
	tab.WaitFor("class "+code, "your instructor tab")
	tab.Send("l")
	tab.WaitFor("1 online", "ann")
	tab.Send("W")
	tab.WaitFor("watching ann")
	ann.WaitFor("watched by Prof")
	// and P pairs, with the student's yes
	tab.Send("P")
	ann.WaitFor("Y or N: may Prof type on your screen with you?")
	ann.Send("Y")
	ann.WaitFor("paired with Prof")
	tab.Send("\x1d") // ctrl+]: the pair ends, the watch goes on
	ann.WaitFor("watched by Prof")
	tab.Send("\x1b")
	ann.WaitUntil("the watch ended", func(s string) bool { return !strings.Contains(s, "watched by") })

	// spent: the same link opens nothing again; nor does a made-up one
	termtest.NewBrowser(t).Open(t, base, route, 80, 24).WaitFor("this instructor link is spent, expired or not this server's")
	termtest.NewBrowser(t).Open(t, base, "/ws/i/abcdefghjkmnpqrstuvwxyz2", 80, 24).WaitFor("this instructor link is spent")
}

// TestInstructorTabTakesTheKeysSlot: the instructor's tab is admitted by
// the one admission as a session of the instructor's key: with one
// session a key, the SSH session holding it, the tab is refused.
func TestInstructorTabTakesTheKeysSlot(t *testing.T) {
	teacherKey := termtest.NewKey(t)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey), SessionsPerKey: 1,
		Class: New(class.NewMemory(nil), "ssh -p 2222 CODE@localhost", t.Logf)})
	base := serveWebOf(t, s)
	prof := termtest.Open(t, termtest.Dial(t, addr, "prof", teacherKey), "xterm-256color", 120, 30)
	prof.WaitFor("Your name, as the class will see it")
	prof.Send("Prof\r")
	prof.WaitFor("is open · l shows the class")
	prof.Send("l")
	prof.WaitFor("── roster")
	prof.Send("I")
	link := tabLinkOn.FindStringSubmatch(prof.WaitFor(base + "/i/"))
	if link == nil {
		t.Fatal("no tab link on the class view")
	}
	tab := termtest.NewBrowser(t).Open(t, base, "/ws"+strings.TrimPrefix(link[1], base), 80, 24)
	tab.WaitFor("a key may have 1 sessions open at once")
}
