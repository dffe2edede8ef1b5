package play

import (
	"context"
	"testing"
)

// FuzzParsePosition: whatever comes in from outside (a file, a code, a
// follower's message), reading it never panics, and a position that reads
// also opens without a panic.
func FuzzParsePosition(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"scene":"fencing","seed":7,"own":[{"at":2,"kind":"wait","ms":5000}],"step":7,"prediction":{"chosen":1}}`,
		`{"version":1,"scene":"gc-pause","settings":{"pause":1,"TTL":2},"step":4}`,
		`{"version":1,"scene":"redlock","own":[{"at":3,"kind":"stop","node":"C"}],"step":9}`,
		`{"version":1,"scene":"choose","quiz":{"at":2,"answers":[0,1,-1,5]}}`,
		`{"version":1,"scene":"race","step":1}`,
	} {
		f.Add([]byte(seed))
	}
	b := embedded(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		pos, err := ParsePosition(data)
		if err != nil {
			return
		}
		if s, err := started(context.Background(), pos, b); err == nil {
			s.Close(context.Background())
		}
	})
}

// TestActFromOutside: an action's number comes from outside too (a key, a
// classroom message): out of range, it does nothing rather than panic.
func TestActFromOutside(t *testing.T) {
	s, err := started(context.Background(), Position{Version: PositionVersion, Scene: "gc-pause"}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	d := Driver{S: s}
	for _, v := range []Verb{Knob, Node, Select, Answer, Seek} {
		for _, n := range []int{-1, 99, -1 << 40} {
			cmd, _ := s.Act(DoN(v, n))
			d.Run(cmd)
		}
	}
	if got := s.Position(); got.Settings["pause"] != 0 || got.Settings["TTL"] != 0 {
		t.Errorf("out-of-range settings changed the story: %+v", got.Settings)
	}
}

// TestReopenedAnswerIsNotReportedAgain: a position with its prediction
// opens past the question without reporting the answer a second time.
func TestReopenedAnswerIsNotReportedAgain(t *testing.T) {
	ctx := context.Background()
	reports := 0
	pos := Position{Version: PositionVersion, Scene: "gc-pause", Seed: 1, Step: 10, Prediction: &Prediction{Chosen: 1}}
	s, err := Open(ctx, pos, Env{Backend: embedded(t), ID: 1, Options: Options{Predict: true, Answered: func(string, int, bool) { reports++ }}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	(&Driver{S: s}).Run(s.Start(nil))
	if s.Snap.Pos != 10 || s.Guess != 1 || reports != 0 {
		t.Errorf("at %d with guess %d, %d reports; want step 10, guess 1 and no report", s.Snap.Pos, s.Guess, reports)
	}
}
