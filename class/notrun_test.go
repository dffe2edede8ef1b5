package class

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"testing"

	"locksim/play"
	"locksim/scenes"
)

// TestNotRunIsNotWrong: the instructor leads gc-pause through its move,
// then stops at redlock's clock-jump question; both students answer it,
// and the instructor leaves without running the move. A prediction whose
// move has not run is neither true nor false: the summary counts it given
// and not run, not among those that came true or not; the report's
// summary row counts right of the runs that made the move ("1/1", not
// "1/2"), its redlock row says not-run (not "no"), and its question
// column gives the answer alone. All through the class's protocol
// (Join, Report, Leave) on the memory hub.
func TestNotRunIsNotWrong(t *testing.T) {
	ctx := within(t)
	hub := NewMemory(at0)
	info, err := hub.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	join := func(id, name string, role Role) *Part {
		p, err := Join(ctx, hub, info.Code, Member{ID: id, Name: name, Role: role}, at0)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	teacher, ann, bea := join("t", "teacher", Instructor), join("k-ann", "Ann", Student), join("k-bea", "Bea", Student)
	red := scenes.Find("redlock")
	story := slices.Index(red.Knobs[0].Values, "clock jump")
	if red.Knobs[0].Name != "story" || story < 0 {
		t.Fatalf("redlock has no clock-jump story: %+v", red.Knobs)
	}
	jump := play.Position{Version: play.PositionVersion, Scene: red.ID, Settings: map[string]int{"story": story}, Seed: 3}
	jump.Step = play.QuestionAt(red, scenes.Params(jump.Settings), nil)
	gcAt := play.QuestionAt(scenes.Find("gc-pause"), nil, nil)
	if jump.Step < 0 || gcAt < 0 {
		t.Fatalf("no question: redlock's clock jump at %d, gc-pause at %d", jump.Step, gcAt)
	}
	// the class follows the instructor: its answers are the poll's, none
	// blind
	teacher.AskFollow()
	teacher.Report(Member{Pos: gcPause(gcAt)})
	for _, s := range []*Part{ann, bea} {
		s.Heard([]Event{{Kind: KindLead, Lead: &Lead{Pos: gcPause(gcAt), Follow: true, Seq: 1}}}, nil)
		if ef := s.Follow(); !ef.Followed || !s.Following() {
			t.Fatalf("a student does not follow: %+v", ef)
		}
	}
	// gc-pause: asked, answered, its move run; Bea's came true, Ann's not
	for _, s := range []struct {
		p      *Part
		chosen int
	}{{ann, 0}, {bea, 1}} {
		s.p.Report(Member{Pos: guessed(gcPause(gcAt), s.chosen)})
		s.p.Report(Member{Pos: guessed(gcPause(gcAt+1), s.chosen), Revealed: true, Actual: 1})
	}
	// redlock's clock jump: both answer, the move never runs
	teacher.Report(Member{Pos: jump})
	ann.Report(Member{Pos: guessed(jump, 0)})
	bea.Report(Member{Pos: guessed(jump, 1)})
	for _, p := range []*Part{teacher, ann, bea} {
		p.Seat().Leave(ctx)
	}
	ms, err := hub.Roster(ctx, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Ann": "2 given, 1 ran, 0 right, 1 not run", "Bea": "2 given, 1 ran, 1 right, 1 not run"}
	for _, m := range ms {
		if m.Role != Student {
			continue
		}
		s := Summarize(m)
		if got := fmt.Sprintf("%d given, %d ran, %d right, %d not run", s.Asked, s.Ran, s.Right, s.NotRun()); got != want[m.Name] {
			t.Errorf("%s's summary: %s, want %s", m.Name, got, want[m.Name])
		}
	}
	for _, q := range AskedOf(ms) {
		got := fmt.Sprintf("%s: %d answered, %d ran, %d right, %d not run", q.Q.Scene, q.Answered, q.Ran, q.Right, q.NotRun())
		if w := map[string]string{"gc-pause": "gc-pause: 2 answered, 2 ran, 1 right, 0 not run", "redlock": "redlock: 2 answered, 0 ran, 0 right, 2 not run"}[q.Q.Scene]; got != w {
			t.Errorf("the class's answers %s, want %s", got, w)
		}
	}
	var buf bytes.Buffer
	if err := WriteReport(&buf, info, ms, t0); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	redCol := -1
	for i, h := range rows[0] {
		if len(h) > len(QuestionColumn+"redlock") && h[:len(QuestionColumn+"redlock")] == QuestionColumn+"redlock" {
			redCol = i
		}
	}
	if redCol < 0 {
		t.Fatalf("the report has no column for redlock's question: %q", rows[0])
	}
	got := map[string]string{}
	for _, r := range rows[1:] {
		if r[col("scene")] == AllScenes || r[col("scene")] == "redlock" || r[col("scene")] == "gc-pause" {
			got[r[col("student")]+" "+r[col("scene")]] = r[col("prediction")] + "|" + r[col("right")] + "|" + r[redCol]
		}
	}
	for k, w := range map[string]string{
		"Ann all": "2|0/1|1", "Ann gc-pause": "1|no|", "Ann redlock": "1|not-run|",
		"Bea all": "2|1/1|2", "Bea gc-pause": "2|yes|", "Bea redlock": "2|not-run|",
	} {
		if got[k] != w {
			t.Errorf("the report's %s row (prediction|right|redlock's question): %q, want %q", k, got[k], w)
		}
	}
}
