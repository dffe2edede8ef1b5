package scenes

import (
	"time"

	"locksim/sim"
)

// fenceKey is the counter the fencing tokens come from; fenceStart is its
// value before the story, so the two INCRs hand out 33 and 34 as in the essay.
const (
	fenceKey   = "resource:fence"
	fenceStart = 32
)

// fencingScene is scene 7: the gc-pause story again, but every holder also
// takes a fencing token and the resource refuses a token older than one it
// has already accepted.
func fencingScene() *Scene {
	ttl, pause := lease, 35*time.Second
	return &Scene{
		ID: "fencing", Dive: "R2.02.2 · fencing tokens", Title: "The resource says no",
		Scheduler: true, Wait: 5 * time.Second,
		Build:   func(Params) sim.Script { return pauseStory(ttl, pause, true) },
		Explain: func(v View) Explanation { return explainPause(v, ttl, pause, true) },
	}
}
