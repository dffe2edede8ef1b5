package transcript

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/sim/simtest/testmain"
)

// update is -update: it rewrites the golden files in testdata/.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	simtest.ParallelLive()
	testmain.Run(m)
}

// embedded starts an embedded backend for one test.
func embedded(t testing.TB) *sim.Backend { return simtest.Embedded(t) }

// liveScale divides story time in the live-server tests: a 30 s lease is
// sent as PX 600, so every story plays in a second or two.
const liveScale = 50

// onBoth runs check against the embedded server and, in parallel, against
// a redis-server of its own (skipped with a message when there is none).
// The test itself runs in parallel with the others.
func onBoth(t *testing.T, check func(t *testing.T, b *sim.Backend)) {
	simtest.OnBoth(t, liveScale, check)
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./transcript -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
