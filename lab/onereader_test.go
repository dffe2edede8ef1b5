package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneReaderOfALabDirectory: nothing that reads a lab directory (the
// lab, its grade, the lab's screens, the core) opens a file but
// through ReadLabFile: the only other opens are ReadLabFile's own
// (open_*.go), the runner's /proc, README.md written with O_EXCL, and the
// teacher's -policy file, which is no student's.
func TestOneReaderOfALabDirectory(t *testing.T) {
	allowed := map[string]int{
		"lab/open_unix.go": 1, "lab/open_other.go": 1, "lab/open_windows.go": 0,
		"lab/runner.go": 1, "lab/readme.go": 1, "lab/grade/grade.go": 1,
	}
	opens := regexp.MustCompile(`\bos\.(ReadFile|Open|OpenFile)\(|\bioutil\.ReadFile\(|\bos\.DirFS\(`)
	var files []string
	for _, g := range []string{"*.go", "grade/*.go", "../tui/lab*.go", "../play/*.go"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d files to read", len(files))
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(filepath.Join("lab", f))
		if strings.HasPrefix(f, "..") {
			name = filepath.ToSlash(filepath.Clean(filepath.Join("lab", f)))
		}
		if n := countOpens(opens, src); n > allowed[name] {
			t.Errorf("%s opens a file %d times (allowed %d): a lab directory's files are read through ReadLabFile", name, n, allowed[name])
		}
	}
}

// countOpens is how many times re matches src, read only in the lines
// that hold one of the calls' names: re matches within a line, and its
// \b made the whole files' sweep a backtracking one, most of the test's
// time under -race.
func countOpens(re *regexp.Regexp, src []byte) int {
	n := 0
	for line := range bytes.Lines(src) {
		if bytes.Contains(line, []byte("ReadFile(")) || bytes.Contains(line, []byte("Open")) || bytes.Contains(line, []byte("DirFS(")) {
			n += len(re.FindAll(line, -1))
		}
	}
	return n
}
