package cli

import (
	"flag"
	"os"
	"testing"
	"time"

	"locksim/sim/simtest/testmain"
)

// TestMain picks the tier (testmain.Run), and lets a test start this very
// binary as locksim itself (with LOCKSIM_MAIN=1), so a test can kill it
// with -9 mid-scene, or as the benchmarks' floor (LOCKSIM_FLOOR=1).
func TestMain(m *testing.M) {
	if os.Getenv("LOCKSIM_MAIN") == "1" {
		asProcess() // as main.go starts locksim (Process)
		// a shorter heartbeat, for runs a test kills and sweeps at once
		ttl, _ := time.ParseDuration(os.Getenv("LOCKSIM_HEARTBEAT_TTL"))
		os.Exit(runHeartbeat(os.Args[1:], ttl, os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv("LOCKSIM_FLOOR") == "1" {
		os.Exit(floor())
	}
	// the live tests mostly wait on story time: more of them at once
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "16")
	}
	testmain.Run(m)
}
