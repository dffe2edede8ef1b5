package testmain

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageRunsThroughRun: every test package of the module (the
// patched third-party copies aside) has a TestMain that calls
// testmain.Run. One without it runs its tests in both tiers and, under
// -race, sleeps a second at exit: four packages did.
func TestEveryPackageRunsThroughRun(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root: %v", err)
	}
	tests := map[string]bool{} // a directory with test files: does one call Run?
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "third_party" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		tests[dir] = tests[dir] || strings.Contains(string(src), "testmain.Run(m)") ||
			filepath.Base(dir) == "testmain" && strings.Contains(string(src), "{ Run(m) }")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) < 10 {
		t.Fatalf("found %d test packages: the walk missed the module", len(tests))
	}
	for dir, runs := range tests {
		if !runs {
			t.Errorf("%s: no TestMain calls testmain.Run(m) (add a testmain_test.go as lab/grade has)", dir)
		}
	}
}
