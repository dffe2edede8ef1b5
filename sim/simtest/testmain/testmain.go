// Package testmain runs a package's tests for its TestMain: only the
// tests of the tier it was built for (see tier.go), and without the second
// the race detector waits at every clean exit.
//
// Built with -race, a process that exits with status 0 sleeps for
// GORACE's atexit_sleep_ms (1000 ms by default) so that goroutines still
// running can report a race. Every test package pays that second, and with
// sixteen of them on two cores it was a quarter of the quick tier's wall
// time. The testing package already fails a test during which the race
// detector reported a race (so m.Run then returns 1, and a non-zero exit
// skips the wait anyway), which leaves the wait nothing to find that the
// tests have not.
package testmain

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
)

// gcPercent is the collector's target in every test binary: the tests
// allocate much and briefly (Lua states, servers, scenes, frames), and
// under -race each collection frees the detector's shadow memory too.
// GODEBUG=gctrace=1 counted 91 collections at Go's default 100 and 13 at
// 400 in storycode's tests, and lab's spent a tenth less CPU.
const gcPercent = 400

// Race is true in a binary built with -race: a test that builds the
// program builds it alike, from the same cached packages.
const Race = raceEnabled

// Run runs m's tests of this tier and exits with their status: at once,
// skipping the race detector's wait, when they passed under -race.
//
// The collector runs at gcPercent unless GOGC is set; the processes the
// tests start run as locksim does, at the default.
func Run(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	selectTier(".")
	code := m.Run()
	if code == 0 && raceEnabled {
		syscall.Exit(0)
	}
	os.Exit(code)
}
