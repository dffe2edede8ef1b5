package testmain

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestMain(m *testing.M) { Run(m) }

// TestReadTests: a test is in the slow tier when it reaches a marker
// itself, through a helper, a table of funcs or a method, and only then.
func TestReadTests(t *testing.T) {
	dir := sampleDir(t)
	slow, quick, err := readTests(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(slow)
	slices.Sort(quick)
	if want := []string{"BenchmarkLive", "TestDirect", "TestSweep", "TestViaHelper", "TestViaMethod", "TestViaTable"}; !slices.Equal(slow, want) {
		t.Errorf("slow tier %v, want %v", slow, want)
	}
	if want := []string{"FuzzQuick", "TestQuick"}; !slices.Equal(quick, want) {
		t.Errorf("quick tier %v, want %v", quick, want)
	}
}

// TestQuickTierReadsOnDemand: in the quick tier SlowTest answers as the
// reading does, a test that names a marker itself from its own file
// (ownMarker), any other from the whole reading, made on first need; with
// no test files there is no reading.
func TestQuickTierReadsOnDemand(t *testing.T) {
	dir := sampleDir(t)
	savedDir, savedReading, savedTests := lazyDir, lazyReading, slowTests
	t.Cleanup(func() { lazyDir, lazyReading, slowTests = savedDir, savedReading, savedTests })
	slowTests, lazyDir = nil, dir
	lazyReading = sync.OnceValue(func() map[string]bool { return reading(dir) })
	want := reading(dir)
	for _, name := range []string{"TestQuick", "TestDirect", "TestViaHelper", "TestViaTable", "TestViaMethod", "TestSweep", "FuzzQuick", "BenchmarkLive"} {
		if slow, read := SlowTest(name + "/case"); !read || slow != want[name] {
			t.Errorf("SlowTest(%s) = %v, %v; the reading says %v", name, slow, read, want[name])
		}
	}
	for name, own := range map[string]bool{"TestDirect": true, "TestSweep": true, "TestViaHelper": false, "TestViaMethod": false, "TestQuick": false, "TestNoSuch": false} {
		if got := ownMarker(dir, name); got != own {
			t.Errorf("ownMarker(%s) = %v, want %v", name, got, own)
		}
	}
	empty := t.TempDir()
	lazyDir, lazyReading = empty, sync.OnceValue(func() map[string]bool { return reading(empty) })
	if _, read := SlowTest("TestDirect"); read {
		t.Errorf("a directory with no test files has a reading")
	}
}

// sampleDir is a directory holding a package whose tests reach a marker
// in each way the reading follows, or none.
func sampleDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := `package p

import "testing"

func TestQuick(t *testing.T)    { quickHelper(t) }
func TestDirect(t *testing.T)   { simtest.SkipUnlessSlow(t) }
func TestViaHelper(t *testing.T) { live(t) }
func TestViaTable(t *testing.T) {
	for _, c := range cases {
		c.f(t)
	}
}
func TestViaMethod(t *testing.T) { var s server; s.start(t) }
func TestSweep(t *testing.T) {
	if simtest.InTier(true) {
	}
}
func Testing(t *testing.T)      {} // not a test: a lower-case letter follows
func FuzzQuick(f *testing.F)     {}
func BenchmarkLive(b *testing.B) { live(b) }
func TestMain(m *testing.M)      {}

type server struct{}

func (server) start(t *testing.T) { simtest.StartServer(t) }

var cases = []struct{ f func(*testing.T) }{{f: func(t *testing.T) { simtest.OnBoth(t, 1, nil) }}}

func live(t testing.TB) string     { return simtest.StartRedis(t) }
func quickHelper(t *testing.T)     { simtest.Embedded(t) }
`
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte("package p\n\nfunc TestNotInATestFile() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
