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
		s, err := started(ctx, Position{Version: PositionVersion, Scene: "gc-pause", Seed: 5}, embedded(t))
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

// TestSteppingBackReopensThePassedQuestion: a question passed to the class
// (the presenter's click, a follower the instructor moved on) is open again
// once the story is back at it: it is asked, and the state that answers it
// is hidden again, for the projector and for every follower.
func TestSteppingBackReopensThePassedQuestion(t *testing.T) {
	ctx := context.Background()
	for _, follow := range []bool{false, true} {
		s, err := started(ctx, Position{Version: PositionVersion, Scene: "gc-pause", Seed: 5}, embedded(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(ctx) })
		o := s.Options()
		o.Predict, o.Present, o.Follow = true, !follow, follow
		s.Configure(o)
		at := s.Scene.PredictAt(s.MoveLabels())
		d := Driver{S: s}
		d.Run(s.SeekTo(at))
		if follow {
			d.Run(s.SeekTo(at + 1)) // the instructor ran the move
		} else if err := d.Do(Do(Step)); err != nil { // the clicker
			t.Fatal(err)
		}
		if s.Snap.Pos != at+1 || !s.Passed || !s.Disclose(Projector).State {
			t.Fatalf("follow %v, after the move: step %d (want %d), passed %v, state shown %v", follow, s.Snap.Pos, at+1, s.Passed, s.Disclose(Projector).State)
		}
		if err := d.Do(Do(Back)); err != nil {
			t.Fatal(err)
		}
		if s.Snap.Pos != at || !s.Asking || s.Passed || s.Revealed {
			t.Fatalf("follow %v, back at the question: step %d (want %d), asking %v, passed %v, revealed %v", follow, s.Snap.Pos, at, s.Asking, s.Passed, s.Revealed)
		}
		for _, r := range []Role{Learner, Projector, Follower, Cast} {
			if d := s.Disclose(r); !d.Open || d.State || d.Checked || d.Answer {
				t.Errorf("follow %v, back at the question, role %d: %+v", follow, r, d)
			}
		}
		if d := s.Disclose(Instructor); !d.Key || !d.Answer || d.State {
			t.Errorf("follow %v: the instructor's answer key: %+v", follow, d)
		}
	}
}
