package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/scenes"
	"locksim/views"
)

// TestSummaryLongestChoiceWhole: at 80x24, a student predicts at the
// question with the course's longest choice; the student's own question
// panel and the instructor's summary (S) show every choice whole, the
// summary with the prediction's count (a choice beside its bar was cut at
// 80 columns, over 48), and, the move not run, that no run has made it:
// ann's prediction is not yet run, neither true nor false.
func TestSummaryLongestChoiceWhole(t *testing.T) {
	t.Parallel()
	longest, where := longestChoice(t)
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	settings := scenes.Params{"retry": 1} // lost SET, retried with SET NX GET
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "lost-reply", Settings: settings, Present: true}, 80, 24)
	choices := teacher.a.pl.Choices()
	if !strings.Contains(strings.Join(choices, "\n"), longest) {
		t.Fatalf("the course's longest choice is now %q (%s): test its story", longest, where)
	}
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 80, 24)
	drive(t, teacher.a, keys("F")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	hear(t, ann, "the instructor at the question", leadAt("lost-reply", at))
	drive(t, ann.a, keys("F")...)
	whole := func(what, v, numbered string) {
		t.Helper()
		screenFits(t, v, 80, 24)
		plain := views.Strip(v)
		for i, c := range choices {
			if !strings.Contains(plain, itoa(int64(i+1))+numbered+c) {
				t.Errorf("%s does not show choice %d whole (%q):\n%s", what, i+1, c, v)
			}
		}
	}
	whole("the student's question", ann.a.View(), ") ")
	drive(t, ann.a, keys("2")...)
	if m := teacher.a.cls.row("k-ann"); m.Pos.Prediction == nil {
		hear(t, teacher, "ann's prediction", rowOf("k-ann", func(m class.Member) bool { return m.Pos.Prediction != nil }))
	}
	drive(t, teacher.a, keys("lS")...)
	if !isSummary(teacher.a.pages.top()) {
		t.Fatalf("S on the class view shows no summary:\n%s", teacher.a.View())
	}
	v := teacher.a.View()
	whole("the summary", v, " ")
	if plain := views.Strip(v); !strings.Contains(plain, "1 (100.0%)") || strings.Contains(plain, "more lines below") {
		t.Errorf("the summary should count ann's prediction, on one page:\n%s", v)
	}
	if !strings.Contains(v, "no run has made the move yet: 1 not yet run, neither true nor false") || !regexp.MustCompile(`ann +0/\d+ +0 of 0 +1 `).MatchString(v) {
		t.Errorf("before the move the summary should say no run has made it:\n%s", v)
	}
}
