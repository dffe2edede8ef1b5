package lab

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryLevelHasHints: each level has three staged hints in each mode;
// a level with no text has none.
func TestEveryLevelHasHints(t *testing.T) {
	for _, lv := range Levels() {
		for _, m := range []Mode{BreakIt, FixIt} {
			if hs := Hints(lv.ID, m); len(hs) != 3 {
				t.Errorf("level %s, mode %d: %d hints, want 3: %q", lv.ID, m, len(hs), hs)
			}
		}
	}
	if hs := Hints("no-such-level", FixIt); hs != nil {
		t.Errorf("a level with no text has no hints, got %q", hs)
	}
}

// TestReferenceIsTheGradedFix: every level's reference fix is the one in
// testdata/fixes (the levels' test grades those), read part by part.
func TestReferenceIsTheGradedFix(t *testing.T) {
	for _, lv := range Levels() {
		ref, ok := Reference(lv.ID)
		if !ok {
			t.Errorf("level %s has no reference fix", lv.ID)
			continue
		}
		disk, err := LoadParts(filepath.Join("testdata/fixes", lv.ID))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range lockPartsOf(&ref) {
			d := lockPartsOf(disk)[i]
			if p.Empty() != d.Empty() || !p.Empty() && (p.Src != d.Src || p.Lang != d.Lang) {
				t.Errorf("level %s, part %s: %q (%s), on disk %q (%s)", lv.ID, p.Name, p.Src, p.Lang.Ext(), d.Src, d.Lang.Ext())
			}
		}
		if ref.Policy.Bound != lv.Lock.Policy.Bound {
			t.Errorf("level %s: the reference keeps the level's policy", lv.ID)
		}
	}
	if _, ok := Reference("no-such-level"); ok {
		t.Error("no level, no reference")
	}
}

// TestReferenceDiff: the learner's lock against the reference is a
// unified diff of the parts that differ, and nothing for the same parts.
func TestReferenceDiff(t *testing.T) {
	ref, _ := Reference("get-then-del")
	if d := ReferenceDiff("get-then-del", &ref); d != "" {
		t.Errorf("the reference against itself should be no diff, got:\n%s", d)
	}
	lv, _ := FindLevel("get-then-del")
	mine := lv.Lock
	mine.Acquire.Src = strings.TrimRight(ref.Acquire.Src, "\n") // a missing last line break is no difference
	mine.Release = Part{Name: PartRelease, Lang: Lua, Src: "local v = redis.call('GET', KEYS[1])\nif v == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0\n"}
	d := ReferenceDiff("get-then-del", &mine)
	for _, want := range []string{"--- yours/release.lua\n", "+++ reference/release.lua\n",
		"-local v = redis.call('GET', KEYS[1])\n", "+if redis.call(\"GET\", KEYS[1]) == ARGV[1] then\n", " end\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("the diff should hold %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "acquire") {
		t.Errorf("the acquire is the same: no hunk of it, got:\n%s", d)
	}
}
