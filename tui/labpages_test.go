package tui

import (
	"locksim/sim/simtest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/storycode"

	"github.com/charmbracelet/x/ansi"
)

// levelLine is the presses that open level id in mode m from the lab's
// list (the levels to break first, then those to fix).
func levelLine(t *testing.T, id string, m lab.Mode) string {
	t.Helper()
	i := slices.IndexFunc(lab.Levels(), func(lv lab.Level) bool { return lv.ID == id })
	if i < 0 {
		t.Fatalf("no level %s", id)
	}
	if m == lab.FixIt {
		i += len(lab.Levels())
	}
	return strings.Repeat("[down]", i) + "[enter]"
}

// labFix is the compare-and-delete release, typed into the editor: the
// reference fix but for its quotes and indentation. labFixLocal is the
// same with the value read into a local first.
const (
	labFix      = "if redis.call('GET', KEYS[1]) == ARGV[1] then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0"
	labFixLocal = "local v = redis.call('GET', KEYS[1])\nif v == ARGV[1] then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0"
)

// TestLabOpensOnItsPart: a level's page opens with the part it is about
// in view, in both modes: the acquire for an acquire in two commands, the
// release for a release in two, the extend for an extend that recreates,
// each part's cursor at the start of its line 1.
func TestLabOpensOnItsPart(t *testing.T) {
	for _, c := range []struct {
		id   string
		part int
	}{{"get-then-set", 0}, {"setnx-expire", 0}, {"get-then-del", 1}, {"extend-recreates", 2}} {
		for _, m := range []lab.Mode{lab.BreakIt, lab.FixIt} {
			a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, c.id, m))
			if got := a.labPage().partInView(); got != c.part {
				t.Errorf("%s (mode %d) opens on %s, want %s:\n%s", c.id, m, labPartNames[got], labPartNames[c.part], a.View())
			}
			if tab := "[" + labPartNames[c.part] + ":"; !strings.Contains(a.View(), tab) {
				t.Errorf("%s: no tab %s on screen", c.id, tab)
			}
			cursorsAtStart(t, a.labPage())
		}
	}
}

// cursorsAtStart fails unless every part's editor has its cursor at line
// 1, column 0. A lock opened before the window's size (-lab) was loaded
// at the editor's first width, where its line 1 wrapped: the cursor was
// left on line 1's last row, at the end of line 1 once widened.
func cursorsAtStart(t *testing.T, l *Lab) {
	t.Helper()
	for p := range l.parts {
		ta := &l.parts[p]
		if li := ta.LineInfo(); ta.Line() != 0 || li.RowOffset != 0 || li.ColumnOffset != 0 {
			t.Errorf("%s's cursor at line %d, row %d, column %d; want line 1's start", labPartNames[p], ta.Line()+1, li.RowOffset, li.ColumnOffset)
		}
	}
}

// TestLabHints: ctrl+x shows the level's hints one at a time, each
// staying on the page, and says when none is left; a ? in the editor is
// code, and ctrl+g opens the keys page, which any key closes.
func TestLabHints(t *testing.T) {
	a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "get-then-del", lab.FixIt))
	hs := lab.Hints("get-then-del", lab.FixIt)
	if len(hs) != 3 {
		t.Fatalf("get-then-del should have three hints to fix it: %q", hs)
	}
	if strings.Contains(a.View(), "hint 1") {
		t.Fatalf("no hint before it is asked for:\n%s", a.View())
	}
	drive(t, a, labPresses("[ctrl+x]")...)
	v := a.View()
	if !strings.Contains(v, "hint 1 of 3: "+hs[0][:30]) || strings.Contains(v, "hint 2 of 3") {
		t.Fatalf("ctrl+x should show the first hint alone:\n%s", v)
	}
	drive(t, a, labPresses("[ctrl+x][ctrl+x]")...)
	flat := strings.Join(strings.Fields(a.View()), " ")
	for i, h := range hs {
		if want := strings.Join(strings.Fields(h), " "); !strings.Contains(flat, want) {
			t.Errorf("hint %d should be on the page, whole: %q\n%s", i+1, want, a.View())
		}
	}
	drive(t, a, labPresses("[ctrl+x]")...)
	if !strings.Contains(a.View(), "that was the last hint") {
		t.Errorf("a press past the last hint should say so:\n%s", a.View())
	}

	before := a.labPage().parts[1].Value()
	drive(t, a, labPresses("?")...)
	if a.labPage().showHelp || a.labPage().parts[1].Value() != "?"+before {
		t.Errorf("? in the editor should be typed into the code, not open the keys: %q", a.labPage().parts[1].Value())
	}
	if !strings.Contains(a.View(), "ctrl+g keys") {
		t.Errorf("the footer should say how to open the keys page:\n%s", a.View())
	}
	drive(t, a, labPresses("[ctrl+g]")...)
	if v := a.View(); !a.labPage().showHelp || !strings.Contains(v, "ctrl+l") || !strings.Contains(v, "? included") {
		t.Fatalf("ctrl+g should open the keys page, every key on it:\n%s", v)
	}
	drive(t, a, labPresses("x")...)
	if a.labPage().showHelp || a.labPage().parts[1].Value() != "?"+before {
		t.Errorf("a key should close the keys page and do nothing else: %q", a.labPage().parts[1].Value())
	}
	// on a lock to break nothing is typed: ? opens the keys page there
	b := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "get-then-del", lab.BreakIt)+"?")
	if !b.labPage().showHelp || !strings.Contains(b.View(), "? keys") && !strings.Contains(b.View(), "?") {
		t.Errorf("? on a lock to break should open the keys page:\n%s", b.View())
	}
	c := openLab(t, Options{Seed: 1}, 80, 24, "?")
	if !c.labPage().showHelp {
		t.Errorf("? on the levels should open the keys page:\n%s", c.View())
	}
}

// TestLabPassedPage: a level to fix, once passed, says so on its own
// page; ctrl+x then puts the reference fix beside the learner's lock as
// a diff, which any key takes away.
func TestLabPassedPage(t *testing.T) {
	a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "get-then-del", lab.FixIt)+clearPart(6)+"[ctrl+l]"+labFixLocal+"[ctrl+r]")
	if !a.course.Prog.Levels["fix:get-then-del"] {
		t.Fatalf("the fix should pass the level:\n%s", a.View())
	}
	if v := a.View(); !strings.Contains(v, "✓ level passed") || !strings.Contains(v, "reference fix") {
		t.Fatalf("the level's page should say it is passed, and offer the reference fix:\n%s", v)
	}
	drive(t, a, labPresses("[ctrl+x]")...)
	v := a.View()
	for _, want := range []string{"--- yours/release.lua", "+++ reference/release.lua", "-local v = redis.call('GET', KEYS[1])",
		"+if redis.call('GET', KEYS[1]) == ARGV[1] then", "any key: back"} {
		if !strings.Contains(v, want) {
			t.Errorf("the reference diff should show %q:\n%s", want, v)
		}
	}
	drive(t, a, labPresses("[esc]")...)
	if a.labPage().showRef || a.labPage().mode != labEdit {
		t.Errorf("esc should close the diff, and only the diff:\n%s", a.View())
	}
	// the reference fix but for quotes, indentation and line breaks is no
	// diff to show
	for _, fix := range []string{labFix, strings.ReplaceAll(labFix, "\n", " ")} {
		b := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "get-then-del", lab.FixIt)+clearPart(6)+"[ctrl+l]"+fix+"[ctrl+r][ctrl+x]")
		if b.labPage().showRef || !strings.Contains(b.View(), "same as the reference fix") {
			t.Errorf("a lock that is the reference fix should say so, with no diff:\n%s", b.View())
		}
	}
}

// TestLabFixReleaseThatNeverFrees: a release that deletes nothing does
// not pass a level to fix, and once the level is passed, a run of such a
// release does not have the page vouch for it: the page says the release
// does not free the lock, with the schedule that shows it, and no longer
// that the lock grants.
func TestLabFixReleaseThatNeverFrees(t *testing.T) {
	a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "get-then-del", lab.FixIt)+clearPart(6)+"[ctrl+l]return 0[ctrl+r]")
	if a.course.Prog.Levels["fix:get-then-del"] {
		t.Fatalf("a release that returns 0 should not pass the level:\n%s", a.View())
	}
	drive(t, a, labPresses(clearPart(1)+labFix+"[ctrl+r]")...)
	if !a.course.Prog.Levels["fix:get-then-del"] || !strings.Contains(a.View(), "and the lock grants") {
		t.Fatalf("compare-and-delete should pass the level:\n%s", a.View())
	}
	drive(t, a, labPresses(clearPart(4)+"return 0[ctrl+r]")...)
	v := ansi.Strip(a.View())
	flat := strings.Join(strings.Fields(v), " ")
	if strings.Contains(flat, "and the lock grants") {
		t.Errorf("after a run of a release that never frees, the page should not say the lock grants:\n%s", v)
	}
	for _, want := range []string{"A acquire, A write, A release, B acquire:", "the release does not free the lock", "not by this version of the lock"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the page should say %q:\n%s", want, v)
		}
	}
	// opened again, the level is passed, but the lock in the editor has
	// not run: the page vouches for nothing
	drive(t, a, labPresses("[esc][enter]")...)
	v = ansi.Strip(a.View())
	if flat = strings.Join(strings.Fields(v), " "); strings.Contains(flat, "and the lock grants") || !strings.Contains(flat, "✓ level passed before") {
		t.Errorf("a passed level opened again should say it was passed, and vouch for no lock not run:\n%s", v)
	}
}

// TestLabListCountsHidden: at 80x24, with the goal of the learner's own
// lock under it, the levels do not all fit; wherever the selection is,
// every level is on screen or counted in a "k more" line above or below
// it, and the selected one is on screen.
func TestLabListCountsHidden(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "[esc]")
	n := len(lab.Levels())*2 + 1
	more := regexp.MustCompile(`^\s*[↑↓] (\d+) more\s*$`)
	hid := false
	for sel := n - 1; sel >= 0; sel-- {
		if a.labPage().mode != labList || a.labPage().sel != sel {
			t.Fatalf("the list should be selecting line %d:\n%s", sel, a.View())
		}
		v := ansi.Strip(a.View())
		if h := strings.Count(v, "\n") + 1; h > 24 {
			t.Fatalf("the list takes %d rows of 24:\n%s", h, v)
		}
		seen, counted, selected := 0, 0, false
		for _, line := range strings.Split(v, "\n") {
			if m := more.FindStringSubmatch(line); m != nil {
				k, _ := strconv.Atoi(m[1])
				counted += k
				hid = true
				continue
			}
			if strings.Contains(line, "this lock  ") || strings.Contains(line, "write one  ") {
				seen++
				selected = selected || strings.HasPrefix(line, "> ")
			}
		}
		if seen+counted != n || !selected {
			t.Fatalf("with line %d selected: %d levels shown and %d counted, of %d; selected on screen %v:\n%s", sel, seen, counted, n, selected, v)
		}
		drive(t, a, labPresses("[up]")...)
	}
	if !hid {
		t.Error("at 80x24 some level should be hidden, and counted")
	}
}

// TestLabNotesOnPage: the lint notes of the lock the adversary ran on are
// on the page under the result, which they do not change.
func TestLabNotesOnPage(t *testing.T) {
	release := "local v = redis.call('GET', KEYS[1])\nif v == nil or v == ARGV[1] then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0"
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 120, 40, clearPart(6)+"[ctrl+l]"+release+"[ctrl+r]")
	if v := judgementOf(t, a, lab.NoForeignRelease); v.Status != lab.Pass {
		t.Fatalf("v == nil or v == token keeps no-foreign-release: %+v", v)
	}
	if v := a.View(); !strings.Contains(v, "note release.lua:2: v == nil never holds") {
		t.Errorf("the note should be on the page:\n%s", v)
	}
}

// TestLabBreakFirstScreen: a level to break, played by hand, opens on a
// screen that asks for the learner's move with the level's count of
// clients: no "0/0", no "end of story", no next scene, esc back to the
// lab.
func TestLabBreakFirstScreen(t *testing.T) {
	a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "get-then-del", lab.BreakIt)+"[enter]")
	if !a.labStory {
		t.Fatalf("enter should open the level's lock by hand:\n%s", a.View())
	}
	v := a.View()
	for _, gone := range []string{"0/0", "end of story", "next scene", "1-3", "esc contents"} {
		if strings.Contains(v, gone) {
			t.Errorf("the first screen should not say %q:\n%s", gone, v)
		}
	}
	for _, want := range []string{"your move: 1-2 picks a client, enter steps it", "esc the lab"} {
		if !strings.Contains(v, want) {
			t.Errorf("the first screen should say %q:\n%s", want, v)
		}
	}
	drive(t, a, labPresses("n")...)
	if !strings.Contains(a.pl.Flash, "1-2 picks a client") {
		t.Errorf("a step with no schedule should say how to move, with the level's clients: %q", a.pl.Flash)
	}
}

// TestLabLinesUncut: at 80x24 no line of the lab's pages is cut (no "…"
// a truncation leaves, nothing wider than the screen), the footer
// included, and the footer always names the keys page's key.
func TestLabLinesUncut(t *testing.T) {
	fixGetDel := levelLine(t, "get-then-del", lab.FixIt)
	for _, c := range []struct {
		name, presses string
		dir           bool
	}{
		{"levels", "", false},
		{"levels, the last", strings.Repeat("[down]", 20), false},
		{"a level to break", levelLine(t, "no-fencing", lab.BreakIt), false},
		{"a level to fix", fixGetDel, false},
		{"three hints", fixGetDel + "[ctrl+x][ctrl+x][ctrl+x]", false},
		{"a level's result", fixGetDel + "[ctrl+r]", false},
		{"passed", fixGetDel + clearPart(6) + "[ctrl+l]" + labFix + "[ctrl+r]", false},
		{"the keys page", fixGetDel + "[ctrl+g]", false},
		{"a result", clearPart(6) + "GET {key}\nif token: DEL {key}[ctrl+r]", true},
		{"the watchdog's note", "[tab][tab][tab][tab][tab]", true},
	} {
		o := Options{Seed: 1}
		if c.dir {
			o.Lab = labDir(t)
		}
		a := openLab(t, o, 80, 24, c.presses)
		v := a.View()
		if strings.HasPrefix(c.name, "the watchdog") && a.labPage().note == "" {
			t.Errorf("the watchdog's field should bring its note:\n%s", v)
		}
		lines := strings.Split(v, "\n")
		if len(lines) != 24 {
			t.Errorf("%s: %d rows, want 24:\n%s", c.name, len(lines), v)
		}
		for _, line := range lines {
			if strings.Contains(line, "…") || ansi.StringWidth(line) > 80 {
				t.Errorf("%s: a line is cut: %q\n%s", c.name, line, v)
			}
		}
		if foot := lines[len(lines)-1]; a.labPage().note == "" && !strings.Contains(foot, "keys") && !strings.Contains(foot, "any key") {
			t.Errorf("%s: the footer should name the keys page: %q", c.name, foot)
		}
	}
}

// TestLabPageGoldens draws the lab's new pages at 80x24 and 120x40: a
// level to break, its story's first screen, the hints, a passed level,
// the reference fix beside the lock, and the keys page.
func TestLabPageGoldens(t *testing.T) {
	fixGetDel := levelLine(t, "get-then-del", lab.FixIt)
	breakGetSet := levelLine(t, "get-then-set", lab.BreakIt)
	passed := fixGetDel + clearPart(6) + "[ctrl+l]" + labFixLocal + "[ctrl+r]"
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range []struct{ name, presses string }{
			{"lab-break-level", breakGetSet},
			{"lab-hand-story", breakGetSet + "[enter]"},
			{"lab-hints", fixGetDel + "[ctrl+x][ctrl+x][ctrl+x]"},
			{"lab-passed", passed},
			{"lab-reference", passed + "[ctrl+x]"},
			{"lab-keys", fixGetDel + "[ctrl+g]"},
		} {
			a := openLab(t, Options{Seed: 1}, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}

// TestLabStoryPointer: y on a story of the lab gives its short pointer,
// not the code of hundreds of characters, and writes the code to the
// file the pointer names, which storycode reads back to the same story.
func TestLabStoryPointer(t *testing.T) {
	dir := exportDir(t)
	a := openLab(t, Options{Seed: 3, NoQuiz: true, Lab: labDir(t)}, 80, 24, "[ctrl+r][ctrl+o]nn")
	if !a.labStory {
		t.Fatalf("ctrl+o should open the break:\n%s", a.View())
	}
	want := a.pl.Position()
	drive(t, a, keys("y")...)
	m := regexp.MustCompile(`^-story (lab-[0-9a-f]{10}) · wrote its code file, and locksim-lab-seed3.redis for redis-cli < file, in:\n(\S+)$`).FindStringSubmatch(a.pl.Flash)
	if m == nil {
		t.Fatalf("y should give the story's pointer and where its code is: %q", a.pl.Flash)
	}
	if strings.Contains(a.pl.Flash, "lab.") || len(strings.Fields(a.pl.Flash)[1]) > 20 {
		t.Errorf("the line should not carry the whole code: %q", a.pl.Flash)
	}
	code, err := storycode.Resolve(m[1], dir)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := storycode.Decode(code)
	if err != nil || pos.Lab == nil || pos.Step != want.Step || len(pos.Lab.Moves) != len(want.Lab.Moves) {
		t.Errorf("the pointer's code should open the same story at step %d: %+v, %v", want.Step, pos, err)
	}
	if ansi.StringWidth(strings.SplitN(a.pl.Flash, " · wrote", 2)[0]) > 80 {
		t.Errorf("the pointer and its directory should fit 80 columns: %q", a.pl.Flash)
	}
	if m[2] != homeShort(dir, os.Getenv("HOME")) {
		t.Errorf("the line should name the export directory %s: %q", dir, a.pl.Flash)
	}
	if _, err := os.Stat(filepath.Join(dir, storycode.PointerFile(m[1]))); err != nil {
		t.Errorf("the code's file should be in the export directory: %v", err)
	}
}

// TestLabGoalWrapsBetweenNames: at 80x24 the goal under the levels and over
// a level's editor wraps its threats and properties at their separators,
// never inside a name ("pause-" / "half").
func TestLabGoalWrapsBetweenNames(t *testing.T) {
	for i := range len(lab.Levels()) + 1 {
		for _, open := range []string{"", "[enter]"} {
			a := openLab(t, Options{Seed: 1}, 80, 24, strings.Repeat("[down]", i)+open)
			v := a.View()
			if !strings.Contains(v, "threats: ") {
				t.Fatalf("level %d%s: no threats on screen:\n%s", i, open, v)
			}
			for _, r := range strings.Split(v, "\n") {
				r = strings.TrimRight(r, " ")
				if n := len(r); n > 1 && r[n-1] == '-' && r[n-2] >= 'a' && r[n-2] <= 'z' {
					t.Errorf("level %d%s: a name is split across lines at %q:\n%s", i, open, r, v)
				}
			}
		}
	}
	// the own lock under -lab DIR, its lab.json naming every fault
	dir := filepath.Join(t.TempDir(), "lock")
	policy := `{"faults": ["pause-half", "pause-past", "crash", "lost-reply", "clock-jump", "restart"], "bound": {"clients": 2, "faults": 1, "depth": 8}}`
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lab.json"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	v := openLab(t, Options{Seed: 1, Lab: dir}, 80, 24, "").View()
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "threats: pause-half, pause-past, crash, lost-reply, clock-jump, restart") {
		t.Fatalf("the own lock's goal should name every threat:\n%s", v)
	}
	for _, r := range strings.Split(v, "\n") {
		r = strings.TrimRight(r, " ")
		if n := len(r); n > 1 && r[n-1] == '-' && r[n-2] >= 'a' && r[n-2] <= 'z' {
			t.Errorf("own lock: a name is split across lines at %q:\n%s", r, v)
		}
	}
}
