package classroom

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/class"
	"locksim/gradebook"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"

	gossh "golang.org/x/crypto/ssh"
)

// TestReportBookOverSSH: a class over a real server, with a roster: a
// student joins over SSH with the key their row names (under another
// name), one from a browser under their row's name in other case, one
// over SSH under a name no row has, one from a browser under a nickname
// whom the instructor matches by hand in the class view (m, the row,
// enter); `ssh HOST report CODE -format canvas` from the instructor's key
// writes the key's row, the name's row and the hand's row as joined (0
// points: they played nothing), the row nobody joined as empty, and
// names the student of no row on stderr; -format moodle writes them by
// SIS id.
func TestReportBookOverSSH(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	ro := &gradebook.Roster{} // filled once the student's key is made
	scoring, err := gradebook.ReadScoring(strings.NewReader(`{"scenes": ["race"], "lab_level": 0}`))
	if err != nil {
		t.Fatal(err)
	}
	classes := New(hub, "ssh -p 2222 CODE@localhost", t.Logf)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class:    classes,
		Commands: map[string]serve.Command{"report": ReportBookAt(hub, ro, scoring, atReport)}})
	ada := termtest.SSH(addr).New(t)
	key := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ada.Key().PublicKey())))
	read, err := gradebook.ReadRoster(strings.NewReader("name,sis id,section,ssh key\n" +
		"Ada Lovelace,S-1,A,\"" + key + "\"\nGrace Hopper,S-2,A,\nAlan Turing,S-3,B,\nSam Lee,S-4,B,\n"))
	if err != nil {
		t.Fatal(err)
	}
	*ro = *read
	classes.Enrol(ro.Enrolled())

	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")
	join := func(w *termtest.Who, name string) {
		tm := w.Open(t, termtest.At{Class: code}, 100, 30)
		tm.WaitFor("Your name, as the class will see it")
		tm.Send(name + "\r")
		tm.WaitFor("the instructor asks the class to follow")
	}
	join(ada, "the countess")
	join(termtest.Web(serveWebOf(t, s)).New(t), "GRACE hopper")
	join(termtest.SSH(addr).New(t), "Mallory")
	join(termtest.Web(serveWebOf(t, s)).New(t), "S. Lee")
	teacher.Send("l")
	teacher.WaitFor("4 online", "? no row (2): Mallory, S. Lee")
	// by name: GRACE hopper, Mallory, S. Lee, the countess
	teacher.Send("\x1b[B\x1b[B")
	teacher.WaitFor("▸?S. Lee")
	teacher.Send("m")
	teacher.WaitFor("match S. Lee to the row under ▸: enter", "▸ line 4   Alan Turing")
	teacher.Send("\x1b[B")
	teacher.WaitFor("▸ line 5   Sam Lee")
	teacher.Send("\r")
	teacher.WaitFor("S. Lee is roster line 5 (Sam Lee) in the class's grades", "? no row (1): Mallory")
	waitMatch(t, hub, code, "sis:S-4")

	out, errOut, status := termtest.Run(t, termtest.Dial(t, addr, "prof", teacherKey), "report "+code+" -format canvas")
	want := "Student,ID,SIS User ID,SIS Login ID,Section,locksim race\nPoints Possible,,,,,3\n" +
		"\"Lovelace, Ada\",,S-1,,A,0\n\"Hopper, Grace\",,S-2,,A,0\n\"Turing, Alan\",,S-3,,B,\n\"Lee, Sam\",,S-4,,B,0\n"
	if status != 0 || strings.ReplaceAll(out, "\r\n", "\n") != want {
		t.Errorf("report -format canvas: status %d, stderr %q\nstdout:\n%s\nwant:\n%s", status, errOut, out, want)
	}
	if !strings.Contains(errOut, "1 of class "+code+"'s students match no roster row and are not in the file: \"Mallory\"") {
		t.Errorf("stderr %q, want Mallory named as of no row", errOut)
	}
	out, errOut, status = termtest.Run(t, termtest.Dial(t, addr, "prof", teacherKey), "report "+code+" -format moodle -moodle-id idnumber -zero")
	want = "idnumber,locksim race\nS-1,0\nS-2,0\nS-3,0\nS-4,0\n"
	if status != 0 || strings.ReplaceAll(out, "\r\n", "\n") != want || !strings.Contains(errOut, "\"Mallory\"") {
		t.Errorf("report -format moodle: status %d, stderr %q\nstdout:\n%s\nwant:\n%s", status, errOut, out, want)
	}
}

// waitMatch waits until class code's store keeps a student matched by
// hand to ref: the seat puts it from its own goroutine, and the report
// reads the store.
func waitMatch(t *testing.T, hub class.Hub, code, ref string) {
	t.Helper()
	w, err := hub.Watch(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for {
		ms, err := hub.Roster(t.Context(), code)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Row == ref {
				return
			}
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		_, err = w.Next(ctx) // the store's next change, the match among them
		cancel()
		if err != nil {
			t.Fatalf("no student matched to %s in the store: %v", ref, err)
		}
	}
}
