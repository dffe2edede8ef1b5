package classroom

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// TestWatchInClass (slow tier): over a real server, the instructor picks
// a student in the class view and watches their live screen, a student
// over SSH, then in a tab: W, the student's screen in place of the
// instructor's with "watched by" on the student's; esc leaves; then a
// pair the student says yes to and ends with ctrl+]; the class report
// keeps both watches in the student's row; a projector cannot be
// watched, nor a student of another class.
func TestWatchInClass(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	for _, name := range []string{"ssh", "web"} {
		t.Run(name, func(t *testing.T) { watchInClass(t, name) })
	}
}

func watchInClass(t *testing.T, transport string) {
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	classes := New(hub, "ssh -p 2222 CODE@localhost", t.Logf)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class: classes, Commands: map[string]serve.Command{"report": ReportAt(hub, atReport)}})
	d := termtest.SSH(addr)
	if transport == "web" {
		d = termtest.Web(serveWebOf(t, s))
	}
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann := joinClassOn(t, d, code, "ann")
	ann.WaitFor("Frozen while holding the lock", " 0/")

	teacher.Send("l")
	teacher.WaitFor("W watch", "ann")
	teacher.Send("W")
	// the student's 100x30 in the 100x29 under the watcher's header: its
	// last rows
	screen := teacher.WaitFor("watching ann (100x30, cropped)", "Frozen while holding the lock", "following the instructor")
	if strings.Contains(screen, "W watch") {
		t.Fatalf("the class view shows through the watched screen:\n%s", screen)
	}
	own := ann.WaitFor("watched by Prof · ctrl+] ends it")
	if !strings.HasPrefix(own, "watched by Prof · ctrl+] ends it\n") {
		t.Fatalf("the student's line is not their top row:\n%s", own)
	}
	teacher.Send("\x1b")
	teacher.WaitFor("W watch")
	ann.WaitUntil("the line gone", func(s string) bool { return !strings.Contains(s, "watched by") })

	teacher.Send("W")
	teacher.WaitFor("watching ann")
	teacher.Send("P")
	ann.WaitFor("Y or N: may Prof type on your screen with you?")
	ann.Send("Y")
	ann.WaitFor("paired with Prof")
	teacher.WaitFor("paired with ann")
	ann.Send("\x1d") // ctrl+]
	teacher.WaitFor("ann ended the watch")
	ann.WaitUntil("the line gone", func(s string) bool { return !strings.Contains(s, "Prof") })

	// the report: the student's summary row names both watches
	prof := termtest.Dial(t, addr, "prof", teacherKey)
	deadline := time.Now().Add(termtest.Hang)
	for {
		out, errOut, status := termtest.Run(t, prof, "report "+code)
		if status != 0 {
			t.Fatalf("report: status %d, %s", status, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		at := slices.Index(rows[0], "watched by")
		var cell string
		for _, r := range rows[1:] {
			if r[4] == "ann" && r[6] == class.AllScenes {
				cell = r[at]
				if strings.Count(cell, "Prof ") == 2 && strings.Contains(cell, ", paired ") && r[13] == class.ReportVersion {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the report's watched by for ann: %q\n%s", cell, out)
		}
		time.Sleep(50 * time.Millisecond) // the row is put as the watch ends: wait for it
	}
}

// TestShowInClass (slow tier): the instructor who watches a student asks
// to show their screen on the class's projector (R); N says no, and the
// projector shows nothing of it; at the class's open question, with the
// student's answer on their screen, a yes is held: the projector shows
// its own screen (the question, without its answer) and says the
// student's screen waits; leaving the watch ends the show; past the
// question (the move run), the projector draws the student's screen and
// the student's line says so; R takes it off, and the student's ctrl+]
// ends the watch.
func TestShowInClass(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	_, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class: New(hub, "ssh -p 2222 CODE@localhost", t.Logf)})
	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann := joinClassOn(t, termtest.SSH(addr), code, "ann")
	ann.WaitFor("Frozen while holding the lock", " 0/")
	projector := termtest.Open(t, termtest.Dial(t, addr, code, teacherKey), "xterm-256color", 100, 30)
	projector.WaitFor("projector: following the instructor", " 0/")

	teacher.Send("l")
	teacher.WaitFor("W watch")
	teacher.Send("W")
	teacher.WaitFor("watching ann", "R projector")
	teacher.Send("R")
	ann.WaitFor("Y or N: may Prof show your screen to the room?")
	ann.Send("N")
	teacher.WaitFor("watching ann · they said no")
	if s := projector.Screen(); strings.Contains(s, "ann") {
		t.Fatalf("the projector shows ann's screen after her no:\n%s", s)
	}
	// at the class's question, with ann's answer on her screen: held
	teacher.Send("\x1b")
	teacher.WaitFor("W watch")
	teacher.Send("l") // the scene
	teacher.Send("...")
	teacher.WaitFor(" 3/", "Ask the room before the server answers")
	projector.WaitFor(" 3/", "Ask the room before the server answers")
	ann.WaitFor(" 3/", "1-3 your prediction")
	ann.Send("2")
	ann.WaitFor("You predicted")
	teacher.Send("l")
	teacher.WaitFor("W watch")
	teacher.Send("W")
	teacher.WaitFor("watching ann")
	teacher.Send("R")
	ann.WaitFor("may Prof show your screen to the room")
	ann.Send("Y")
	screen := projector.WaitFor("ann's screen waits: the room's question is open", "Ask the room before the server answers")
	if strings.Contains(screen, "shown with their yes") || strings.Contains(screen, "You predicted") {
		t.Fatalf("the projector shows ann's screen at the open question:\n%s", screen)
	}
	// leaving the watch ends the show
	teacher.Send("\x1b")
	teacher.WaitFor("W watch")
	projector.WaitUntil("no show", func(s string) bool { return !strings.Contains(s, "ann's screen") })
	ann.WaitUntil("no line", func(s string) bool { return !strings.Contains(s, "watched by") })

	// past the question (the move run): shown, for the debrief
	teacher.Send("l")
	teacher.Send(".")
	projector.WaitFor(" 4/")
	teacher.Send("l")
	teacher.WaitFor("W watch")
	teacher.Send("W")
	teacher.WaitFor("watching ann")
	teacher.Send("R")
	ann.WaitFor("may Prof show your screen to the room")
	ann.Send("Y")
	projector.WaitFor("ann's screen, shown with their yes", " 4/", "You predicted")
	ann.WaitFor("watched by Prof, the projector · ctrl+] ends it")
	teacher.WaitFor("on the projector too · R takes it off")
	teacher.Send("R")
	projector.WaitUntil("its own screen again", func(s string) bool { return !strings.Contains(s, "ann's screen") })
	ann.WaitFor("watched by Prof · ctrl+] ends it")
	ann.Send("\x1d")
	teacher.WaitFor("ann ended the watch")
}
