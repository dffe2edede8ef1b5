package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestGradeFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-grade", "../lab/testdata/getdel"}, "-grade needs -out"},
		{[]string{"-out", t.TempDir()}, "-out goes with -grade"},
		{[]string{"-grade", "../lab/testdata/nosuch", "-out", t.TempDir()}, "no such directory"},
		{[]string{"-grade", "../lab", "-out", t.TempDir()}, "no acquire.lua or acquire.redis"},
		{[]string{"-grade", "../lab/testdata/getdel", "-out", t.TempDir(), "-redis", "redis://127.0.0.1:1"}, "embedded server only"},
	} {
		code, out, errs := runMain(c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line containing %q", c.args, code, out, errs, c.want)
		}
	}
	// -lab is the lab's screen's flag; with -redis it is refused the same way
	if code, _, errs := runMain("-lab", t.TempDir(), "-redis", "redis://127.0.0.1:1"); !strings.Contains(errs, "flag provided but not defined") {
		if code != 2 || !strings.Contains(errs, "the lab runs on the embedded server only") {
			t.Errorf("-lab with -redis: exit %d, stderr %q", code, errs)
		}
	}
	// the lab's verdicts are lab/grade's tests' (getdel fails and fenced
	// passes under the default policy there); here the grade's lines for
	// each, the pass and the fail under a teacher's policy of a small
	// bound, which reaches the same verdicts in a few hundred schedules
	// (the default policy's search is a second of CPU under -race)
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"faults": ["pause-past"], "bound": {"faults": 1, "depth": 10}, "properties": ["no-foreign-release"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, status := range map[string]string{"../lab/testdata/getdel": "fail", "../lab/testdata/syntax": "error", "../lab/testdata/fenced": "pass"} {
		out := filepath.Join(t.TempDir(), "out")
		args := []string{"-grade", dir, "-out", out}
		if status != "error" {
			args = append(args, "-policy", policy)
		}
		code, stdout, errs := runMain(args...)
		// a grading script's exit status: 0 for the pass only
		if want := map[string]int{"pass": 0, "fail": 1, "error": 1}[status]; code != want || errs != "" {
			t.Errorf("%s: exit %d, stderr %q; want %d", dir, code, errs, want)
		}
		data, err := os.ReadFile(filepath.Join(out, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Version int    `json:"version"`
			Status  string `json:"status"`
		}
		if err := json.Unmarshal(data, &res); err != nil || res.Version != 2 || res.Status != status {
			t.Errorf("%s: %s (%v), want status %s", dir, data, err, status)
		}
		// the result, then which of the search's limits hold here
		limits := labConfig{timeout: defaultGradeTimeout, memory: defaultGradeMemory}.limits().Holds()
		switch {
		case status == "error":
			// for an error, why it could not be graded, on the same line
			if !strings.HasPrefix(stdout, status+": "+out+"/results.json: ") || strings.Count(stdout, "\n") != 2 || !strings.HasSuffix(stdout, "\n"+limits+"\n") {
				t.Errorf("%s: stdout %q", dir, stdout)
			}
		case stdout != status+": "+out+"/results.json\n"+limits+"\n":
			t.Errorf("%s: stdout %q", dir, stdout)
		}
		if runtime.GOOS == "linux" && limits != "limits on linux: wall time 1m0s, CPU time 121 s, memory 1024 MB, ends with locksim" {
			t.Errorf("-grade's limits on Linux: %q", limits)
		}
	}
}

// TestLabRefusesAProjectDir: -lab on a directory that holds files but no
// lab is refused with one line and exit 2, and nothing is written there.
func TestLabRefusesAProjectDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runMain("-lab", dir)
	if code != 2 || !strings.Contains(errs, "is not a lab") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q: want 2 and one line saying it is not a lab", code, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory now holds %d files", len(entries))
	}
}

// TestLabEmptyDir: -lab with an empty or blank DIR is refused with one
// line and exit 2, as -lab on a directory that is no lab is, rather than
// opening the course as if -lab were not given.
func TestLabEmptyDir(t *testing.T) {
	for _, dir := range []string{"", "  "} {
		code, out, errs := runMain("-lab", dir)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "-lab needs a directory") {
			t.Errorf("-lab %q: exit %d, %d bytes on stdout, stderr %q; want 2 and one line saying -lab needs a directory", dir, code, len(out), errs)
		}
	}
}

// TestLabMissingParent: -lab in a directory whose parent is missing is
// refused in one line, exit 2, as -cast and -history are, and no directory
// is made.
func TestLabMissingParent(t *testing.T) {
	root := t.TempDir()
	code, out, errs := runMain("-lab", filepath.Join(root, "nonexistent", "deep", "path"))
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "does not exist (locksim makes none)") {
		t.Errorf("exit %d, %d bytes on stdout, stderr %q; want 2 and one line saying the directory does not exist", code, len(out), errs)
	}
	if _, err := os.Stat(filepath.Join(root, "nonexistent")); err == nil {
		t.Error("-lab made the missing directories")
	}
}
