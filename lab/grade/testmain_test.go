package grade

import (
	"runtime/debug"
	"testing"

	"locksim/sim/simtest/testmain"
)

// TestMain runs the tests collecting at four times the live heap, not
// twice: grades allocate much and briefly (Lua states, servers, scenes),
// and under -race every collection frees shadow memory too (a tenth less
// CPU).
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	testmain.Run(m)
}
