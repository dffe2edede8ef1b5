package classroom

import (
	"strings"
	"testing"

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
// over SSH under a name no row has; `ssh HOST report CODE -format canvas`
// from the instructor's key writes the key's row and the name's row as
// joined (0 points: they played nothing), the row nobody joined as empty,
// and names the student of no row on stderr.
func TestReportBookOverSSH(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	ro := &gradebook.Roster{} // filled once the student's key is made
	scoring, err := gradebook.ReadScoring(strings.NewReader(`{"scenes": ["race"], "lab_level": 0}`))
	if err != nil {
		t.Fatal(err)
	}
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class:    New(hub, "ssh -p 2222 CODE@localhost", t.Logf),
		Commands: map[string]serve.Command{"report": ReportBookAt(hub, ro, scoring, atReport)}})
	ada := termtest.SSH(addr).New(t)
	key := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ada.Key().PublicKey())))
	read, err := gradebook.ReadRoster(strings.NewReader("name,sis id,section,ssh key\n" +
		"Ada Lovelace,S-1,A,\"" + key + "\"\nGrace Hopper,S-2,A,\nAlan Turing,S-3,B,\n"))
	if err != nil {
		t.Fatal(err)
	}
	*ro = *read

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
	teacher.Send("l")
	teacher.WaitFor("3 online")

	out, errOut, status := termtest.Run(t, termtest.Dial(t, addr, "prof", teacherKey), "report "+code+" -format canvas")
	want := "Student,ID,SIS User ID,SIS Login ID,Section,locksim race\nPoints Possible,,,,,3\n" +
		"\"Lovelace, Ada\",,S-1,,A,0\n\"Hopper, Grace\",,S-2,,A,0\n\"Turing, Alan\",,S-3,,B,\n"
	if status != 0 || strings.ReplaceAll(out, "\r\n", "\n") != want {
		t.Errorf("report -format canvas: status %d, stderr %q\nstdout:\n%s\nwant:\n%s", status, errOut, out, want)
	}
	if !strings.Contains(errOut, "1 of class "+code+"'s students match no roster row and are not in the file: \"Mallory\"") {
		t.Errorf("stderr %q, want Mallory named as of no row", errOut)
	}
}
