package play

import (
	"context"
	"testing"
)

// TestFollowerWaitsForTheInstructor: a follower's answer is kept and the
// story stays at the question until the instructor runs the move; a
// follower who did not answer is passed when the instructor moves on,
// and their own run still answers.
func TestFollowerWaitsForTheInstructor(t *testing.T) {
	ctx := context.Background()
	open := func() (*Session, Driver, int) {
		s, err := Open(ctx, Position{Version: PositionVersion, Scene: "gc-pause", Seed: 5}, embedded(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(ctx) })
		o := s.Options()
		o.Predict, o.Follow = true, true
		s.Configure(o)
		at := s.Scene.PredictAt(s.MoveLabels())
		d := Driver{S: s}
		d.Run(s.SeekTo(at))
		if !s.Asking || s.Snap.Pos != at {
			t.Fatalf("at the question (step %d): asking %v at %d", at, s.Asking, s.Snap.Pos)
		}
		return s, d, at
	}

	s, d, at := open()
	if err := d.Do(DoN(Select, 1)); err != nil {
		t.Fatal(err)
	}
	if s.Asking || s.Guess != 1 || s.Snap.Pos != at || s.Revealed {
		t.Fatalf("after answering: asking %v, guess %d, step %d (want %d), revealed %v", s.Asking, s.Guess, s.Snap.Pos, at, s.Revealed)
	}
	d.Run(s.SeekTo(at + 1)) // the instructor runs the move
	if !s.Revealed || s.Actual < 0 || s.Guess != 1 {
		t.Fatalf("after the move: revealed %v, actual %d, guess %d", s.Revealed, s.Actual, s.Guess)
	}

	s, d, at = open()
	d.Run(s.SeekTo(at + 2)) // the instructor moved on; no answer was given
	if s.Snap.Pos != at+2 || !s.Passed || s.Asking || !s.Revealed || s.Actual < 0 {
		t.Fatalf("passed: step %d (want %d), passed %v, asking %v, revealed %v, actual %d", s.Snap.Pos, at+2, s.Passed, s.Asking, s.Revealed, s.Actual)
	}
}
