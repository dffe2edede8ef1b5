package class

import (
	"flag"
	"testing"

	"locksim/sim/simtest/testmain"
)

// TestMain picks the tier (testmain.Run). Its parallel tests mostly wait
// on the roster's one-second poll (TestPresence's two sessions) beside
// one that computes (TestFoldTable): more of them at once than the two
// cores' default, so the waits overlap the work.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	testmain.Run(m)
}
