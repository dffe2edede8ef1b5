package play

import (
	"context"
	"testing"
)

// TestOwnMoveKeepsTheQuestion: a move of the learner's own put in before
// the question leaves it asked, one step later, with the state hidden (an
// edited run names its later moves by the actors' next steps, so the
// question was no longer found by its label: it vanished, and the keys as
// read showed its answer); at the question itself an own move is refused
// until the learner answers, since it could play the decisive moment
// (timeout's wait) first.
func TestOwnMoveKeepsTheQuestion(t *testing.T) {
	ctx := context.Background()
	for _, id := range []string{"gc-pause", "key-naming", "crash-gap", "extend", "timeout"} {
		s, err := Open(ctx, Position{Version: PositionVersion, Scene: id, Seed: 5}, Env{Backend: embedded(t), Options: Options{Predict: true}})
		if err != nil {
			t.Fatal(err)
		}
		d := Driver{S: s}
		d.Run(s.Start(nil))
		at := s.QuestionAt()
		d.Run(s.SeekTo(at - 1))
		if err := d.Do(Do(Wait)); err != nil {
			t.Fatal(err)
		}
		if s.QuestionAt() != at+1 || s.Snap.Pos != at || s.Asking {
			t.Errorf("%s, w a step before the question (step %d): question at %d, step %d, asking %v", id, at, s.QuestionAt(), s.Snap.Pos, s.Asking)
		}
		d.Run(s.SeekTo(at + 1))
		if dis := s.Disclose(Learner); s.Snap.Pos != at+1 || !s.Asking || dis.State || !dis.Open {
			t.Errorf("%s, at the question after the wait: step %d, asking %v, %+v", id, s.Snap.Pos, s.Asking, dis)
		}
		if err := d.Do(Do(Wait)); err != nil {
			t.Fatal(err)
		}
		if s.Snap.Pos != at+1 || !s.Asking || s.Err == "" {
			t.Errorf("%s, w at the question: step %d, asking %v, error %q", id, s.Snap.Pos, s.Asking, s.Err)
		}
		s.Close(ctx)
	}
}
