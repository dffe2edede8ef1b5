package play

import (
	"context"
	"slices"
	"strings"
	"testing"

	"locksim/scenes"
)

// TestNewSettingAsksAgain: a prediction belongs to the story and settings
// it was made in. Answered at gc-pause's TTL 30 s, it is gone once t sets
// 60 s: the story, replayed to the same moment, stops at the question and
// asks, nothing is judged against the old answer, and the position (what a
// code carries) has no prediction.
func TestNewSettingAsksAgain(t *testing.T) {
	ctx := context.Background()
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "gc-pause", Seed: 5}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	o := s.Options()
	o.Predict = true
	s.Configure(o)
	at := s.Scene.PredictAt(s.MoveLabels())
	d := Driver{S: s}
	d.Run(s.SeekTo(at))
	if err := d.Do(DoN(Select, 0)); err != nil {
		t.Fatal(err)
	}
	if s.Snap.Pos != at+1 || !s.Revealed || s.Position().Prediction == nil {
		t.Fatalf("answered: step %d (want %d), revealed %v, position %+v", s.Snap.Pos, at+1, s.Revealed, s.Position().Prediction)
	}
	knob := -1
	for i, k := range s.Scene.Knobs {
		if k.Name == "TTL" {
			knob = i
		}
	}
	if knob < 0 {
		t.Fatal("gc-pause has no TTL setting")
	}
	if err := d.Do(DoN(Knob, knob)); err != nil {
		t.Fatal(err)
	}
	if s.Guess != -1 || s.Revealed || s.Position().Prediction != nil {
		t.Errorf("after the new TTL: guess %d, revealed %v, position's prediction %+v", s.Guess, s.Revealed, s.Position().Prediction)
	}
	if !s.Asking || s.Snap.Pos != at {
		t.Errorf("after the new TTL the story should stand at its question (step %d) asking: step %d, asking %v", at, s.Snap.Pos, s.Asking)
	}
	if dis := s.Disclose(Learner); !dis.Open || dis.State || dis.Answer {
		t.Errorf("after the new TTL, the disclosure: %+v", dis)
	}
}

// TestAStorysOwnSettingIsNotOffered: extend's GET story renews with SET
// IFEQ GET whatever r says, so r there changes nothing and says so, the
// story keeps playing what it played, and its heading names what it sends.
func TestAStorysOwnSettingIsNotOffered(t *testing.T) {
	ctx := context.Background()
	sc := scenes.Find("extend")
	story, renewal := -1, -1
	for i, k := range sc.Knobs {
		switch k.Name {
		case "story":
			story = i
		case "renewal":
			renewal = i
		}
	}
	get := slices.Index(sc.Knobs[story].Values, "GET after takeover")
	if story < 0 || renewal < 0 || get < 0 {
		t.Fatalf("extend's knobs: %+v", sc.Knobs)
	}
	s, err := started(ctx, Position{Version: PositionVersion, Scene: "extend", Seed: 5, Settings: map[string]int{"story": get}}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	if got := sc.Describe(s.Params); got != "story: GET after takeover, renewal: SET IFEQ GET" {
		t.Errorf("the GET story's heading: %q", got)
	}
	d := Driver{S: s}
	if err := d.Do(DoN(Knob, renewal)); err != nil {
		t.Fatal(err)
	}
	if s.Params["renewal"] != 0 || !strings.Contains(s.Flash, "renewal is its own, SET IFEQ GET") {
		t.Errorf("r in the GET story: renewal %d, flash %q", s.Params["renewal"], s.Flash)
	}
	// every story once: the GET story is not played twice over r's values
	copied := *sc
	copied.Variants = nil
	n := 0
	for _, p := range copied.Stories() {
		if sc.Value(p, "story") == "GET after takeover" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the GET story is among every combination %d times", n)
	}
}

// TestCyclingASettingBackReturns: a setting changed at the question keeps
// the learner at the question of each story that asks one, wherever it
// stands in it, and cycling through every value back to the first comes
// back to the step the learner left, the question open. Before, each
// change kept the moment of the last story shown, and a shorter one left
// the learner further back each time: release's m through its six modes
// ended at step 1, lost-reply's r back to SET NX at step 2, not the
// question at 5.
func TestCyclingASettingBackReturns(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ scene, knob string }{{"release", "release"}, {"lost-reply", "retry"}} {
		s, err := started(ctx, Position{Version: PositionVersion, Scene: c.scene, Seed: 5}, embedded(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(ctx) })
		o := s.Options()
		o.Predict = true
		s.Configure(o)
		knob := slices.IndexFunc(s.Scene.Knobs, func(k scenes.Knob) bool { return k.Name == c.knob })
		if knob < 0 {
			t.Fatalf("%s has no setting %s", c.scene, c.knob)
		}
		at := s.QuestionAt()
		d := Driver{S: s}
		d.Run(s.SeekTo(at))
		if at <= 0 || s.Snap.Pos != at || !s.Asking {
			t.Fatalf("%s: at step %d asking %v, want its question at %d", c.scene, s.Snap.Pos, s.Asking, at)
		}
		for range s.Scene.Knobs[knob].Values {
			if err := d.Do(DoN(Knob, knob)); err != nil {
				t.Fatal(err)
			}
			if q := s.QuestionAt(); q >= 0 && (s.Snap.Pos != q || !s.Asking) {
				t.Errorf("%s, %s: step %d asking %v, want the question at step %d", c.scene, scenes.FormatSettings(s.Scene, s.Params), s.Snap.Pos, s.Asking, q)
			}
			if dis := s.Disclose(Learner); s.Asking && (dis.State || dis.Answer) {
				t.Errorf("%s, %s: the question is open, yet the disclosure %+v", c.scene, scenes.FormatSettings(s.Scene, s.Params), dis)
			}
		}
		if s.Params[c.knob] != 0 || s.Snap.Pos != at || !s.Asking {
			t.Errorf("%s: cycled %s back to %d: step %d asking %v, want step %d asking", c.scene, c.knob, s.Params[c.knob], s.Snap.Pos, s.Asking, at)
		}
	}
}
