package scenes

import "locksim/sim"

// chooseScene is scene 13, a quiz: eight situations to sort into
// efficiency locks (a second holder only wastes work) and correctness
// locks (a second holder does harm), each with the tool that fits. The
// situations, their assumptions and the key are in content/text/choose.txt;
// the quiz sends no command, so its script is empty.
func chooseScene() *Scene {
	return &Scene{
		ID: "choose", Kind: Quiz,
		Build: func(Params) sim.Script { return sim.Script{} },
	}
}
