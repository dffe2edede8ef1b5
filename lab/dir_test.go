package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDir: -lab opens a missing directory whose parent exists, an
// empty directory, or a lab; a directory of other files, a file, or a
// path whose parent is missing is refused, and nothing is written.
func TestCheckDir(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project/go.mod")
	write("project/main.go")
	write("policy/lab.json")
	write("lock/acquire.redis")
	write("afile")
	write("one/notes.txt")
	write("half/release.lua")
	write("halfpolicy/release.redis")
	write("halfpolicy/lab.json")
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		want string // "" for accepted
	}{
		{"missing", ""}, {"empty", ""}, {"policy", ""}, {"lock", ""},
		{"project", "is not a lab: it holds 2 other files"},
		{"one", "is not a lab: it holds 1 other file and"},
		{"half", "holds release.lua but no acquire.lua or acquire.redis: add one"},
		{"halfpolicy", "holds release.redis but no acquire.lua or acquire.redis"},
		{"afile", "not a directory"},
		{"nonexistent/deep/path", "directory " + filepath.Join(root, "nonexistent", "deep") + " does not exist (locksim makes none)"},
		{"afile/lab", "not a directory"},
	} {
		err := CheckDir(filepath.Join(root, c.dir))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.dir, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error saying %q", c.dir, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "nonexistent")); err == nil {
		t.Error("a refused -lab path was made")
	}
	entries, err := os.ReadDir(filepath.Join(root, "project"))
	if err != nil || len(entries) != 2 {
		t.Errorf("the project directory changed: %v %v", entries, err)
	}
}
