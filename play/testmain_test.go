package play

import (
	"context"
	"testing"

	"locksim/sim"
	"locksim/sim/simtest/testmain"
)

func TestMain(m *testing.M) {
	testmain.Run(m)
}

// started opens pos through the door on b, asking the question where the
// scene has one, and starts it to rest: a place as a reader finds it.
func started(ctx context.Context, pos Position, b *sim.Backend) (*Session, error) {
	s, err := Open(ctx, pos, Env{Backend: b, ID: 1, Options: Options{Predict: true}})
	if err != nil {
		return nil, err
	}
	return s, Driver{S: s}.Start()
}
