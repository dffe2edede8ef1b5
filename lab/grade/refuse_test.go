package grade

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/sim/simtest"
)

// written is res as Write leaves it in a fresh OUT, read back.
func written(t *testing.T, res Results) string {
	t.Helper()
	out := t.TempDir()
	if err := Write(out, res); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Results
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("results.json does not read back: %v", err)
	}
	return string(data)
}

// TestGamedLevel: a level's unchanged flawed lock with an extend added
// that answers 0 (every holder gives up before the release the level is
// about) is refused by name under -level, and a lock that never grants
// fails the level's rule (Level.Passed) though no property of the level
// breaks.
func TestGamedLevel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, id := range []string{"get-then-del", "blind-release"} {
		lv, _ := lab.FindLevel(id)
		files := map[string]string{lv.Lock.Acquire.File(): lv.Lock.Acquire.Src, lv.Lock.Release.File(): lv.Lock.Release.Src, "extend.lua": "return 0\n"}
		res, err := Dir(ctx, lockDir(t, files), Pin{Level: id})
		if err != nil {
			t.Fatal(err)
		}
		valid(t, id, res)
		want := "extend.lua: level " + id + " has no extend"
		if res.Status != lab.Error || !strings.HasPrefix(res.Message, want) {
			t.Errorf("%s with extend.lua: %s %q, want error %q", id, res.Status, res.Message, want)
		}
		written(t, res)
	}
	never := lockDir(t, map[string]string{"acquire.lua": "return 0\n", "release.lua": releaseCAD})
	for _, id := range []string{"get-then-del", "blind-release", "constant-token"} {
		res, err := Dir(ctx, never, Pin{Level: id})
		if err != nil {
			t.Fatal(err)
		}
		valid(t, id, res)
		if got, want := statuses(res), "fail no-foreign-release=pass grants-when-free=fail"; got != want {
			t.Errorf("a lock that never grants under level %s: %s, want %s", id, got, want)
		}
		if msg := res.Tests[1].Message; !strings.Contains(msg, "level "+id+" is passed when") || !strings.Contains(msg, "grants") {
			t.Errorf("level %s: the failure does not give the level's rule: %q", id, msg)
		}
	}
}

// TestGradeBoundsOneBuiltinCall: a string.byte over 10 MB and an error
// reply of 60 MB each end as status error naming the part and line, in
// Redis's words where Redis has them. The quick tier grades the first
// (lab's tests hold the byte cap in the quick tier), the slow tier the
// error reply, a second of making 60 MB under -race.
func TestGradeBoundsOneBuiltinCall(t *testing.T) {
	t.Parallel()
	for i, c := range []struct{ acquire, want string }{
		{"local s = string.rep('a', 1e7)\nlocal t = {string.byte(s, 1, -1)}\n" + acquireSET, "acquire.lua:2: string slice too long"},
		{"local s = string.rep('E', 6e7)\nreturn redis.error_reply(s)\n", "acquire.lua:2: stopped: the script made more than 64 MB"},
	} {
		if !simtest.InTier(i == 0) {
			continue
		}
		res, err := Dir(context.Background(), lockDir(t, map[string]string{"acquire.lua": c.acquire, "release.lua": releaseCAD}), Pin{})
		if err != nil {
			t.Fatal(err)
		}
		valid(t, c.want, res)
		if res.Status != lab.Error || !strings.Contains(res.Message, c.want) {
			t.Errorf("%s %q, want error with %q", res.Status, res.Message, c.want)
		}
		if data := written(t, res); len(data) > 8000 {
			t.Errorf("results.json of %d bytes for %q", len(data), c.want)
		}
	}
}

// TestCrashedIsOneLine: a fault that ends the grade becomes results.json
// with status error and the fault's first line only, no Go trace.
func TestCrashedIsOneLine(t *testing.T) {
	t.Parallel()
	res := crashed(Pin{}, "runtime error: index out of range [3] with length 3\ngoroutine 1 [running]:\nmain.main()")
	valid(t, "crashed", res)
	if res.Status != lab.Error || strings.Contains(res.Message, "goroutine") || strings.Contains(res.Message, "\n") {
		t.Errorf("%s %q", res.Status, res.Message)
	}
}

// TestGradeErrorsNameTheirCause: a lock that cannot run is told by its
// cause (the script's file and line, lab.json's field in the file's words),
// with no "the default policy:" in front where the policy is not the
// cause, and no Go type's name.
func TestGradeErrorsNameTheirCause(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"acquire.lua": "return nosuch.x\n", "release.lua": releaseCAD}, "acquire.lua:1: "},
		{map[string]string{"acquire.lua": acquireSET, "release.lua": releaseCAD, "lab.json": `{"bound": {"clients": "two"}}`},
			"lab.json: bound.clients must be a whole number, not a string"},
		{map[string]string{"acquire.lua": acquireSET, "release.lua": releaseCAD, "lab.json": `{"ttl": 1}`}, `lab.json: unknown field "ttl" (known: ttl_ms,`},
	} {
		res, err := Dir(context.Background(), lockDir(t, c.files), Pin{})
		if err != nil {
			t.Fatal(err)
		}
		valid(t, c.want, res)
		if res.Status != lab.Error || !strings.HasPrefix(res.Message, c.want) || strings.Contains(res.Message, "policyJSON") {
			t.Errorf("%s %q, want error starting %q", res.Status, res.Message, c.want)
		}
	}
}
