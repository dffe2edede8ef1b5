package class

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/scenes/progress"
)

// TestSummaryCountsEveryQuestion: a scene whose lesson asks several
// questions (lost-reply's stories, each its own) counts each one in the
// summary and the report, not only the latest answer the progress keeps
// for the scene: four given, two right, and the scene's row lists the
// four in the lesson's order.
func TestSummaryCountsEveryQuestion(t *testing.T) {
	sc := scenes.Find("lost-reply")
	if sc == nil || len(sc.Lesson) < 4 {
		t.Fatal("lost-reply's lesson should walk four stories or more")
	}
	m := student("k1", "ann", play.Position{}, -1, false)
	m.V = RowVersion
	m.Answers = map[string]Answer{}
	// answered in the lesson's order backwards: the report orders them
	chosen := []int{1, 0, 2, 0}
	for i := 3; i >= 0; i-- {
		q := Question{Scene: sc.ID, Settings: nonZero(sc.Lesson[i]), Name: PredictQuestion}
		if len(q.Settings) == 0 {
			q.Settings = nil
		}
		if _, _, ok := q.Text(); !ok {
			t.Fatalf("lesson story %d asks no question", i)
		}
		actual := chosen[i]
		if i%2 == 1 {
			actual = -1 // wrong, or its replies made none true
		}
		m.Answers[q.Key()] = Answer{Q: q, Chosen: chosen[i], Ran: true, Actual: actual, At: t0.Add(time.Duration(3-i) * time.Minute)}
	}
	// the progress keeps the latest answer per scene only
	m.Prog = progress.Progress{Answers: map[string]progress.Answer{sc.ID: {Chosen: 0, Right: true}}}
	if s := Summarize(m); s.Asked != 4 || s.Right != 2 {
		t.Errorf("summary: %d asked, %d right, want 4 and 2", s.Asked, s.Right)
	}
	var buf bytes.Buffer
	if err := WriteReport(&buf, Info{Code: "k7m2q", Opened: t0}, []Member{m}, t0); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[1][8:10]; got[0] != "4" || got[1] != "2/4" {
		t.Errorf("the summary row's prediction and right: %q, want 4 and 2/4", got)
	}
	for _, r := range rows[2:] {
		if r[6] == sc.ID {
			if r[8] != "2 1 3 1" || r[9] != "yes no yes no" {
				t.Errorf("lost-reply's row: prediction %q, right %q; want \"2 1 3 1\" and \"yes no yes no\"", r[8], r[9])
			}
			return
		}
	}
	t.Error("no row of lost-reply")
}
