package lab

import (
	"os"
	"runtime/debug"
	"testing"

	"locksim/sim/simtest/testmain"
)

// TestMain runs the tests, or, with childModeEnv set, this test binary as
// a search's child process (see testChild).
func TestMain(m *testing.M) {
	if mode := os.Getenv(childModeEnv); mode != "" {
		os.Exit(testChild(mode))
	}
	// the tests allocate much and briefly (Lua states, servers, scenes),
	// and under -race every collection frees shadow memory too: collecting
	// at four times the live heap, not twice, costs a tenth less CPU
	debug.SetGCPercent(400)
	testmain.Run(m)
}
