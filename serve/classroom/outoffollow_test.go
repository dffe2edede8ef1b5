package classroom

import (
	"encoding/csv"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// screen is a served session's terminal as a test drives it: an SSH
// client's (termtest.SSH) or a browser tab's (termtest.Web).
type screen interface {
	Send(keys string)
	WaitFor(want ...string) string
	WaitUntil(what string, ok func(screen string) bool) string
}

// TestOutOfFollowServed: served over SSH and in a browser tab, a student
// who leaves follow mode while the class's question is open may step back,
// but their own run asks the question and holds the move past it ("the
// class is still answering this question") until the instructor reveals;
// their answer is counted in the poll, and in the report not as a blind
// one.
func TestOutOfFollowServed(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	for _, via := range []string{"ssh", "tab"} {
		t.Run(via, func(t *testing.T) {
			teacherKey := termtest.NewKey(t)
			hub := class.NewMemory(nil)
			s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
				Class:    New(hub, "ssh -p 2222 CODE@localhost", t.Logf),
				Commands: map[string]serve.Command{"report": ReportAt(hub, atReport)}})
			teacher, code := openClass(t, addr, teacherKey)
			teacher.Send("/gc-pause\r")
			teacher.WaitFor("Frozen while holding the lock", " 0/")
			teacher.Send("F")
			teacher.WaitFor("the class is asked to follow")

			var ann screen
			if via == "ssh" {
				ann = termtest.Open(t, termtest.Dial(t, addr, code, termtest.NewKey(t)), "xterm-256color", 100, 30)
			} else {
				l, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				go func() { _ = s.ServeWeb(l, "", "") }()
				ann = termtest.NewBrowser(t).Open(t, "http://"+l.Addr().String(), "/ws/c/"+code, 100, 30)
			}
			ann.WaitFor("Your name, as the class will see it")
			ann.Send("ann\r")
			ann.WaitFor("the instructor asks the class to follow", "F follows")
			ann.Send("F")
			ann.WaitFor("following the instructor", " 0/")
			teacher.Send("...") // to the question
			teacher.WaitFor(" 3/", "Ask the room before the server answers")
			ann.WaitFor(" 3/", "following the instructor · 1-3 your prediction")

			// out of follow, she steps back, then her own run comes to the
			// question: it asks her, and holds the move past it
			ann.Send("F")
			ann.WaitFor("you left follow mode")
			ann.Send(",")
			ann.WaitFor(" 2/")
			ann.Send(".")
			ann.WaitFor(" 3/", "1-3 predict")
			ann.Send("2")
			ann.WaitFor("You predicted")
			ann.Send(".")
			if s := ann.WaitFor("the class is still answering this question", " 3/"); strings.Contains(s, " 4/") {
				t.Fatalf("the move ran past the class's open question:\n%s", s)
			}
			teacher.Send("l")
			teacher.WaitFor("1 of 1 answered", "ann", "predicted 2")
			teacher.Send(".") // the reveal
			teacher.WaitFor("their own runs answered")
			// ann's session hears the reveal through the class's store, on
			// a goroutine of its own: until it has, her move is held again,
			// with the same note. Each try starts a step back, which takes
			// the note away, so that a hold draws it afresh: the test waits
			// for what each key drew, never for a time.
			for try := 1; ; try++ {
				ann.Send(",")
				ann.WaitUntil("a step back, the note gone", func(s string) bool {
					return strings.Contains(s, " 2/") && !strings.Contains(s, "the class is still answering")
				})
				ann.Send(".")
				ann.WaitFor(" 3/")
				ann.Send(".")
				s := ann.WaitUntil("the move past the question, or its hold", func(s string) bool {
					return strings.Contains(s, " 4/") || strings.Contains(s, "the class is still answering")
				})
				if strings.Contains(s, " 4/") {
					break
				}
				if try == 100 {
					t.Fatalf("after the reveal ann's move is still held:\n%s", s)
				}
			}

			// her answer, judged by her run, is an answer of the poll
			cell := regexp.MustCompile(`^2 (right|wrong)$`)
			prof := termtest.Dial(t, addr, "prof", teacherKey)
			// her row reaches the class from her session's goroutine: a
			// hang guard, not a timing
			out, errOut, status := termtest.Run(t, prof, "report "+code)
			for deadline := time.Now().Add(hang); status == 0 && !strings.Contains(out, ",2 right") && !strings.Contains(out, ",2 wrong") && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				out, errOut, status = termtest.Run(t, prof, "report "+code)
			}
			if status != 0 {
				t.Fatalf("report: %d, %s", status, errOut)
			}
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			n := len(class.ReportHeader)
			found := false
			for _, r := range rows[1:] {
				if r[4] == "ann" && r[6] == class.AllScenes {
					found = len(r) == n+1+len(class.WatchColumns) && cell.MatchString(r[n])
				}
			}
			if !found || len(rows[0]) != n+1+len(class.WatchColumns) || !strings.HasPrefix(rows[0][n], "question gc-pause: ") {
				t.Fatalf("ann's answer in the report should be one answer, judged, not blind:\n%s", out)
			}
		})
	}
}
