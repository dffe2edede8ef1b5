package lab

import (
	"os"
	"testing"

	"locksim/sim/simtest/testmain"
)

// TestMain runs the tests, or, with childModeEnv set, this test binary as
// a search's child process (see testChild).
func TestMain(m *testing.M) {
	if mode := os.Getenv(childModeEnv); mode != "" {
		os.Exit(testChild(mode))
	}
	testmain.Run(m)
}
