package tui

import (
	"context"
	"encoding/json"
	"locksim/sim/simtest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/play"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// labPresses turns a string of presses into key messages for the lab:
// each character typed, "\n" enter, and the named keys in brackets
// ([ctrl+r], [esc], [pgdown], ...); a bracket that names no key is typed.
func labPresses(s string) []tea.Msg {
	named := map[string]tea.KeyType{"ctrl+r": tea.KeyCtrlR, "ctrl+l": tea.KeyCtrlL, "ctrl+s": tea.KeyCtrlS,
		"ctrl+home": tea.KeyCtrlHome, "ctrl+k": tea.KeyCtrlK, "delete": tea.KeyDelete, "backspace": tea.KeyBackspace,
		"shift+tab": tea.KeyShiftTab, "ctrl+end": tea.KeyCtrlEnd, "ctrl+o": tea.KeyCtrlO, "pgdown": tea.KeyPgDown,
		"pgup": tea.KeyPgUp, "ctrl+x": tea.KeyCtrlX, "ctrl+g": tea.KeyCtrlG, "esc": tea.KeyEsc, "tab": tea.KeyTab, "down": tea.KeyDown, "up": tea.KeyUp, "enter": tea.KeyEnter,
		"ctrl+down": tea.KeyCtrlDown, "ctrl+up": tea.KeyCtrlUp}
	var out []tea.Msg
	for len(s) > 0 {
		if s[0] == '\n' {
			out = append(out, tea.KeyMsg{Type: tea.KeyEnter})
			s = s[1:]
			continue
		}
		if end := strings.IndexByte(s, ']'); s[0] == '[' && end > 0 {
			if kt, ok := named[s[1:end]]; ok {
				out = append(out, tea.KeyMsg{Type: kt})
				s = s[end+1:]
				continue
			}
		}
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(s[0])}})
		s = s[1:]
	}
	return out
}

// clearPart is the presses that empty the part in focus: to its start,
// then each line cut and the line break after it deleted.
func clearPart(lines int) string {
	return "[ctrl+home]" + strings.Repeat("[ctrl+k][delete]", lines+1)
}

// TestLabFromTheContents: the lab is a line of the contents after the
// single-instance scenes; enter opens its levels, esc comes back to the
// contents with the lab still selected, and the scenes' numbering is the
// registry's.
func TestLabFromTheContents(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "")
	a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // a blink's command runs for ever
	var ids []string
	for _, it := range a.toc.list().Items() {
		if e, ok := it.(entry); ok {
			ids = append(ids, e.id)
		}
	}
	at := strings.Index(strings.Join(ids, " "), "key-naming lab redlock")
	if at < 0 {
		t.Fatalf("the lab should follow key-naming, before redlock: %v", ids)
	}
	drive(t, a, keys("/lab[enter]")...)
	if a.labPage() == nil || a.onContents() {
		t.Fatalf("/lab enter should open the lab:\n%s", a.View())
	}
	if v := a.View(); !strings.Contains(v, "break this lock") || !strings.Contains(v, "fix this lock") {
		t.Errorf("the lab's first page should list both kinds of level:\n%s", v)
	}
	drive(t, a, keys("[esc]")...)
	if a.labPage() != nil || !a.onContents() {
		t.Fatalf("esc on the levels should go back to the contents:\n%s", a.View())
	}
	if e := a.toc.list().SelectedItem().(entry); !e.lab {
		t.Errorf("back in the contents the lab should be selected, not %s", e.id)
	}
	drive(t, a, keys("[down][enter]")...)
	if a.onContents() || a.pl.Scene.ID != "redlock" {
		t.Errorf("the line after the lab should open redlock, got %s", a.pl.Scene.ID)
	}
}

// labDir is a lab directory holding only lab.json with a small threat
// model and bound, so a search stays cheap: one fault, a pause past the
// TTL, two clients, depth 8.
func labDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "lock")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	policy := `{"faults": ["pause-past"], "bound": {"clients": 2, "faults": 1, "depth": 8}}`
	if err := os.WriteFile(filepath.Join(dir, "lab.json"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// judgementOf is the report's judgement on p, failing the test without one.
func judgementOf(t *testing.T, a *App, p lab.Property) lab.Judgement {
	t.Helper()
	if a.labPage().report == nil {
		t.Fatalf("no report on screen:\n%s", a.View())
	}
	v, ok := a.labPage().report.Judgement(p)
	if !ok {
		t.Fatalf("the report judged no %s:\n%s", p, a.View())
	}
	return v
}

// verdictLine is the screen's result line of property p (it starts
// with its mark), "" for none.
func verdictLine(screen string, p lab.Property) string {
	for _, line := range strings.Split(screen, "\n") {
		for _, mark := range []string{"✗ ", "✓ "} {
			// the property's own line, not the head line that lists it
			if strings.HasPrefix(line, mark+string(p)+" ") || strings.HasPrefix(line, mark+"▸"+string(p)+" ") {
				return line
			}
		}
	}
	return ""
}

// TestLabBreakAndFix is the lab as a learner meets it, driven by keys:
// a release written as GET then DEL, the adversary's break of
// no-foreign-release opened as a story and stepped through (its position
// opens again elsewhere, to the same break), then the release fixed with
// a compare-and-delete script, which the adversary finds no break of.
func TestLabBreakAndFix(t *testing.T) {
	dir := labDir(t)
	a, _ := openCourse(t, Options{Seed: 7, NoQuiz: false, Lab: dir}, "")
	if a.labPage() == nil || a.labPage().mode != labEdit || !a.labPage().level(a.labPage().open).own {
		t.Fatalf("-lab DIR should open the editor on the learner's own lock:\n%s", a.View())
	}
	drive(t, a, labPresses(clearPart(6)+"GET {key}\nif token: DEL {key}[ctrl+r]")...)
	if a.labPage().running {
		t.Fatal("the search should have ended")
	}
	if v := judgementOf(t, a, lab.NoForeignRelease); v.Status != lab.Fail || v.Break == nil {
		t.Fatalf("GET then DEL should break no-foreign-release: %+v\n%s", v, a.View())
	}
	screen := a.View()
	if line := verdictLine(screen, lab.NoForeignRelease); line != "" || !strings.Contains(screen, "? the adversary found") {
		t.Errorf("before its story's question is answered the screen should not name the break: %q\n%s", line, screen)
	}
	// the bound is the goal's; the search's summary (how many schedules
	// broke) waits for the answer with the rest of the report
	if !strings.Contains(words(screen), "2 clients, up to 1 fault, depth 8") || strings.Contains(words(screen), " explored, ") {
		t.Errorf("the screen should state the bound, and not yet the summary:\n%s", screen)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "release.redis")); err != nil || !strings.Contains(string(b), "if token: DEL {key}") {
		t.Errorf("the run should save the release to %s: %q, %v", dir, b, err)
	}

	// pick the no-foreign-release break and open it
	for range len(a.labPage().failures()) {
		if a.labPage().failures()[a.labPage().pick].Property == lab.NoForeignRelease {
			break
		}
		drive(t, a, labPresses("[pgdown]")...)
	}
	drive(t, a, labPresses("[ctrl+o]")...)
	if !a.labStory || a.pl.Scene.ID != lab.SceneID {
		t.Fatalf("ctrl+o should open the break as a story:\n%s", a.View())
	}
	for i := 0; !a.pl.Asking && i < 20; i++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("the story should ask before the breaking move:\n%s", a.View())
	}
	if broken := lab.BrokenIn(a.pl.Ledger); slices.Contains(broken, lab.NoForeignRelease) {
		t.Fatalf("no-foreign-release broken before the question: %v", broken)
	}
	drive(t, a, keys("1")...)
	if broken := lab.BrokenIn(a.pl.Ledger); !slices.Contains(broken, lab.NoForeignRelease) {
		t.Fatalf("after the breaking move the ledger should see no-foreign-release broken: %v\n%s", broken, a.View())
	}
	at := a.pl.Snap.Pos
	drive(t, a, keys("b")...)
	if a.pl.Snap.Pos != at-1 || slices.Contains(lab.BrokenIn(a.pl.Ledger), lab.NoForeignRelease) {
		t.Fatalf("a step back should undo the break: at %d, %v", a.pl.Snap.Pos, lab.BrokenIn(a.pl.Ledger))
	}
	drive(t, a, keys("n")...)

	// a step past the end stays in the lab's story
	for i := 0; i < 20 && !a.storyOver(); i++ {
		drive(t, a, keys("n")...)
	}
	drive(t, a, keys("n")...)
	if !a.labStory || !strings.Contains(a.pl.Flash, "the lab's story has ended") {
		t.Fatalf("a step past the end should say the lab's story ended, and stay: %q\n%s", a.pl.Flash, a.View())
	}

	// the position carries the story: it opens again, on another server
	pos := a.pl.Position()
	data, err := json.Marshal(pos)
	if err != nil {
		t.Fatal(err)
	}
	back, err := play.ParsePosition(data)
	if err != nil {
		t.Fatalf("the lab story's position should read back: %v\n%s", err, data)
	}
	s := startedAt(t, context.Background(), back, embedded(t))
	if s.Snap.Pos != pos.Step || !slices.Contains(lab.BrokenIn(s.Ledger), lab.NoForeignRelease) {
		t.Errorf("the position should open at step %d with the break: at %d, %v", pos.Step, s.Snap.Pos, lab.BrokenIn(s.Ledger))
	}
	s.Run.Close()

	// back to the lab, and the fix
	drive(t, a, keys("[esc]")...)
	if a.labStory || a.labPage().mode != labEdit {
		t.Fatalf("esc should go back to the lab's editor:\n%s", a.View())
	}
	fix := "if redis.call('GET', KEYS[1]) == ARGV[1] then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0"
	drive(t, a, labPresses(clearPart(2)+"[ctrl+l]"+fix+"[ctrl+r]")...)
	if v := judgementOf(t, a, lab.NoForeignRelease); v.Status != lab.Pass {
		t.Fatalf("compare-and-delete should keep no-foreign-release: %+v\n%s", v, a.View())
	}
	// the lesson's breaks, unanswered, hold the report back
	for i := 0; i < 5 && a.labPage().openBreaks() > 0; i++ {
		answerBreak(t, a)
	}
	screen = ansi.Strip(strings.Join(a.labPage().resultRows(), "\n")) // scrolled at 80x24
	if line := verdictLine(screen, lab.NoForeignRelease); !strings.Contains(line, "no break within the bound") {
		t.Errorf("the screen should say no break within the bound for no-foreign-release: %q\n%s", line, screen)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "release.lua")); err != nil || !strings.Contains(string(b), "redis.call('DEL', KEYS[1])") {
		t.Errorf("the fix should be saved as release.lua: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "release.redis")); err == nil {
		t.Error("release.redis should be gone once the release is Lua")
	}
}

// openLab opens the course at w x h and the lab from the contents, then
// presses the given keys (see labPresses).
func openLab(t *testing.T, o Options, w, h int, presses string) *App {
	t.Helper()
	a, _ := openCourse(t, o, "")
	a.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic) // a blink's command runs for ever
	drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	if o.Lab == "" {
		drive(t, a, keys("/lab[enter]")...)
	}
	drive(t, a, labPresses(presses)...)
	return a
}

// TestLabGoldens draws the lab's pages at 80x24 and 120x40: the levels,
// a level's lock in the editor, a result, and a Lua error at its line.
func TestLabGoldens(t *testing.T) {
	t.Parallel()
	fixGetDel := strings.Repeat("[down]", len(lab.Levels())+1) + "[enter]"
	getDel := clearPart(6) + "GET {key}\nif token: DEL {key}[ctrl+r]"
	syntax := clearPart(6) + "[ctrl+l]local v = redis.call('GET', KEYS[1])\nif v == then return 1 end[ctrl+r]"
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range []struct {
			name, presses string
			dir           bool
		}{
			{"lab-levels", "[down]", false},
			{"lab-editor", fixGetDel, false},
			{"lab-result", getDel, true},
			{"lab-result-asks", getDel, true},
			{"lab-lua-error", syntax, true},
		} {
			// the result with predictions off; -asks as a learner meets it,
			// held back until each break's question is answered
			o := Options{Seed: 1, NoQuiz: c.name == "lab-result"}
			if c.dir {
				o.Lab = labDir(t)
			}
			a := openLab(t, o, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}

// TestLabLuaErrorInPlace: a script that does not compile is named with
// its line under the editor, its part in view and the cursor on that
// line; typing in the part takes the error away.
func TestLabLuaErrorInPlace(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, clearPart(6)+
		"[ctrl+l]local v = redis.call('GET', KEYS[1])\nif v == then return 1 end[ctrl+r]")
	se := a.labPage().scriptErr
	if se == nil || se.Part != lab.PartRelease || se.Line != 2 {
		t.Fatalf("the release's syntax error should be kept with line 2: %+v\n%s", se, a.View())
	}
	if a.labPage().partInView() != 1 || a.labPage().parts[1].Line() != 1 {
		t.Errorf("the release should be in view with the cursor on line 2: part %d, line %d", a.labPage().partInView(), a.labPage().parts[1].Line()+1)
	}
	if v := a.View(); !strings.Contains(v, "✗ release.lua:2:") {
		t.Errorf("the screen should name release.lua's line 2:\n%s", v)
	}
	drive(t, a, labPresses(" ")...)
	if a.labPage().scriptErr != nil {
		t.Error("an edit of the part should take the error away")
	}
}

// TestLabBreakByHand: a level to break opens its lock as a story with no
// schedule; the learner's own moves (A's acquire, write and GET, a pause
// past the TTL, B's acquire, A's DEL) break no-foreign-release, the ledger
// sees it, and the level is passed and saved.
func TestLabBreakByHand(t *testing.T) {
	i := slices.IndexFunc(lab.Levels(), func(lv lab.Level) bool { return lv.ID == "get-then-del" })
	if i < 0 {
		t.Fatal("no get-then-del level")
	}
	a := openLab(t, Options{Seed: 1}, 80, 24, strings.Repeat("[down]", i)+"[enter][enter]")
	if !a.labStory || a.pl.Scene.ID != lab.SceneID || len(a.pl.Run.Moves()) != 0 {
		t.Fatalf("enter on a level to break should open its lock with no schedule:\n%s", a.View())
	}
	if line := lineWith(a.View(), "locksim"); !strings.Contains(line, "break this lock: A release in two commands") || strings.Contains(line, "Write your own lock") {
		t.Errorf("the story's title should name the level it plays: %q", line)
	}
	// A: acquire, write, GET; A pauses; three waits of half a TTL; B
	// acquires; A wakes and sends its DEL
	drive(t, a, labPresses("1[enter][enter][enter]pwww2[enter]1p")...)
	if slices.Contains(lab.BrokenIn(a.pl.Ledger), lab.NoForeignRelease) {
		t.Fatal("nothing is broken before A's DEL")
	}
	drive(t, a, labPresses("[enter]")...)
	if !slices.Contains(lab.BrokenIn(a.pl.Ledger), lab.NoForeignRelease) {
		t.Fatalf("A's DEL of B's lock should break no-foreign-release:\n%s", a.View())
	}
	if !strings.Contains(a.View(), "level passed") || !a.course.Prog.Levels["break:get-then-del"] {
		t.Errorf("the level should be passed and recorded: %v\n%s", a.course.Prog.Levels, a.View())
	}
	drive(t, a, labPresses("[esc][esc][esc]")...)
	if a.labStory || a.labPage().mode != labList || !strings.Contains(lineWith(a.View(), "A release in two commands"), "✓") {
		t.Errorf("back on the levels the level should be marked passed:\n%s", a.View())
	}
}

// lineWith is the screen's first line that holds s, "" for none.
func lineWith(screen, s string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}

// TestLabStoryResumes: a lab story on screen when locksim ends is saved
// with its lock and schedule; next time, opening the lab opens it again
// where it was; and a position handed over (a story's code, a class)
// opens it at once.
func TestLabStoryResumes(t *testing.T) {
	dir := labDir(t)
	a, store := openCourse(t, Options{Seed: 3, NoQuiz: true, Lab: dir}, "")
	drive(t, a, labPresses("[ctrl+r][ctrl+o]nnn")...)
	if !a.labStory {
		t.Fatalf("ctrl+o should open the break:\n%s", a.View())
	}
	want := a.pl.Position()
	a.SaveProgress()

	b, _ := openCourse(t, Options{Seed: 3, NoQuiz: true, Store: store}, "")
	b.toc.list().FilterInput.Cursor.SetMode(cursor.CursorStatic)
	drive(t, b, keys("/lab[enter]")...)
	if !b.labStory || b.pl.Snap.Pos != want.Step || b.pl.LabPlace() == nil {
		t.Fatalf("opening the lab should bring last time's story back at step %d:\n%s", want.Step, b.View())
	}
	if got := b.pl.LabPlace(); got.Property != want.Lab.Property || len(got.Moves) != len(want.Lab.Moves) {
		t.Errorf("the story should be last time's break: %+v, want %+v", got, want.Lab)
	}
	drive(t, b, keys("[esc]")...)
	if b.labStory || b.labPage() == nil {
		t.Fatalf("esc should go back to the lab:\n%s", b.View())
	}

	c, _ := openCourse(t, Options{Position: &want}, "")
	if !c.labStory || c.pl.Snap.Pos != want.Step {
		t.Fatalf("a lab story's position should open it at step %d:\n%s", want.Step, c.View())
	}
	drive(t, c, keys("[esc][esc]")...)
	if !c.onContents() || c.labStory || c.labPage() != nil {
		t.Fatalf("esc, esc should leave the story, then the lab, for the contents:\n%s", c.View())
	}
	drive(t, c, keys("[up][enter]n")...)
	if c.onContents() || c.pl.Scene.ID != "key-naming" || c.pl.Busy || c.pl.Snap.Pos != 1 {
		t.Fatalf("the course under the story should still open and step its scenes: %s at %d\n%s", c.pl.Scene.ID, c.pl.Snap.Pos, c.View())
	}
}

// TestLabOnALiveCourse: on a live server the lab's line in the contents,
// and the lab's own header, say it runs on an embedded server of its own,
// and why.
func TestLabOnALiveCourse(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1}, "")
	toc := newContents(a.com, a.course, "", true)
	e := toc.labEntry()
	if !strings.Contains(e.Description(), "embedded server of its own") || !strings.Contains(e.Description(), "any key") {
		t.Errorf("the lab's line on a live course should say why it runs embedded: %q", e.Description())
	}
	own := labStarter()
	l := newLab(a.com, nil, nil, &own, "", true, nil)
	l.SetSize(120, 40)
	if v := l.View(); !strings.Contains(v, "embedded server of its own, not -redis") {
		t.Errorf("the lab's header on a live course should say it runs embedded:\n%s", v)
	}
	if e := newContents(a.com, a.course, "", false).labEntry(); strings.Contains(e.Description(), "embedded") {
		t.Errorf("on the embedded server the lab's line need not say so: %q", e.Description())
	}
}

// TestLabFixLevel: a level to fix is passed once the adversary finds no
// break of its properties within its bound; the mark shows on the levels
// and is kept in the progress.
func TestLabFixLevel(t *testing.T) {
	i := slices.IndexFunc(lab.Levels(), func(lv lab.Level) bool { return lv.ID == "get-then-del" })
	fix := "if redis.call('GET', KEYS[1]) == ARGV[1] then\nreturn redis.call('DEL', KEYS[1])\nend\nreturn 0"
	a := openLab(t, Options{Seed: 1}, 80, 24, strings.Repeat("[down]", len(lab.Levels())+i)+"[enter]")
	if lv := a.labPage().level(a.labPage().open); lv.Break() || lv.Level.ID != "get-then-del" {
		t.Fatalf("the line should be get-then-del to fix, got %s (break %v)", lv.Level.ID, lv.Break())
	}
	drive(t, a, labPresses("[ctrl+r]")...)
	if a.course.Prog.Levels["fix:get-then-del"] {
		t.Fatalf("the flawed lock should not pass:\n%s", a.View())
	}
	drive(t, a, labPresses(clearPart(6)+"[ctrl+l]"+fix+"[ctrl+r]")...)
	if v := judgementOf(t, a, lab.NoForeignRelease); v.Status != lab.Pass || !a.course.Prog.Levels["fix:get-then-del"] {
		t.Fatalf("compare-and-delete should pass the level: %+v, %v\n%s", v, a.course.Prog.Levels, a.View())
	}
	drive(t, a, labPresses("[esc]")...)
	if line := lineWith(a.View(), "> "); !strings.Contains(line, "✓ fix this lock") {
		t.Errorf("the level should be marked passed on the list: %q\n%s", line, a.View())
	}
}

// TestLabCancel: esc while the adversary searches stops it and says that
// nothing is known of the schedules it had not reached; the cancelled
// search's late messages change nothing.
func TestLabCancel(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "")
	_, wait := a.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	if !a.labPage().Running() || !strings.Contains(a.View(), "esc cancel the search") {
		t.Fatalf("ctrl+r should start the search, with esc to cancel it:\n%s", a.View())
	}
	drive(t, a, keys("[esc]")...)
	if a.labPage().Running() || !strings.Contains(a.View(), "search cancelled") {
		t.Fatalf("esc should cancel the search:\n%s", a.View())
	}
	runCmd(t, a, wait) // the cancelled search's messages, to the end
	if a.labPage().report != nil || !strings.Contains(a.View(), "search cancelled") {
		t.Errorf("a cancelled search's late messages should change nothing:\n%s", a.View())
	}
}

// TestLabLevelRefusesAnAddedPart: in a level whose lock has no extend, an
// extend the learner adds (one answering 0 would make every holder give
// up before the release the level is about) is refused by name at ctrl+r,
// as -grade -level refuses it, and the level is not passed.
func TestLabLevelRefusesAnAddedPart(t *testing.T) {
	i := slices.IndexFunc(lab.Levels(), func(lv lab.Level) bool { return lv.ID == "get-then-del" })
	a := openLab(t, Options{Seed: 1}, 80, 24, strings.Repeat("[down]", len(lab.Levels())+i)+"[enter]")
	l := a.labPage()
	l.setFocus(2) // the extend, empty in this level
	drive(t, a, labPresses("return 0[ctrl+r]")...)
	if l.running || l.report != nil || a.course.Prog.Levels["fix:get-then-del"] {
		t.Fatalf("the lock with an added extend should not run:\n%s", a.View())
	}
	if !strings.Contains(a.View(), "extend.lua: level get-then-del has no extend") {
		t.Errorf("the refusal should name extend.lua and the level:\n%s", a.View())
	}
}

// TestLabSearchWaitingForASlot: a served search that waits for one of the
// server's search slots says so on the lock's page, with its place in the
// queue, until its first count arrives.
func TestLabSearchWaitingForASlot(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "")
	l := a.labPage()
	l.running, l.prog = true, lab.Progress{Waiting: 2, Slots: 4}
	if v := a.View(); !strings.Contains(v, "waiting for one of the server's 4 search slots: place 2 in the queue") {
		t.Errorf("a waiting search should say so, and its place:\n%s", v)
	}
	l.prog = lab.Progress{Explored: 256, Max: 200_000, Done: 0.1}
	if v := a.View(); strings.Contains(v, "waiting for one") || !strings.Contains(v, "256 schedules explored") {
		t.Errorf("a running search should show its count:\n%s", v)
	}
	l.running = false
}

// TestLabFirstScreenKeys: -lab on a new directory opens at 80x24, each
// part's cursor at its line 1's start, with its
// note (a starter lock, saved there later) and, under it, the keys line
// with the keys page's key; ? in the editor is typed into the code (it
// belongs in a comment) and says where the keys page is; ? in a policy
// field, which takes no ?, opens the keys page.
func TestLabFirstScreenKeys(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: filepath.Join(t.TempDir(), "mylock")}, 80, 24, "")
	rows := strings.Split(ansi.Strip(a.View()), "\n")
	if len(rows) != 24 || !strings.Contains(rows[23], "ctrl+g keys") || !strings.Contains(strings.Join(rows, " "), "has no lock yet") {
		t.Fatalf("the first screen should show its note and, under it, the keys line:\n%s", strings.Join(rows, "\n"))
	}
	l := a.labPage()
	cursorsAtStart(t, l)
	part := l.focus
	before := l.parts[part].Value()
	drive(t, a, labPresses("?")...)
	rows = strings.Split(ansi.Strip(a.View()), "\n")
	if strings.Count(l.parts[part].Value(), "?") != strings.Count(before, "?")+1 || l.showHelp {
		t.Errorf("? in the editor should be typed into the code: %q", l.parts[part].Value())
	}
	if len(rows) != 24 || !strings.Contains(strings.Join(rows, " "), "ctrl+g opens the keys page") || !strings.Contains(rows[23], "ctrl+g keys") {
		t.Errorf("a ? typed should say where the keys page is, the keys line kept:\n%s", strings.Join(rows, "\n"))
	}
	for i := 0; i < 10 && l.focus < len(l.parts); i++ {
		drive(t, a, labPresses("[tab]")...)
	}
	drive(t, a, labPresses("?")...)
	if !l.showHelp {
		t.Errorf("? in a policy field should open the keys page:\n%s", a.View())
	}
}
