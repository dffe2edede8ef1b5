package scenes

import (
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

// The fencing counter, and its value before the story, so the two grants
// hand out 33 and 34 as in the essay.
const (
	fenceKey   = "resource:fence"
	fenceStart = 32
)

// fencingScene is scene 7: the gc-pause story again, but every grant comes
// with a fencing token and the resource refuses a token lower than one it
// has already accepted.
func fencingScene() *Scene {
	ttl, pause := sim.CourseTTL, 35*time.Second
	return &Scene{
		ID: "fencing", Kind: Story, Wait: 5 * time.Second, Shortest: 2 * time.Second,
		Build:   func(Params) sim.Script { return pauseStory(ttl, pause, true) },
		Predict: before(answerOf("A", sim.OpFencedWrite, -1, ledger.FencedOK, ledger.FencedNo), "A writes"),
		Say:     func(v Frame, said *Said) { sayPause(v, said, ttl, pause) },
	}
}
