package storycode

import (
	"runtime/debug"
	"testing"

	"locksim/sim/simtest/testmain"
)

func TestMain(m *testing.M) {
	// collecting at four times the live heap, not twice (as lab's TestMain):
	// under -race every collection frees shadow memory too, and GODEBUG=gctrace=1
	// counted 91 collections at 100, 13 at 400
	debug.SetGCPercent(400)
	testmain.Run(m)
}
