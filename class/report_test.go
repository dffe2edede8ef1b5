package class

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"locksim/play"
	"locksim/scenes"
	"locksim/scenes/progress"
	"slices"
	"strings"
	"testing"
	"time"
)

func student(id, name string, pos play.Position, actual int, revealed bool) Member {
	return Member{ID: id, Name: name, Role: Student, Pos: pos, Actual: actual, Revealed: revealed, Online: true, Seen: t0}
}

func guessed(pos play.Position, chosen int) play.Position {
	pos.Prediction = &play.Prediction{Chosen: chosen}
	return pos
}

// TestTally counts the predictions of the students in the instructor's
// story, then what their own runs answered; a student gone after
// answering is still counted, one gone without an answer is not.
func TestTally(t *testing.T) {
	race := play.Position{Version: 1, Scene: "race"}
	ms := []Member{
		student("1", "ann", guessed(race, 1), -1, false),
		student("2", "bob", guessed(race, 1), -1, false),
		student("3", "cy", guessed(race, 2), -1, false),
		student("4", "di", race, -1, false), // no answer yet
		student("5", "ed", guessed(play.Position{Version: 1, Scene: "fencing"}, 0), -1, false),
		{ID: "6", Name: "teacher", Role: Instructor, Pos: race, Online: true, Seen: t0},
		{ID: "7", Name: "gone", Role: Student, Pos: guessed(race, 0), Online: true, Seen: t0.Add(-Gone)},
		{ID: "8", Name: "left", Role: Student, Pos: race, Online: false, Seen: t0},
	}
	p, ok := Tally(race, ms, t0)
	if !ok {
		t.Fatal("the race's question is no poll")
	}
	if p.State != Open || p.Of != 5 || p.Elsewhere != 1 || p.Answered != 4 || !slices.Equal(p.Guesses, []int{1, 2, 1}) {
		t.Fatalf("poll %+v", p)
	}
	if got, want := p.Headline(), "4 of 5 answered · most chose 2 (2)"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
	// di has not answered and is online; left is gone, gone answered
	if !slices.Equal(p.Waiting, []string{"di"}) || p.WaitingLine(80) != "waiting for: di" {
		t.Errorf("waiting %v, line %q", p.Waiting, p.WaitingLine(80))
	}
	// a tie names every answer it ties
	tie := Poll{Of: 32, Answered: 32, Guesses: []int{11, 11, 10}, Choices: []string{"a", "b", "c"}}
	if got, want := tie.Headline(), "32 of 32 answered · most chose 1 and 2, 11 each"; got != want {
		t.Errorf("tie headline %q, want %q", got, want)
	}
	many := Poll{Waiting: []string{"ada", "bo", "cy", "di", "ed", "flo"}}
	if got, want := many.WaitingLine(31), "waiting for: ada, bo and 4 more"; got != want {
		t.Errorf("waiting line at 31 columns %q, want %q", got, want)
	}
	if !strings.Contains(p.Question, "How many of them get OK?") || len(p.Choices) != 3 {
		t.Errorf("question %q, choices %q", p.Question, p.Choices)
	}
	// the runs answer
	ms[0], ms[1], ms[2] = student("1", "ann", guessed(race, 1), 1, true), student("2", "bob", guessed(race, 1), 1, true), student("3", "cy", guessed(race, 2), 1, true)
	lead := race
	lead.Step = 1
	p, _ = Tally(lead, ms, t0)
	if p.State != Revealed || p.Ran != 3 || !slices.Equal(p.Actual, []int{0, 3, 0}) {
		t.Fatalf("revealed poll %+v", p)
	}
	// a quiz asks no poll
	if _, ok := Tally(play.Position{Version: 1, Scene: "choose"}, ms, t0); ok {
		t.Error("a quiz made a poll")
	}
	// before the question
	if p, _ := Tally(gcPause(0), ms, t0); p.State != Before || p.Of != 0 {
		t.Errorf("before gc-pause's question: %+v", p)
	}
}

// TestReport writes the class report: a summary row per student, then a
// row per student and scene, each naming the class, the day it opened and
// when the report was written.
func TestReport(t *testing.T) {
	ann := student("0123456789abcdef", "ann, the first", play.Position{}, -1, false)
	ann.Prog = progress.Progress{Done: map[string]bool{"race": true, "gc-pause": true},
		Answers: map[string]progress.Answer{"race": {Chosen: 1, Right: true}, "gc-pause": {Chosen: 0, Right: false}},
		Scores:  map[string]progress.Score{"choose": {Right: 6, Of: 8}},
		Levels:  map[string]bool{"fix-1": true, "break-1": true}}
	ann.Spent = 47*time.Minute + 30*time.Second
	// two watches of ann's screen, one with a pair; a name a spreadsheet
	// would read as a formula comes second, inside the cell
	ann.Watches = []Watched{{By: "Prof", Start: t0.Add(10 * time.Minute), For: 3 * time.Minute, Paired: time.Minute, Pairs: 1},
		{By: "=Sam", Start: t0.Add(20 * time.Minute), For: 30 * time.Second}}
	// the lesson's two stories of gc-pause, each its own question
	first := Question{Scene: "gc-pause", Name: PredictQuestion}
	second := Question{Scene: "gc-pause", Settings: map[string]int{"pause": 2}, Name: PredictQuestion}
	ann.V = RowVersion
	ann.Answers = map[string]Answer{first.Key(): {Q: first, Chosen: 0, Ran: true, Actual: 1, At: t0},
		second.Key(): {Q: second, Chosen: 2, At: t0.Add(time.Minute), Blind: true, Actual: -1}}
	bob := student("k2", "bob", play.Position{}, -1, false)
	bob.V = RowVersion
	teacher := Member{ID: "t", Name: "teacher", Role: Instructor}
	info := Info{Code: "k7m2q", Name: "Tuesday 10:00", Opened: t0}
	written := t0.Add(3 * time.Hour)
	var buf bytes.Buffer
	if err := WriteReport(&buf, info, []Member{ann, bob, teacher}, written); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := len(ReportHeader)
	if !slices.Equal(rows[0][:n], ReportHeader) || len(rows) != 1+2+2*len(scenes.All()) {
		t.Fatalf("header %q, %d rows", rows[0], len(rows))
	}
	// a column per question, in the lesson's order, each with its own text
	if w := rows[0][len(rows[0])-3:]; !slices.Equal(w, WatchColumns) {
		t.Fatalf("the last columns %q, want %q", w, WatchColumns)
	}
	if qs := rows[0][n : len(rows[0])-3]; len(qs) != 2 || !strings.HasPrefix(qs[0], "question gc-pause: ") || !strings.Contains(qs[0], "it wakes at 35 s") ||
		!strings.HasPrefix(qs[1], "question gc-pause, pause 20 s: ") || !strings.Contains(qs[1], "it wakes at 20 s") {
		t.Fatalf("the question columns: %q", qs)
	}
	for _, r := range rows[1:] {
		if !slices.Equal(r[:4], []string{"k7m2q", "Tuesday 10:00", "2026-12-01", "2026-12-01T12:00:00Z"}) || r[13] != ReportVersion {
			t.Fatalf("a row that does not name the class and the report's version: %q", r)
		}
	}
	// the summary rows come first: every question of a scene counts
	// (gc-pause's two, and race's, kept by the progress only); right is of
	// the two whose run made the move (gc-pause's second has not run: it
	// is neither right nor wrong, and its scene row says not-run)
	want := fmt.Sprintf("ann, the first|0123456789ab|all|2/%d|3|1/2|6/8|47|break-1 fix-1|%s|1 wrong|3 blind|"+
		"Prof 2026-12-01T09:10:00Z 3m0s, paired 1m0s; =Sam 2026-12-01T09:20:00Z 30s|3.5|1.0", len(scenes.All()), ReportVersion)
	if got := strings.Join(rows[1][4:], "|"); got != want {
		t.Errorf("ann's summary row %q, want %q", got, want)
	}
	want = fmt.Sprintf("bob|k2|all|0/%d|0|0/0||0||%s|||||", len(scenes.All()), ReportVersion)
	if got := strings.Join(rows[2][4:], "|"); got != want {
		t.Errorf("bob's summary row %q, want %q", got, want)
	}
	byScene := map[string][]string{}
	for _, r := range rows[3:] {
		if r[4] == "ann, the first" && r[5] == "0123456789ab" {
			byScene[r[6]] = r
		}
	}
	if len(byScene) != len(scenes.All()) {
		t.Fatalf("%d of ann's scene rows, want %d", len(byScene), len(scenes.All()))
	}
	// a scene's row: each of its questions' answer, in the lesson's order
	v := ReportVersion
	for scene, want := range map[string][]string{
		"race":     {"yes", "2", "yes", "", "", "", v, "", "", "", "", ""},
		"gc-pause": {"yes", "1 3", "no not-run", "", "", "", v, "", "", "", "", ""},
		"choose":   {"no", "", "", "6/8", "", "", v, "", "", "", "", ""},
		"fencing":  {"no", "", "", "", "", "", v, "", "", "", "", ""},
	} {
		if got := byScene[scene][7:]; !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", scene, got, want)
		}
	}
}

func TestNewCodes(t *testing.T) {
	h := NewMemory(at0)
	seen := map[string]bool{}
	for i := range 200 {
		info, err := h.Open(context.Background(), fmt.Sprint("k", i))
		if err != nil || !ValidCode(info.Code) || seen[info.Code] {
			t.Fatalf("code %q, %v", info.Code, err)
		}
		seen[info.Code] = true
	}
	for _, bad := range []string{"", "abcd", "abcdef", "ABCDE", "abcd0", "abc:d", "../..", "a b c"} {
		if ValidCode(bad) {
			t.Errorf("%q is taken for a code", bad)
		}
	}
}

// TestReportNamesStayText: a name a student typed that a spreadsheet
// would run as a formula is written as text.
func TestReportNamesStayText(t *testing.T) {
	var buf bytes.Buffer
	info := Info{Code: "k7m2q", Name: "@class", Opened: t0}
	if err := WriteReport(&buf, info, []Member{student("k1", "=HYPERLINK(\"x\")", play.Position{}, -1, false), student("k2", "bob", play.Position{}, -1, false)}, t0); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, r := range rows[1:] {
		names[r[4]] = true
		if r[1] != "'@class" {
			t.Fatalf("the class's name in the report: %q", r[1])
		}
	}
	if !names[`'=HYPERLINK("x")`] || !names["bob"] || len(names) != 2 {
		t.Fatalf("names in the report: %v", names)
	}
}
