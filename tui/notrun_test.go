package tui

import (
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
	"locksim/views"
)

// TestEarlierPollNotRun: at gc-pause's second story, the class view's
// poll of the lesson's first question counts came true of the runs that
// made its move: ann's ran and came true, bob's has not run, so "1 of 1
// came true, 1 not yet run", never "1 of 2" (bob's is not wrong).
func TestEarlierPollNotRun(t *testing.T) {
	sc := scenes.Find("gc-pause")
	if len(sc.Lesson) < 2 {
		t.Fatal("gc-pause's lesson should walk two stories")
	}
	first := class.Question{Scene: sc.ID, Name: class.PredictQuestion}
	second := play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: sc.Lesson[1]}
	second.Step = play.QuestionAt(sc, scenes.Params(second.Settings), nil)
	if _, ok := class.QuestionOf(second); !ok || second.Step < 0 {
		t.Fatalf("gc-pause's second story asks no question: %+v", second)
	}
	ms := []class.Member{
		{V: class.RowVersion, ID: "k-ann", Name: "ann", Role: class.Student, Pos: second, Online: true, Seen: atClassNow(), Following: true,
			Answers: map[string]class.Answer{first.Key(): {Q: first, Chosen: 1, At: atClassNow(), Ran: true, Actual: 1}}},
		{V: class.RowVersion, ID: "k-bob", Name: "bob", Role: class.Student, Pos: second, Online: true, Seen: atClassNow(), Following: true,
			Answers: map[string]class.Answer{first.Key(): {Q: first, Chosen: 0, At: atClassNow(), Actual: -1}}},
	}
	d := everyWayIn()
	d.sync(deskState{lead: second, now: atClassNow(), students: ms, lesson: lessonOf(class.AskedOf(ms), sc.ID)})
	page := newPollPage(d, nil)
	v := words(page.View())
	if !strings.Contains(v, "earlier in the lesson: gc-pause") || !strings.Contains(v, "2 answered (1: 1, 2: 1, 3: 0) · 1 of 1 came true, 1 not yet run") {
		t.Errorf("the earlier poll should count came true of the runs that made the move:\n%s", page.View())
	}
}

// TestSummaryNotRunColumn: the summary's students table counts came
// true of the predictions whose run made the move, and says how many
// are not yet run: bea answered two questions, one run and true, one
// not run, and reads "1 of 1" and 1 not run, not "1 of 2".
func TestSummaryNotRunColumn(t *testing.T) {
	m := deskRoom(t, Classroom{}, Options{Seed: 4})
	first := class.Question{Scene: "gc-pause", Name: class.PredictQuestion}
	race := class.Question{Scene: "race", Name: class.PredictQuestion}
	bea := class.Member{V: class.RowVersion, ID: "k-bea", Name: "bea", Role: class.Student, Online: true, Seen: atClassNow(),
		Answers: map[string]class.Answer{
			first.Key(): {Q: first, Chosen: 1, At: atClassNow(), Ran: true, Actual: 1},
			race.Key():  {Q: race, Chosen: 0, At: atClassNow(), Actual: -1},
		}}
	drive(t, m.a, ClassMsg{Events: []class.Event{{Kind: class.KindMember, Member: &bea}}})
	drive(t, m.a, keys("S")...)
	v := views.Strip(m.a.View())
	if !isSummary(m.a.pages.top()) || !regexp.MustCompile(`name +finished +came true +not run +time`).MatchString(v) ||
		!regexp.MustCompile(`bea +0/\d+ +1 of 1 +1 +0s`).MatchString(v) {
		t.Errorf("the summary should say bea's 1 of 1 came true, 1 not run:\n%s", v)
	}
	if !strings.Contains(v, "no run has made the move yet: 1 not yet run, neither true nor false") {
		t.Errorf("race's question should say no run has made its move:\n%s", v)
	}
}
