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
	teacher.WaitFor("Frozen while holding the lock", "0/10")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	ann := joinClassOn(t, d, code, "ann")
	ann.WaitFor("Frozen while holding the lock", "0/10")

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
	ann.WaitFor("Prof asks to pair, to type with you: Y yes · N no")
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
