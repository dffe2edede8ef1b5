package transcript

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// update is -update: it rewrites the golden files in testdata/.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	parallelLive()
	os.Exit(m.Run())
}

// parallelLive lets more parallel tests run at once than there are cores
// (unless -parallel was given): the live-server tests spend most of their
// time waiting for story time to pass, not on the CPU.
func parallelLive() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "16")
	}
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
	t.Parallel()
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		check(t, embedded(t))
	})
	t.Run("live", func(t *testing.T) {
		t.Parallel()
		url := simtest.StartRedis(t)
		// a loaded machine's slow reply must not become a client timeout
		b, err := sim.OpenLive(context.Background(), url, sim.LiveOptions{Scale: liveScale, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close(context.Background()) })
		check(t, b)
	})
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
