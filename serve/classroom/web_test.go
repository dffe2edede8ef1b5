package classroom

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/serve"
	"locksim/serve/termtest"
	"locksim/sim/simtest"
)

// TestClassOverWeb: a browser joins the class an instructor opened over
// SSH by its link (/c/CODE), gives its name once, follows, and its
// prediction is counted in the instructor's poll; the same browser,
// coming back by the link from another site, is the same student (one
// roster row), not asked its name again.
func TestClassOverWeb(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class: New(hub, "ssh -p 2222 CODE@localhost", t.Logf)})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.ServeWeb(l, "", "") }()
	base := "http://" + l.Addr().String()

	teacher, code := openClass(t, addr, teacherKey)
	teacher.Send("/gc-pause\r")
	teacher.WaitFor("Frozen while holding the lock", " 0/")
	teacher.Send("F")
	teacher.WaitFor("the class is asked to follow")

	br := termtest.NewBrowser(t)
	navigate := func() {
		// a link clicked on another site: a top-level GET, which a
		// SameSite=Lax cookie goes with
		req, _ := http.NewRequest("GET", base+"/c/"+code, nil)
		req.Header.Set("Referer", "https://chat.example.org/room")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Sec-Fetch-Mode", "navigate")
		resp, err := br.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("/c/%s: %s", code, resp.Status)
		}
	}
	navigate()
	tab := br.Open(t, base, "/ws/c/"+code, 100, 30)
	tab.WaitFor("Your name, as the class will see it")
	tab.Send("wen\r")
	tab.WaitFor("the instructor asks the class to follow", "F follows")
	tab.Send("F")
	tab.WaitFor("following the instructor", "Frozen while holding the lock", " 0/")

	teacher.Send("...") // to the question
	teacher.WaitFor(" 3/", "Ask the room before the server answers")
	tab.WaitFor(" 3/", "following the instructor · 1-3 your prediction")
	tab.Send("2")
	tab.WaitFor("You predicted", " 3/")
	teacher.Send("l")
	teacher.WaitFor("1 of 1 answered", "wen", "predicted 2")
	tab.Send("q")
	tab.WaitEnd()

	navigate()
	again := br.Open(t, base, "/ws/c/"+code, 100, 30)
	s2 := again.WaitFor("following the instructor", " 3/")
	if strings.Contains(s2, "Your name") {
		t.Fatalf("the browser was asked its name again:\n%s", s2)
	}
	roster, err := hub.Roster(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range roster {
		if m.Role == class.Student {
			rows = append(rows, m.Name)
		}
	}
	if len(rows) != 1 || rows[0] != "wen" {
		t.Fatalf("the class's students: %q, want the one browser as wen", rows)
	}
}

// TestProjectorTab: with a web front, the instructor who opens a class is
// shown a projector link (and no student is); the link opens the class's
// projector in a browser tab, following the instructor with no SSH; a
// made-up token opens nothing.
func TestProjectorTab(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	teacherKey := termtest.NewKey(t)
	hub := class.NewMemory(nil)
	s, addr := testServer(t, serve.Config{AskName: true, Instructors: instructorsFile(t, teacherKey),
		Class: New(hub, "ssh -p 2222 CODE@localhost", t.Logf)})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.ServeWeb(l, "", "") }()
	base := "http://" + l.Addr().String()

	tm := termtest.Open(t, termtest.Dial(t, addr, "prof", teacherKey), "xterm-256color", 220, 30)
	tm.WaitFor("Your name, as the class will see it")
	tm.Send("Prof\r")
	screen := tm.WaitFor("is open · l shows the class")
	m := openLine.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no class code:\n%s", screen)
	}
	code := m[1]
	// the class view has the link whole, on a row of its own
	tm.Send("l")
	desk := tm.WaitFor("── roster", "projector tab: "+base+"/p/")
	link := regexp.MustCompile(`(?m)^\s*projector tab: (\S+/p/[a-z2-9]+)\s*$`).FindStringSubmatch(desk)
	if link == nil {
		t.Fatalf("the class view has no row of the projector link:\n%s", desk)
	}
	tm.Send("l")
	tm.Send("/gc-pause\r")
	tm.WaitFor("Frozen while holding the lock", " 0/")
	tm.Send("F")
	tm.WaitFor("the class is asked to follow")

	student := termtest.NewBrowser(t).Open(t, base, "/ws/c/"+code, 220, 30)
	student.WaitFor("Your name")
	student.Send("ann\r")
	// joined, and the class heard: its line, which stays (the note "you
	// joined class", which the ask to follow's note may replace before a
	// frame is drawn, is no event to wait for); no frame drawn up to it
	// had the link
	student.WaitFor("the instructor asks the class to follow")
	if raw := student.RawSince(0); strings.Contains(raw, "/p/") {
		t.Fatalf("a student was shown the projector link:\n%s", student.Screen())
	}

	route := "/ws" + strings.TrimPrefix(link[1], base)
	projector := termtest.NewBrowser(t).Open(t, base, route, 120, 30)
	projector.WaitFor("projector: following the instructor", "Frozen while holding the lock", " 0/")
	tm.Send(".")
	tm.WaitFor(" 1/")
	projector.WaitFor(" 1/")

	bad := termtest.NewBrowser(t).Open(t, base, "/ws/p/abcdefghjkmnpqrstuvw", 80, 24)
	bad.WaitFor("this projector link is not one of this server's")
}
