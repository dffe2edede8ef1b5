package cli

import (
	"testing"

	"locksim/play"
	"locksim/serve"
)

// TestHeldRaceCodeCarriesItsOutcome: while a class is asked the race's
// question, a race code that carries its outcome (its SETs have run) is
// past the question, whatever its step, and is refused like a code past
// it; the race's code without one, at the question, is served. It was
// served with its outcome, which answers the question.
func TestHeldRaceCodeCarriesItsOutcome(t *testing.T) {
	c := serve.Call{Held: map[string]bool{"race": true}}
	at := play.Position{Version: play.PositionVersion, Scene: "race", Seed: 9}
	if r := heldPast(c, at, 0); r != "" {
		t.Errorf("the race's code at its question, the class asked: refused %q; want it served", r)
	}
	ran := at
	ran.Race = &play.RaceRecord{Shots: []play.RaceShot{{Worker: "w3", Order: 1, Reply: "OK"}, {Worker: "w1", Order: 2, Reply: "(nil)"},
		{Worker: "w2", Order: 3, Reply: "(nil)"}, {Worker: "w4", Order: 4, Reply: "(nil)"}}}
	if r := heldPast(c, ran, 0); r == "" {
		t.Errorf("the race's code with its outcome, the class asked: served; want it refused")
	}
	if r := heldPast(serve.Call{}, ran, 0); r != "" {
		t.Errorf("the race's code with its outcome, no class asked: refused %q; want it served", r)
	}
}
