package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"
	"locksim/content"
	"locksim/scenes"
	"locksim/views"
)

// TestClassViewLongestChoiceWhole: at 80x24, with every way in on the
// class view (the SSH command and its note, the browser's page, the
// projector tab), the poll of the story with the course's longest choice
// shows every choice whole, while the question is open and once the move
// has run, with both counts (a choice beside its bar was cut at 80
// columns).
func TestClassViewLongestChoiceWhole(t *testing.T) {
	t.Parallel()
	longest, where := longestChoice(t)
	settings := scenes.Params{"retry": 1} // lost SET, retried with SET NX GET
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	room := Classroom{
		Join:      "ssh -p 2299 " + code + "@203.0.113.7 (the address you reached: behind a NAT or a port forward, use -public-addr)",
		Web:       "http://203.0.113.7:8099/c/" + code + " (the address you reached: behind a NAT or a proxy, use -public-url)",
		Projector: "http://203.0.113.7:8099/p/k7m2qabcdefghjkmnpqr",
		Now:       atClassNow,
	}
	teacher := joinRoom(t, hub, code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "lost-reply", Settings: settings, Present: true}, 80, 24, room)
	choices := teacher.a.pl.Choices()
	if !strings.Contains(strings.Join(choices, "\n"), longest) {
		t.Fatalf("the course's longest choice is now %q (%s): test its story", longest, where)
	}
	ann := joinAs(t, hub, code, class.Student, "k-ann", "ann", Options{Seed: 2}, 80, 24)
	drive(t, teacher.a, keys("F")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	hear(t, ann, "the instructor at the question", leadAt("lost-reply", at))
	drive(t, ann.a, keys("F")...)
	drive(t, ann.a, keys("2")...)
	if m := teacher.a.cls.row("k-ann"); m.Pos.Prediction == nil {
		hear(t, teacher, "ann's prediction", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Prediction != nil }))
	}
	whole := func(when, v string) {
		t.Helper()
		wholeAt80(t, "the class view "+when, v)
		plain := views.Strip(v)
		for i, c := range choices {
			if !strings.Contains(plain, itoa(int64(i+1))+" "+c) {
				t.Errorf("%s the class view does not show choice %d whole (%q):\n%s", when, i+1, c, v)
			}
		}
		if strings.Contains(plain, "more lines of the poll") {
			t.Errorf("%s the class view cuts the poll:\n%s", when, v)
		}
	}
	drive(t, teacher.a, keys("l")...)
	whole("at the open question", teacher.a.View())
	drive(t, teacher.a, keys("l.")...)
	hear(t, ann, "the move", leadAt("lost-reply", at+1))
	if m := teacher.a.cls.row("k-ann"); !m.Revealed {
		hear(t, teacher, "ann's run", rowOf("k-ann", func(m class.Member) bool { return m.Revealed }))
	}
	drive(t, teacher.a, keys("l")...)
	v := teacher.a.View()
	whole("after the move", v)
	if !strings.Contains(views.Strip(v), "their own runs answered (1 of 1 have run it):") || !strings.Contains(v, "1 (100.0%)") {
		t.Errorf("after the move the class view should count the predictions and what the run answered:\n%s", v)
	}
}

// longestChoice is the course's longest choice of any story's question,
// and where it is asked ("scene story").
func longestChoice(t *testing.T) (longest, where string) {
	t.Helper()
	for _, sc := range scenes.All() {
		if sc.Predict == nil {
			continue
		}
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range sc.Stories() {
			for _, c := range strings.Split(sc.Question(text, p, "choices"), "\n") {
				if len(c) > len(longest) {
					longest, where = c, sc.ID+" "+sc.Describe(p)
				}
			}
		}
	}
	return longest, where
}
