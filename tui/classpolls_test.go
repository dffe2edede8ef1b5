package tui

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"

	"locksim/class"
)

// TestTwoPollsOfALesson: gc-pause in presenter mode asks its question in
// both stories of its lesson (the pause past the lease, then one shorter
// than it). With ten students following, each poll keeps its own question
// text and its own answers: in the class view's model while the second is
// open, in the summary S, and in the report's question columns.
func TestTwoPollsOfALesson(t *testing.T) {
	const n = 10
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 120, 60)
	var studs []member
	for i := range n {
		studs = append(studs, joinAs(t, hub, info.Code, class.Student, fmt.Sprintf("k-%02d", i), fmt.Sprintf("s%02d", i), Options{Seed: uint64(10 + i)}, 80, 24))
	}
	drive(t, teacher.a, keys("F")...)
	// choice of student i in poll p: the first poll 7 say 2 and 3 say 1,
	// the second 6 say 1 and 4 say 2
	choose := func(p, i int) int {
		if p == 0 {
			return map[bool]int{true: 1, false: 0}[i < 7]
		}
		return map[bool]int{true: 0, false: 1}[i < 6]
	}
	poll := func(p int, pause int) {
		t.Helper()
		at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
		for teacher.a.pl.Snap.Pos < at {
			drive(t, teacher.a, keys(".")...)
		}
		if !teacher.a.pl.Asking || teacher.a.pl.Position().Settings["pause"] != pause {
			t.Fatalf("poll %d: the instructor is not at the question of pause %d (step %d, settings %v)", p, pause, teacher.a.pl.Snap.Pos, teacher.a.pl.Position().Settings)
		}
		atQuestion := func(e class.Event) bool {
			return e.Kind == class.KindLead && e.Lead.Pos.Step == at && e.Lead.Pos.Settings["pause"] == pause
		}
		for i, s := range studs {
			if p == 0 {
				hear(t, s, "the instructor at the first question", atQuestion)
				drive(t, s.a, keys("F")...)
			} else if !s.a.pl.Asking {
				hear(t, s, "the instructor at the second question", atQuestion)
			}
			if !s.a.pl.Asking {
				t.Fatalf("poll %d: student %d is not asked at step %d:\n%s", p, i, s.a.pl.Snap.Pos, s.a.View())
			}
			drive(t, s.a, keys(string(rune('1'+choose(p, i))))...)
		}
		for _, s := range studs {
			id := s.seat.Member().ID
			if m := teacher.a.cls.row(id); m.Pos.Prediction == nil || m.Pos.Settings["pause"] != pause {
				hear(t, teacher, id+"'s answer", rowOf(id, func(m class.Member) bool { return m.Pos.Prediction != nil && m.Pos.Settings["pause"] == pause }))
			}
		}
		drive(t, teacher.a, keys(".")...) // all have answered: the move runs
		for _, s := range studs {
			id := s.seat.Member().ID
			hear(t, s, "the move", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Pos.Step == at+1 })
			if m := teacher.a.cls.row(id); !m.Revealed || m.Pos.Settings["pause"] != pause {
				hear(t, teacher, id+"'s run", rowOf(id, func(m class.Member) bool { return m.Revealed && m.Pos.Settings["pause"] == pause }))
			}
		}
	}
	poll(0, 0)
	// on through the first story's end into the lesson's second story
	for i := 0; teacher.a.pl.Position().Settings["pause"] != 2; i++ {
		if i > 40 {
			t.Fatalf("the lesson never reached its second story: %+v", teacher.a.pl.Position())
		}
		drive(t, teacher.a, keys(".")...)
	}
	poll(1, 2)

	// the class view's model: both polls, each with its own text and counts
	drive(t, teacher.a, keys("l")...)
	lesson := teacher.a.cls.board.lesson
	if len(lesson) != 2 {
		t.Fatalf("the class view holds %d polls of the lesson, want 2: %+v", len(lesson), lesson)
	}
	want := []struct {
		label, text string
		chosen      []int
	}{
		{"gc-pause", "it wakes at 35 s", []int{3, 7, 0}},
		{"gc-pause, pause 20 s", "it wakes at 20 s", []int{6, 4, 0}},
	}
	for i, w := range want {
		q := lesson[i]
		if q.Q.Label() != w.label || !strings.Contains(q.Question, w.text) || !slices.Equal(q.Chosen, w.chosen) || q.Answered != n || q.Ran != n || q.Blind != 0 {
			t.Errorf("poll %d: %s %q %v (%d answered, %d ran, %d blind); want %s %q %v", i, q.Q.Label(), q.Question, q.Chosen, q.Answered, q.Ran, q.Blind, w.label, w.text, w.chosen)
		}
	}
	p, ok := class.Tally(teacher.a.pl.Position(), teacher.a.students(), classNow)
	if !ok || p.Q.Settings["pause"] != 2 || !slices.Equal(p.Guesses, want[1].chosen) || p.Answered != n || p.Of != n {
		t.Errorf("the poll at the instructor's place: %+v", p)
	}
	v := teacher.a.View()
	for _, s := range []string{"10 of 10 answered · most chose 1 (6)", "earlier in the lesson: gc-pause", "10 answered (1: 3, 2: 7, 3: 0)"} {
		if !strings.Contains(v, s) {
			t.Errorf("the class view lacks %q:\n%s", s, v)
		}
	}

	// the summary: a section per question, each its own text and histogram
	drive(t, teacher.a, keys("S")...)
	_, lines := teacher.a.pages.top().(*standinPage).body(120)
	sum := strings.Join(lines, "\n")
	first, second := strings.Index(sum, "wakes at 35 s"), strings.Index(sum, "wakes at 20 s")
	if first < 0 || second < first || !strings.Contains(sum, "gc-pause, pause 20 s") || strings.Count(sum, "predictions came true") != 2 {
		t.Errorf("the summary does not show both polls in the lesson's order:\n%s", sum)
	}

	// the report: a column per question, each student's two answers
	roster, err := hub.Roster(context.Background(), info.Code)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := class.WriteReport(&buf, info, roster, classNow); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	k := len(class.ReportHeader)
	if h := rows[0][k : len(rows[0])-len(class.WatchColumns)]; len(h) != 2 || !strings.Contains(h[0], "wakes at 35 s") || !strings.HasPrefix(h[1], "question gc-pause, pause 20 s: ") || !strings.Contains(h[1], "wakes at 20 s") {
		t.Fatalf("the report's question columns: %q", h)
	}
	counts := [2]map[string]int{{}, {}}
	for _, r := range rows[1:] {
		if r[6] != class.AllScenes {
			continue
		}
		for j := range 2 {
			chosen, _, _ := strings.Cut(r[k+j], " ")
			counts[j][chosen]++
		}
	}
	if fmt.Sprint(counts) != "[map[1:3 2:7] map[1:6 2:4]]" {
		t.Errorf("the report's answers per question: %v\n%s", counts, buf.String())
	}
}

// TestOutOfFollowAtTheOpenPoll: a student who leaves follow mode while
// the class's question is open may explore (a step back), but their own
// run asks them the question as everyone is asked, and holds the move
// past it, "the class is still answering this question", with what would
// answer it hidden, until the instructor reveals; their answer counts in
// the poll as an answer, not a blind one. Once revealed, their step runs
// the move in their own run.
func TestOutOfFollowAtTheOpenPoll(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 100, 30)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 2}, 100, 30)
	bob := joinAs(t, hub, info.Code, class.Student, "k-bob", "bob", Options{Seed: 3}, 100, 30)
	drive(t, teacher.a, keys("F")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	for _, s := range []member{ann, bob} {
		hear(t, s, "the instructor at the question", leadAt("gc-pause", at))
		drive(t, s.a, keys("F")...)
	}
	drive(t, bob.a, keys("1")...)
	// ann leaves follow mode and explores: a step back is hers to take
	drive(t, ann.a, keys("F")...)
	if ann.a.cls.part.Following() {
		t.Fatal("F did not leave follow mode")
	}
	drive(t, ann.a, keys(",")...)
	if ann.a.pl.Snap.Pos != at-1 {
		t.Fatalf("ann's step back: at %d, want %d", ann.a.pl.Snap.Pos, at-1)
	}
	// her own run comes to the class's open question: asked, and held
	drive(t, ann.a, keys(".")...)
	if ann.a.pl.Snap.Pos != at || !ann.a.pl.Asking {
		t.Fatalf("ann's own run at the question: step %d (want %d), asking %v", ann.a.pl.Snap.Pos, at, ann.a.pl.Asking)
	}
	drive(t, ann.a, keys("2")...)
	drive(t, ann.a, keys(".")...)
	v := ann.a.View()
	if ann.a.pl.Snap.Pos != at || ann.a.pl.Revealed || !strings.Contains(v, "the class is still answering this question") || !strings.Contains(v, "hidden until the instructor runs the move") {
		t.Fatalf("ann's answer should wait at the question, the reply hidden (step %d, revealed %v):\n%s", ann.a.pl.Snap.Pos, ann.a.pl.Revealed, v)
	}
	hear(t, teacher, "ann's answer", rowOf("k-ann", func(m class.Member) bool { return len(m.Answers) == 1 }))
	if m := teacher.a.cls.row("k-bob"); len(m.Answers) == 0 {
		hear(t, teacher, "bob's answer", rowOf("k-bob", func(m class.Member) bool { return len(m.Answers) == 1 }))
	}
	p, ok := class.Tally(teacher.a.pl.Position(), teacher.a.students(), classNow)
	if !ok || p.Answered != 2 || p.Blind != 0 || p.Guesses[1] != 1 {
		t.Fatalf("the poll: %+v", p)
	}
	// the reveal: ann's step now runs the move in her own run
	drive(t, teacher.a, keys(".")...)
	hear(t, ann, "the move", leadAt("gc-pause", at+1))
	drive(t, ann.a, keys(".")...)
	if ann.a.pl.Snap.Pos != at+1 || !ann.a.pl.Revealed {
		t.Fatalf("after the reveal ann's step should run the move: step %d, revealed %v", ann.a.pl.Snap.Pos, ann.a.pl.Revealed)
	}
	hear(t, teacher, "ann's run", rowOf("k-ann", func(m class.Member) bool { return m.Revealed }))
	for _, a := range teacher.a.cls.row("k-ann").Answers {
		if a.Blind || a.Chosen != 1 || !a.Ran {
			t.Errorf("ann's answer should be an answer of the poll, judged by her run: %+v", a)
		}
	}
}
