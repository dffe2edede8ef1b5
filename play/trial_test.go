package play

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"locksim/scenes"
	"locksim/sim"
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
	s, err := started(ctx, pos, embedded(t))
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
	o, err := started(ctx, again, embedded(t))
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
	s, err := c.OpenAt(Position{Version: PositionVersion, Scene: "race", Seed: 1, Trial: getDelTrial()}, race)
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
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 2, Trial: rec, Step: 9}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if v := s.Explanation().Verdict; !strings.Contains(v, "replies unlike the trial's: 1") {
		t.Errorf("the verdict of a trial replayed with other replies: %q", v)
	}
}

// trialsOfEachWay are a small trial of each way of acquiring the race's
// trials put to the test, as TrialFrom records them.
func trialsOfEachWay() []*TrialRecord {
	return []*TrialRecord{
		{Trial: 1, Variant: "SET NX PX", Moves: []TrialMove{
			{Worker: "w1", US: 0, Kind: "SET NX PX", MS: 30000, Reply: "OK"},
			{Worker: "w2", US: 30, Kind: "SET NX PX", MS: 30000, Reply: "(nil)"},
		}},
		{Trial: 4, Variant: "SETNX+EXPIRE", Anomaly: "a key with no TTL", Moves: []TrialMove{
			{Worker: "w1", US: 0, Kind: "SETNX", Reply: "(integer) 1"},
			{Worker: "w2", US: 40, Kind: "SETNX", Reply: "(integer) 0"},
			{Worker: "w1", US: 50, Kind: "crash"},
		}},
		getSetTrial(),
		getDelTrial(),
	}
}

// getSetTrial is a GET-then-SET trial: w1 and w2 both find the key free,
// both SET it without NX; w3's GET comes after w1's SET and stays out.
func getSetTrial() *TrialRecord {
	return &TrialRecord{Trial: 3, Variant: "GET, then SET", Anomaly: "two holders at once", Moves: []TrialMove{
		{Worker: "w1", US: 0, Kind: "GET", Reply: "(nil)"},
		{Worker: "w2", US: 40, Kind: "GET", Reply: "(nil)"},
		{Worker: "w1", US: 90, Kind: "SET PX", MS: 30000, Reply: "OK"},
		{Worker: "w3", US: 100, Kind: "GET", Reply: `"…"`},
		{Worker: "w2", US: 120, Kind: "SET PX", MS: 30000, Reply: "OK"},
	}}
}

// TestTrialStoryReadsEveryCommand: stepped through, a trial of each way of
// acquiring never says of a worker that has sent a command that it has
// sent nothing, in the readout of the step or with the worker selected,
// nor leaves its card at "waiting". (A GET-then-SET trial said "w1 has not
// sent anything yet" right under w1> GET resource:lock, its GET carrying
// no lock operation the ledger could read.)
func TestTrialStoryReadsEveryCommand(t *testing.T) {
	ctx := context.Background()
	trials := trialsOfEachWay()
	getSet := trials[2]
	for _, rec := range trials {
		t.Run(rec.Variant, func(t *testing.T) {
			s, err := started(ctx, Position{Version: PositionVersion, Scene: "race", Seed: 2, Trial: rec}, embedded(t))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close(ctx)
			d := Driver{S: s}
			for s.Snap.Pos < len(s.Snap.Moves) {
				if err := d.Do(Do(Step)); err != nil {
					t.Fatal(err)
				}
				sent := map[string]string{}
				for _, e := range s.Snap.Events {
					if e.Kind == sim.Command && e.Move >= 0 && e.Actor != "" {
						sent[e.Actor] = e.Actor + "> " + e.Cmd + " → " + e.Reply
					}
				}
				for i, a := range s.Snap.Actors {
					said, ok := sent[a.Name]
					if !ok {
						continue
					}
					nothing := s.Text.Fill("waiting", map[string]string{"actor": a.Name})
					s.Sel = -1
					if r := s.Explanation().Readout; strings.Contains(r, nothing) {
						t.Errorf("step %d, after %s: the readout says %q", s.Snap.Pos, said, r)
					}
					s.Sel = i
					ex := s.Explanation()
					if strings.Contains(ex.Readout, nothing) {
						t.Errorf("step %d, after %s, %s selected: the readout says %q", s.Snap.Pos, said, a.Name, ex.Readout)
					}
					if c := ex.Cards[i]; slices.Contains(c.Lines, "waiting") {
						t.Errorf("step %d, after %s: %s's card says %q", s.Snap.Pos, said, a.Name, c.Lines)
					}
				}
				s.Sel = -1
				// a GET before a SET is read for what its reply says
				if last := s.Snap.Events[len(s.Snap.Events)-1]; rec == getSet && strings.HasPrefix(last.Cmd, "GET ") {
					want := last.Actor + "'s GET returned w1's token"
					if last.IsNil() {
						want = last.Actor + "'s GET answered (nil) at +0.000s: the key was free, so " + last.Actor + " will SET it next"
					}
					if r := s.Explanation().Readout; !strings.Contains(r, want) {
						t.Errorf("step %d, after %s> %s → %s: the readout says %q, want %q", s.Snap.Pos, last.Actor, last.Cmd, last.Reply, r, want)
					}
				}
			}
		})
	}
}
