package grade

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/storycode"
)

func TestGrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		dir, status, msg string
	}{
		{"../testdata/getdel", "fail", "(story code lab."},
		{"../testdata/fenced", "pass", `"name": "resource-safety"`},
		{"../testdata/syntax", "error", "acquire.lua:2: syntax error"},
		{"../testdata/endless", "error", "budget of instructions"},
		{"../testdata/runtime", "error", "acquire.lua:2: ERR Unknown Redis command called from script"},
	} {
		res, err := gradeOnce(c.dir, Pin{})
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		out := t.TempDir()
		if err := Write(out, res); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(out, "results.json"))
		var back map[string]any
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back["version"] != 2.0 || back["status"] != c.status || !strings.Contains(string(data), c.msg) {
			t.Errorf("%s: %s", c.dir, data)
		}
		if _, ok := back["tests"].([]any); !ok {
			t.Errorf("%s: no tests list: %s", c.dir, data)
		}
	}
	if _, err := Dir(ctx, "../testdata/nosuch", Pin{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing directory: %v", err)
	}
}

// TestFailureCode: each failure's message carries the story code of its
// break, which -story opens as a story of the lab.
func TestFailureCode(t *testing.T) {
	t.Parallel()
	res, err := gradeOnce("../testdata/getdel", Pin{})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, tr := range res.Tests {
		if tr.Status != lab.Fail {
			continue
		}
		failed++
		m := regexp.MustCompile(`\(story code ([^ )]+)\)`).FindStringSubmatch(tr.Message)
		if m == nil {
			t.Errorf("%s: no story code in %q", tr.Name, tr.Message)
			continue
		}
		pos, err := storycode.Decode(m[1])
		if err != nil || pos.Scene != lab.SceneID || pos.Lab == nil {
			t.Errorf("%s: code %s reads as %+v, %v", tr.Name, m[1], pos, err)
		}
	}
	if failed == 0 {
		t.Errorf("getdel failed nothing: %+v", res)
	}
}

// valid checks res against Exercism's test-runner interface, version 2:
// statuses pass, fail or error; a top-level message exactly when the
// status is error, within 65 535 characters; a tests list, each test with
// a name, a status and its test code, a message within 65 535 characters
// and an output within 500.
func valid(t *testing.T, what string, res Results) {
	t.Helper()
	ok := func(s lab.Status) bool { return s == lab.Pass || s == lab.Fail || s == lab.Error }
	if res.Version != 2 || !ok(res.Status) || res.Tests == nil || (res.Status == lab.Error) != (res.Message != "") || len(res.Message) > 65535 {
		t.Errorf("%s: not a valid results.json: %+v", what, res)
	}
	for _, tr := range res.Tests {
		if tr.Name == "" || !ok(tr.Status) || tr.TestCode == "" || len(tr.Message) > 65535 || len(tr.Output) > 500 {
			t.Errorf("%s: not a valid test: %+v", what, tr)
		}
	}
}

// lockDir writes a lock's files into a fresh directory.
func lockDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	acquireSET = "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n"
	releaseCAD = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end\nreturn 0\n"
)

// statuses is the grade in one line: its status, then each test's name
// and status.
func statuses(res Results) string {
	s := string(res.Status)
	for _, tr := range res.Tests {
		s += " " + tr.Name + "=" + string(tr.Status)
	}
	return s
}

// TestStudentCannotWeakenTheGrade: under the default policy, a lab.json
// that drops every fault, lowers the bound or drops every property does
// not make the blind-DEL lock pass.
func TestStudentCannotWeakenTheGrade(t *testing.T) {
	t.Parallel()
	for _, labJSON := range []string{`{"faults": []}`, `{"bound": {"depth": 1, "faults": 0}}`, `{"properties": ["deadlock-freedom"]}`, `{"properties": []}`} {
		t.Run(labJSON, func(t *testing.T) {
			t.Parallel()
			dir := lockDir(t, map[string]string{"acquire.lua": acquireSET, "release.redis": "DEL {key}\n", "lab.json": labJSON})
			res, err := Dir(context.Background(), dir, Pin{})
			if err != nil {
				t.Fatal(err)
			}
			valid(t, labJSON, res)
			if res.Status == lab.Pass {
				t.Errorf("lab.json %s: the blind DEL passes: %s", labJSON, statuses(res))
			}
		})
	}
}

// TestDefaultGradeLessons: under the default policy the correct
// compare-and-delete lock passes, and the fencing lock passes
// resource-safety; what no lease survives comes in lesson entries of
// their own, which pass, each with a story code that opens. The
// compare-and-delete lock is the table's (acquireSET and releaseCAD in
// double quotes), so its grade is TestTable's and TestNoLeaseWasted's,
// made once (gradeOnce).
func TestDefaultGradeLessons(t *testing.T) {
	t.Parallel()
	cad := "../testdata/table/compare-and-delete"
	for dir, want := range map[string]string{
		cad:                  "pass mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=pass lesson: mutual-exclusion (pause-past)=pass lesson: mutual-exclusion (clock-jump)=pass lesson: mutual-exclusion (restart)=pass lesson: resource-safety (pause-past)=pass lesson: resource-safety (clock-jump)=pass lesson: resource-safety (restart)=pass",
		"../testdata/fenced": "pass mutual-exclusion=pass resource-safety=pass no-foreign-release=pass deadlock-freedom=pass lesson: mutual-exclusion (pause-past)=pass lesson: mutual-exclusion (clock-jump)=pass lesson: mutual-exclusion (restart)=pass lesson: resource-safety (restart)=pass",
		"../testdata/getdel": "fail mutual-exclusion=pass resource-safety=pass no-foreign-release=fail deadlock-freedom=pass lesson: mutual-exclusion (pause-past)=pass lesson: mutual-exclusion (clock-jump)=pass lesson: mutual-exclusion (restart)=pass lesson: resource-safety (pause-past)=pass lesson: resource-safety (clock-jump)=pass lesson: resource-safety (restart)=pass",
	} {
		res, err := gradeOnce(dir, Pin{})
		if err != nil {
			t.Fatal(err)
		}
		valid(t, dir, res)
		if got := statuses(res); got != want {
			t.Errorf("%s:\n got %s\nwant %s", dir, got, want)
		}
		for _, tr := range res.Tests {
			if !strings.HasPrefix(tr.Name, "lesson: ") {
				if !strings.HasSuffix(tr.TestCode, "under the default policy") {
					t.Errorf("%s: %s does not name the policy: %q", dir, tr.Name, tr.TestCode)
				}
				continue
			}
			m := regexp.MustCompile(`locksim -story ([^ ]+)$`).FindStringSubmatch(tr.TestCode)
			if m == nil || !strings.Contains(tr.Output, "no lease survives") {
				t.Errorf("%s: %s: no lesson or no story code in %+v", dir, tr.Name, tr)
				continue
			}
			if pos, err := storycode.Decode(m[1]); err != nil || pos.Lab == nil {
				t.Errorf("%s: %s: code %s: %v", dir, tr.Name, m[1], err)
			}
		}
	}
	// the fenced lock's resource-safety lesson is the restart alone: the
	// pause and the clock jump are its own test, which it passes
	res, _ := gradeOnce("../testdata/fenced", Pin{})
	for _, tr := range res.Tests {
		if strings.HasPrefix(tr.Name, "lesson: resource-safety") && (tr.Name != "lesson: resource-safety (restart)" || strings.Contains(tr.Output, "paused")) {
			t.Errorf("the fenced lock's lesson: %q", tr.Output)
		}
	}
}

// TestPinnedPolicy: -level and -policy decide the grade, the student's
// lab.json unread; results.json names the policy; a policy that judges
// nothing, an unknown level and a missing file are usage errors.
func TestPinnedPolicy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	narrow := `{"faults": [], "properties": ["deadlock-freedom"]}`
	cad := lockDir(t, map[string]string{"acquire.lua": acquireSET, "release.lua": releaseCAD, "lab.json": narrow})
	blind := lockDir(t, map[string]string{"acquire.lua": acquireSET, "release.redis": "DEL {key}\n", "lab.json": narrow})
	teacher := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(teacher, []byte(`{"faults": ["pause-past", "crash"], "bound": {"faults": 1, "depth": 10}, "properties": ["no-foreign-release"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		pin  Pin
		want string
	}{
		{cad, Pin{Level: "no-fencing"}, "fail resource-safety=fail"},
		{"../testdata/fenced", Pin{Level: "no-fencing"}, "pass resource-safety=pass"},
		{blind, Pin{Level: "blind-release"}, "fail no-foreign-release=fail"},
		{blind, Pin{Policy: teacher}, "fail no-foreign-release=fail"},
		{cad, Pin{Policy: teacher}, "pass no-foreign-release=pass"},
	} {
		res, err := Dir(ctx, c.dir, c.pin)
		if err != nil {
			t.Fatal(err)
		}
		valid(t, c.pin.Name(), res)
		if got := statuses(res); got != c.want {
			t.Errorf("%s under %s: %s, want %s", c.dir, c.pin.Name(), got, c.want)
		}
		for _, tr := range res.Tests {
			if !strings.HasSuffix(tr.TestCode, "under "+c.pin.Name()) {
				t.Errorf("%s: the test code does not name the policy: %q", c.pin.Name(), tr.TestCode)
			}
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, []byte(`{"properties": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pin  Pin
		want string
	}{
		{Pin{Policy: empty}, "at least one"},
		{Pin{Level: "nosuch"}, "no such level"},
		{Pin{Policy: "nosuch.json"}, "no such file"},
	} {
		if _, err := Dir(ctx, cad, c.pin); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.pin, err, c.want)
		}
	}
}

// TestFailureSentence: each failing test's message opens with its
// shortest break in one sentence (its moves, its faults, what broke),
// before the schedule and the story code.
func TestFailureSentence(t *testing.T) {
	t.Parallel()
	res, err := gradeOnce("../testdata/getdel", Pin{Level: "get-then-del"})
	if err != nil {
		t.Fatal(err)
	}
	sentence := regexp.MustCompile(`^Shortest break \(\d+ moves, (no fault|\d+ faults?: [^)]+)\): [A-Z][^.]*\. broken: `)
	failed := 0
	for _, tr := range res.Tests {
		if tr.Status != lab.Fail {
			continue
		}
		failed++
		if !sentence.MatchString(tr.Message) {
			t.Errorf("%s: the message should open with its break in one sentence: %q", tr.Name, tr.Message)
		}
		if tr.Name == string(lab.NoForeignRelease) && !strings.Contains(strings.SplitN(tr.Message, ". ", 2)[0], "deleted") {
			t.Errorf("the sentence should say the release deleted another's lock: %q", tr.Message)
		}
	}
	if failed == 0 {
		t.Fatalf("get-then-del failed nothing: %+v", res)
	}
}

// TestGradeNotes: a lint note is an entry that passes, named by its file
// and line, with its text in output; the grade's status is the tests'
// alone. A release testing v == nil passes with a note, and a pinned
// policy's watchdog with no extend gets a note on lab.json.
func TestGradeNotes(t *testing.T) {
	t.Parallel()
	nilRelease := "local v = redis.call('GET', KEYS[1])\nif v == nil or v == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n"
	dir := lockDir(t, map[string]string{"acquire.lua": acquireSET, "release.lua": nilRelease})
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"faults": ["pause-past", "crash"], "watchdog_ms": 10000, "bound": {"faults": 1, "depth": 10}, "properties": ["no-foreign-release"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Dir(context.Background(), dir, Pin{Policy: policy})
	if err != nil {
		t.Fatal(err)
	}
	valid(t, "notes", res)
	if got, want := statuses(res), "pass no-foreign-release=pass note: release.lua:2=pass note: lab.json=pass"; got != want {
		t.Fatalf("%s, want %s", got, want)
	}
	if out := res.Tests[1].Output; !strings.Contains(out, "v == nil never holds") || !strings.Contains(out, "false") {
		t.Errorf("the note should say v == nil never holds, and why: %q", out)
	}
	if out := res.Tests[2].Output; !strings.Contains(out, "no extend") {
		t.Errorf("the note should say the watchdog has no extend to run: %q", out)
	}
}

// TestStoryFiles: each failure's message in results.json names the file,
// beside it in the -out directory given, that holds its story code by its
// short pointer; Write puts the code there, and it reads back to the
// failure's story.
func TestStoryFiles(t *testing.T) {
	t.Parallel()
	res, err := gradeOnce("../testdata/getdel", Pin{Level: "get-then-del"})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := Write(out, res); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "OUT/") {
		t.Errorf("results.json names OUT/, not %s: %s", out, data)
	}
	ref := regexp.MustCompile(`\(its story: locksim -story ` + regexp.QuoteMeta(out+string(filepath.Separator)) + `(lab-[0-9a-f]{10})\.code\) \(story code ([^ )]+)\)`)
	failed := 0
	for _, tr := range res.Tests {
		if tr.Status != lab.Fail {
			continue
		}
		failed++
		m := ref.FindStringSubmatch(tr.Message)
		if m == nil {
			t.Errorf("%s: the message should name its story's file: %q", tr.Name, tr.Message)
			continue
		}
		code, err := storycode.Resolve(m[1], out)
		if err != nil || code != m[2] {
			t.Errorf("%s: the file of %s should hold the message's code: %v", tr.Name, m[1], err)
		}
		if pos, err := storycode.Decode(code); err != nil || pos.Lab == nil {
			t.Errorf("%s: the file's code should open a story of the lab: %v", tr.Name, err)
		}
	}
	if failed == 0 {
		t.Fatalf("get-then-del failed nothing: %+v", res)
	}
}
