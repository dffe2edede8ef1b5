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
		"-local v = redis.call('GET', KEYS[1])\n", "+if redis.call('GET', KEYS[1]) == ARGV[1] then\n", " end\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("the diff should hold %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "acquire") {
		t.Errorf("the acquire is the same: no hunk of it, got:\n%s", d)
	}
	// quotes, comments and indentation are no difference, and the
	// reference is quoted as the learner quotes
	mine.Acquire.Src = "-- take it\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])\n"
	mine.Release.Src = "if redis.call('GET', KEYS[1]) == ARGV[1] then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0\n"
	if d := ReferenceDiff("get-then-del", &mine); d != "" {
		t.Errorf("quotes, comments and indentation should be no difference, got:\n%s", d)
	}
	mine.Release.Src = "if redis.call('GET', KEYS[1]) then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0\n"
	d = ReferenceDiff("get-then-del", &mine)
	if !strings.Contains(d, "+if redis.call('GET', KEYS[1]) == ARGV[1] then\n") || strings.Contains(d, `"`) {
		t.Errorf("the reference should be quoted as the learner quotes:\n%s", d)
	}
}

// TestFocusPart: the part a level's page opens on is one its reference
// fix changes (quotes and comments aside), so a level about the acquire
// opens on the acquire.
func TestFocusPart(t *testing.T) {
	norm := func(src string) string {
		var out []string
		for _, line := range strings.Split(strings.ReplaceAll(src, `"`, "'"), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--") && !strings.HasPrefix(line, "#") {
				out = append(out, line)
			}
		}
		return strings.Join(out, "\n")
	}
	for _, lv := range Levels() {
		ref, _ := Reference(lv.ID)
		part := FocusPart(lv.ID)
		i := map[string]int{PartAcquire: 0, PartRelease: 1, PartExtend: 2}[part]
		if norm(lockPartsOf(&lv.Lock)[i].Src) == norm(lockPartsOf(&ref)[i].Src) {
			t.Errorf("level %s opens on its %s, which its fix leaves as it is", lv.ID, part)
		}
	}
	if got := FocusPart("get-then-set"); got != PartAcquire {
		t.Errorf("get-then-set is about the acquire, got %s", got)
	}
	if got := FocusPart("no-such-level"); got != PartRelease {
		t.Errorf("no text: the release, got %s", got)
	}
}

// TestHintsNudge: a level's hints add to its goal line, never repeat it
// (no hint holds most of the goal's words), and the last hint of a level
// to fix names the command or the comparison to use, never the code.
func TestHintsNudge(t *testing.T) {
	// the words every level's text shares: the lock, its parts, its clients
	common := map[string]bool{"lock": true, "extend": true, "release": true, "acquire": true, "client": true, "token": true,
		"that": true, "with": true, "only": true, "your": true, "make": true, "again": true, "through": true}
	words := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
			if len(w) > 3 && !common[w] {
				out[w] = true
			}
		}
		return out
	}
	for _, lv := range Levels() {
		for _, m := range []Mode{BreakIt, FixIt} {
			goal := lv.FixGoal
			if m == BreakIt {
				goal = lv.BreakGoal
			}
			gw := words(goal)
			for i, h := range Hints(lv.ID, m) {
				hw, shared := words(h), 0
				for w := range gw {
					if hw[w] {
						shared++
					}
				}
				if 2*shared > len(gw) {
					t.Errorf("level %s, hint %d repeats the goal %q: %q", lv.ID, i+1, goal, h)
				}
			}
		}
		hs := Hints(lv.ID, FixIt)
		last := hs[len(hs)-1]
		for _, code := range []string{"redis.call", "KEYS[1]", " then", " end", "return redis", "In Lua:"} {
			if strings.Contains(last, code) {
				t.Errorf("level %s: the last hint is code (%q): %q", lv.ID, code, last)
			}
		}
	}
}

// TestReferenceDiffLineBreaks: a Lua part that differs from the reference
// only in where its lines break is the same; a .redis part's line breaks
// are its commands, and differ.
func TestReferenceDiffLineBreaks(t *testing.T) {
	ref, _ := Reference("get-then-del")
	mine := ref
	mine.Release.Src = strings.Join(strings.Fields(ref.Release.Src), " ")
	if d := ReferenceDiff("get-then-del", &mine); d != "" {
		t.Errorf("a release on one line should be the same as the reference:\n%s", d)
	}
	if sameCode(Commands, "GET {key}\nif token: DEL {key}\n", "GET {key} if token: DEL {key}\n") {
		t.Error("a .redis part's line breaks are its commands")
	}
}
