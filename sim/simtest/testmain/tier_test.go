package testmain

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMain(m *testing.M) { Run(m) }

// TestReadTests: a test is in the slow tier when it reaches a marker
// itself, through a helper, a table of funcs or a method, and only then.
func TestReadTests(t *testing.T) {
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
