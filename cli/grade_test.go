package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// slowLock writes a lock a grade searches for seconds at least (about
// 3 s of CPU without -race, on this project's 2-core machine, more under
// -race): its lab.json asks for the widest bound a policy allows (3
// clients, 3 faults, depth 40, a million schedules), and each acquire
// spends twenty thousand loop turns (well inside a run's 100 000
// instructions, and far from a run's 1 s deadline even on a loaded
// machine, where a run that ended at its deadline let the grade finish
// before any limit of the tests' could end it). Both scripts append
// their call to a key of their own, so two schedules that reach the same
// lock by different calls leave different servers: the search's memo
// (lab/memo.go), which counts a point met again from its first tally,
// finds fewer such points (with the memo and a plain lock the grade
// ended in 0.3 s, inside every limit).
func slowLock(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"acquire.lua": "local n = 0\nfor i = 1, 20000 do n = n + i end\nredis.call('APPEND', KEYS[1] .. ':calls', 'a' .. ARGV[1])\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n",
		"lab.json":    `{"bound": {"clients": 3, "faults": 3, "depth": 40, "max_schedules": 1000000}}`,
		"release.lua": "redis.call('APPEND', KEYS[1] .. ':calls', 'r' .. ARGV[1])\nif redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end\nreturn 0\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// results reads OUT/results.json.
func results(t *testing.T, out string) (status, message string, tests []any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Version int    `json:"version"`
		Status  string `json:"status"`
		Message string `json:"message"`
		Tests   []any  `json:"tests"`
	}
	if err := json.Unmarshal(data, &r); err != nil || r.Version != 2 || r.Tests == nil {
		t.Fatalf("results.json: %s (%v)", data, err)
	}
	return r.Status, r.Message, r.Tests
}

// TestGradeLimits: a grade that would run for hours is ended by the wall
// limit or the memory cap, and results.json says error and which limit.
func TestGradeLimits(t *testing.T) {
	dir := slowLock(t)
	for _, c := range []struct {
		flags []string
		want  string
	}{
		// the search cannot end in any time: the wall limit ends it, be it
		// a tenth of a second (as soon as it is past, not two seconds of a
		// search later)
		{[]string{"-grade-timeout", "100ms"}, "past its time limit of 100ms (-grade-timeout)"},
		{[]string{"-grade-memory", "1"}, "more than 1 MB of memory (-grade-memory)"},
	} {
		out := t.TempDir()
		code, stdout, errs := runMain(append([]string{"-grade", dir, "-out", out}, c.flags...)...)
		if code != 1 || errs != "" || !strings.HasPrefix(stdout, "error: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 1", c.flags, code, stdout, errs)
		}
		if status, msg, _ := results(t, out); status != "error" || !strings.Contains(msg, c.want) {
			t.Errorf("%v: %s %q, want error %q", c.flags, status, msg, c.want)
		}
	}
	for _, bad := range [][]string{{"-grade-timeout", "0s"}, {"-grade-memory", "0"}} {
		code, _, errs := runMain(append([]string{"-grade", dir, "-out", t.TempDir()}, bad...)...)
		if code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs)
		}
	}
}

// TestGradeHostileLock: a lock that loops only where miniredis's own Lua
// runs it is graded, not hung. It is graded under a teacher's policy of
// a small bound (-policy), which reaches the fail in a few hundred
// schedules: any search runs its acquire, and the default policy's is a
// second of CPU under -race.
func TestGradeHostileLock(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"acquire.lua":   "if rawget(_G, 'redis') then while true do end end\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n",
		"release.redis": "GET {key}\nif token: DEL {key}\n",
		"lab.json":      `{"bound": {"clients": 2, "faults": 1, "depth": 10}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	policy := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policy, []byte(`{"faults": ["pause-past"], "bound": {"faults": 1, "depth": 10}, "properties": ["no-foreign-release"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, _, errs := runMain("-grade", dir, "-out", out, "-policy", policy)
	if code != 1 || errs != "" {
		t.Fatalf("exit %d, stderr %q; want 1, a failed lock", code, errs)
	}
	if status, msg, tests := results(t, out); status != "fail" || len(tests) == 0 {
		t.Errorf("%s %q %v", status, msg, tests)
	}
}

// TestGradePinnedPolicy: -level and -policy pin the policy on the command
// line (the search's child process gets them), the student's lab.json
// then unread; the usage errors are one line and exit 2.
func TestGradePinnedPolicy(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"acquire.lua":   "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n",
		"release.redis": "DEL {key}\n",
		"lab.json":      `{"faults": [], "properties": ["deadlock-freedom"]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	teacher := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(teacher, []byte(`{"faults": ["pause-past"], "bound": {"faults": 1, "depth": 10}, "properties": ["no-foreign-release"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pin := range [][]string{{"-level", "blind-release"}, {"-policy", teacher}} {
		out := t.TempDir()
		code, stdout, errs := runMain(append([]string{"-grade", dir, "-out", out}, pin...)...)
		if code != 1 || errs != "" || !strings.HasPrefix(stdout, "fail: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 1", pin, code, stdout, errs)
		}
		data, _ := os.ReadFile(filepath.Join(out, "results.json"))
		if !strings.Contains(string(data), `"name": "no-foreign-release"`) || strings.Contains(string(data), "deadlock-freedom") ||
			!strings.Contains(string(data), "under "+map[string]string{"-level": "level blind-release", "-policy": "the policy in policy.json"}[pin[0]]) {
			t.Errorf("%v: %s", pin, data)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-grade", dir, "-out", t.TempDir(), "-level", "no-fencing", "-policy", teacher}, "do not go together"},
		{[]string{"-level", "no-fencing"}, "go with -grade"},
		{[]string{"-grade", dir, "-out", t.TempDir(), "-level", "nosuch"}, "no such level"},
		{[]string{"-grade", dir, "-out", t.TempDir(), "-policy", "nosuch.json"}, "no such file"},
	} {
		code, stdout, errs := runMain(c.args...)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, stdout, errs, c.want)
		}
	}
}

// TestGradeBudgetStopNamesSchedule: a grade the search ends at a script's
// budget says, in results.json and on stdout, which schedule ran into it,
// so that the teacher or the student can play it again.
func TestGradeBudgetStopNamesSchedule(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"acquire.lua": "if redis.call('GET', KEYS[1]) then\n  while true do end\nend\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n",
		"release.lua": "redis.call('APPEND', KEYS[1] .. ':calls', 'r' .. ARGV[1])\nif redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end\nreturn 0\n",
		"lab.json":    `{"bound": {"clients": 2, "faults": 0, "depth": 10}}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	code, stdout, errs := runMain("-grade", dir, "-out", out)
	if code != 1 || errs != "" {
		t.Fatalf("exit %d, stderr %q; want 1, an error", code, errs)
	}
	status, msg, _ := results(t, out)
	if status != "error" || !strings.Contains(msg, "ran past its budget") || !strings.Contains(msg, "(in the schedule A acquire, ") || !strings.HasSuffix(msg, ", B acquire)") {
		t.Errorf("results.json: %s %q; want the budget stop and its schedule", status, msg)
	}
	if !strings.Contains(stdout, "(in the schedule A acquire, ") {
		t.Errorf("stdout should name the schedule too:\n%s", stdout)
	}
}
