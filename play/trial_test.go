package play

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"locksim/scenes"
)

// getDelTrial is a GET-then-DEL trial in which w1's 10 ms lease runs out
// between its GET and its DEL, w2 gets the lock in the gap, and w1's DEL
// deletes it.
func getDelTrial() *TrialRecord {
	return &TrialRecord{Trial: 7, Variant: "GET, then DEL", Anomaly: "a release deleted another's lock", Moves: []TrialMove{
		{Worker: "w1", US: 0, Kind: "SET NX PX", MS: 10, Reply: "OK"},
		{Worker: "w2", US: 200, Kind: "SET NX PX", MS: 10, Reply: "(nil)"},
		{Worker: "w1", US: 9500, Kind: "GET mine", Reply: `"…"`},
		{Worker: "w2", US: 11500, Kind: "SET NX PX", MS: 10, Reply: "OK"},
		{Worker: "w1", US: 11700, Kind: "DEL", Reply: "(integer) 1"},
	}}
}

// TestTrialOpensAsAStory: a position carrying a trial opens the race scene
// as a story of the trial's commands, one step each on the story clock;
// stepped to its end on the embedded server, the replies are the trial's
// and the ledger reads the anomaly: w1's DEL deleted w2's lock.
func TestTrialOpensAsAStory(t *testing.T) {
	ctx := context.Background()
	pos := Position{Version: PositionVersion, Scene: "race", Seed: 2, Trial: getDelTrial()}
	s, err := Open(ctx, pos, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if s.Scene.Kind != scenes.Story || s.Snap.Pos != 0 {
		t.Fatalf("a trial opened as kind %v at step %d, want a story at 0", s.Scene.Kind, s.Snap.Pos)
	}
	d := Driver{S: s}
	for s.Snap.Pos < len(s.Snap.Moves) {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, e := range s.Snap.Events {
		if e.Op != nil {
			got = append(got, e.Actor+" "+strings.Fields(e.Cmd)[0]+" → "+e.Reply)
		}
	}
	// w1's GET still finds its own token: its lease runs out after it
	token := `"` + s.Snap.Actors[0].Value + `"`
	want := []string{"w1 SET → OK", "w2 SET → (nil)", "w1 GET → " + token, "w2 SET → OK", "w1 DEL → (integer) 1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the trial replayed as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Ledger.ForeignDeletes() != 1 {
		t.Errorf("the ledger read %d releases of another's lock, want 1", s.Ledger.ForeignDeletes())
	}
	if v := s.Explanation().Verdict; !strings.Contains(v, "two holders at once YES") || !strings.Contains(v, "the replies are the trial's") {
		t.Errorf("the trial's verdict: %q", v)
	}
	if r := s.Explanation().Readout; !strings.Contains(r, "deleted w2's lock") {
		t.Errorf("the trial's readout at its end: %q", r)
	}
	if s.Snap.Now.Microseconds() != 11700 {
		t.Errorf("the story ended at %v, want the trial's 11.7 ms", s.Snap.Now)
	}
	// the place carries the trial: a code, a follower, a resume open it again
	back := s.Position()
	if !reflect.DeepEqual(back.Trial, pos.Trial) || back.Step != len(s.Snap.Moves) {
		t.Errorf("the position kept trial %+v at step %d", back.Trial, back.Step)
	}
	data, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParsePosition(data)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Open(ctx, again, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close(ctx)
	if o.Snap.Pos != back.Step || o.Ledger.ForeignDeletes() != 1 {
		t.Errorf("reopened at step %d with %d foreign deletes", o.Snap.Pos, o.Ledger.ForeignDeletes())
	}
}

func TestTrialPositionChecked(t *testing.T) {
	for _, c := range []struct {
		name string
		pos  Position
	}{
		{"another scene", Position{Version: 1, Scene: "gc-pause", Trial: getDelTrial()}},
		{"no move", Position{Version: 1, Scene: "race", Trial: &TrialRecord{}}},
		{"unknown kind", Position{Version: 1, Scene: "race", Trial: &TrialRecord{Moves: []TrialMove{{Worker: "w1", Kind: "FLUSHALL"}}}}},
		{"unknown worker", Position{Version: 1, Scene: "race", Trial: &TrialRecord{Moves: []TrialMove{{Worker: "w9", Kind: "GET"}}}}},
		{"back in time", Position{Version: 1, Scene: "race", Trial: &TrialRecord{Moves: []TrialMove{{Worker: "w1", US: 5, Kind: "GET"}, {Worker: "w2", US: 4, Kind: "GET"}}}}},
		{"past the end", Position{Version: 1, Scene: "race", Step: 99, Trial: getDelTrial()}},
	} {
		if err := c.pos.Check(); err == nil {
			t.Errorf("%s: a trial position was accepted", c.name)
		}
	}
	if err := (Position{Version: 1, Scene: "race", Step: 3, Trial: getDelTrial()}).Check(); err != nil {
		t.Error(err)
	}
}

// TestTrialFromTheCourse: the course opens a trial as the race scene's
// story (OpenPosition); r goes back from it to the race itself, fired for
// real; a trial saved as the place to continue from opens again.
func TestTrialFromTheCourse(t *testing.T) {
	ctx := context.Background()
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	race, err := c.Open(c.Index("race"), nil)
	if err != nil {
		t.Fatal(err)
	}
	Driver{S: race}.Run(race.Start(nil))
	s, err := c.OpenPosition(Position{Version: PositionVersion, Scene: "race", Seed: 1, Trial: getDelTrial()}, race)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(race.Run))
	if s.Trial() == nil || s.Scene.Kind != scenes.Story || c.At != c.Index("race") {
		t.Fatalf("the trial opened as kind %v, trial %v, at scene %d", s.Scene.Kind, s.Trial(), c.At)
	}
	if err := d.Do(Do(Step), Do(Step)); err != nil {
		t.Fatal(err)
	}
	if err := c.SaveMoment(s); err != nil {
		t.Fatal(err)
	}
	if back := c.LastPlace(); back.Trial == nil || back.Step != 2 {
		t.Errorf("the place to continue from is %+v", back)
	}
	if err := d.Do(Do(Replay)); err != nil {
		t.Fatal(err)
	}
	if s.Trial() != nil || s.Scene.Kind != scenes.Race || len(volleyShots(s.Snap)) != 4 {
		t.Errorf("r in a trial left kind %v, trial %v, %d shots", s.Scene.Kind, s.Trial(), len(volleyShots(s.Snap)))
	}
	s.Close(ctx)
	// a new course of the same learner continues in the trial
	c2 := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	c2.Prog = c.Prog
	o, err := c2.Open(c2.Index("race"), nil)
	if err != nil {
		t.Fatal(err)
	}
	Driver{S: o}.Run(o.Start(nil))
	defer o.Close(ctx)
	if o.Trial() == nil || o.Snap.Pos != 2 {
		t.Errorf("resumed at step %d, trial %v", o.Snap.Pos, o.Trial())
	}
}

// TestTrialRepliesDiffer: a trial whose server ran two close commands the
// other way round gets other replies when sent in the order sent; the
// verdict line says how many differ.
func TestTrialRepliesDiffer(t *testing.T) {
	ctx := context.Background()
	rec := getDelTrial()
	rec.Moves[3].Reply = "(nil)" // as if w1's DEL had run first
	s, err := Open(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 2, Trial: rec, Step: 9}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if v := s.Explanation().Verdict; !strings.Contains(v, "replies unlike the trial's: 1") {
		t.Errorf("the verdict of a trial replayed with other replies: %q", v)
	}
}
