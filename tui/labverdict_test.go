package tui

import (
	"os"
	"slices"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/scenes"
	"locksim/views"
)

// TestLabLessonReadsAsPassing: the compare-and-delete lock, its own, with
// a pause past the TTL in scope, reads as passing on the screen as it does
// under -grade: mutual-exclusion and resource-safety are ✓ with a lesson
// mark (only that fault, which no lease survives, breaks them), and no
// line is ✗. The level about fencing, whose rule counts that break,
// keeps its ✗.
func TestLabLessonReadsAsPassing(t *testing.T) {
	// with predictions off: no break's question holds the report back
	a := openLab(t, Options{Seed: 1, NoQuiz: true, Lab: labDir(t)}, 120, 40, "")
	drive(t, a, labPresses(clearPart(6)+"[ctrl+l]"+labFix+"[ctrl+r]")...)
	v := a.View()
	for _, p := range []lab.Property{lab.MutualExclusion, lab.ResourceSafety} {
		if j := judgementOf(t, a, p); j.Status != lab.Fail || !j.Lesson {
			t.Fatalf("%s should be broken only by the lesson's fault: %+v\n%s", p, j, v)
		}
		if line := verdictLine(v, p); !strings.HasPrefix(line, "✓") || !strings.Contains(line, "lesson: only a pause past the TTL breaks it") {
			t.Errorf("%s should read as a lesson that passes: %q\n%s", p, line, v)
		}
	}
	for _, p := range lab.AllProperties() {
		if strings.HasPrefix(verdictLine(v, p), "✗") {
			t.Errorf("the compare-and-delete lock should have no ✗: %q", verdictLine(v, p))
		}
	}
	i := slices.IndexFunc(lab.Levels(), func(lv lab.Level) bool { return lv.ID == "no-fencing" })
	b := openLab(t, Options{Seed: 1, NoQuiz: true}, 120, 40, strings.Repeat("[down]", len(lab.Levels())+i)+"[enter][ctrl+r]")
	if line := verdictLine(b.View(), lab.ResourceSafety); !strings.HasPrefix(line, "✗") {
		t.Errorf("in the no-fencing level the flawed lock's resource-safety stays ✗: %q\n%s", line, b.View())
	}
}

// TestLabVerdictWholeAt80x24: at 80x24 a result longer than the rows under
// the editor keeps its head line (whose break it is: the lock's own, or a
// lesson) at the top, says how many lines are below, and the footer names
// the key that scrolls it; scrolling to the end shows every line of the
// result, the lesson's last sentence included, and back.
func TestLabVerdictWholeAt80x24(t *testing.T) {
	// with predictions off: no break's question holds the report back
	a := openLab(t, Options{Seed: 1, NoQuiz: true, Lab: labDir(t)}, 80, 24, "[ctrl+r]")
	l := a.labPage()
	want := joinLines(l.resultRows())
	v := views.Strip(a.View())
	rows := strings.Split(v, "\n")
	if len(rows) != 24 || !strings.Contains(v, "✗ your lock's own break: no-foreign-release") ||
		!strings.Contains(v, "more lines below") || !strings.Contains(rows[23], "ctrl+↓/↑ scroll the result") {
		t.Fatalf("the result should start with its head line and say it scrolls, the footer naming the key:\n%s", v)
	}
	seen := map[string]bool{}
	for range 40 {
		for _, r := range strings.Split(views.Strip(a.View()), "\n") {
			seen[strings.TrimRight(r, " ")] = true
		}
		drive(t, a, labPresses("[ctrl+down]")...)
	}
	for _, line := range want {
		if line = strings.TrimRight(views.Strip(line), " "); !seen[line] {
			t.Errorf("scrolling never shows %q", line)
		}
	}
	if v := views.Strip(a.View()); !strings.Contains(v, "above") || strings.Contains(v, "below") {
		t.Errorf("at the end the result should say only what is above:\n%s", v)
	}
	drive(t, a, labPresses(strings.Repeat("[ctrl+up]", 40))...)
	if l.resTop != 0 {
		t.Errorf("ctrl+↑ should scroll back to the top, at %d", l.resTop)
	}
}

// TestLabReportWaitsForItsQuestions: each break the adversary finds is a
// story that asks, before its last move, whether that move breaks its
// property; the lab's page hides which properties broke, and how, until
// the learner has answered each break's question, then shows them all.
func TestLabReportWaitsForItsQuestions(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 7, Lab: labDir(t)}, "")
	drive(t, a, labPresses(clearPart(6)+"GET {key}\nif token: DEL {key}[ctrl+r]")...)
	n := len(a.labPage().failures())
	if n < 2 {
		t.Fatalf("GET then DEL under a pause past the TTL should give several breaks, got %d:\n%s", n, a.View())
	}
	hidden := func(when string) {
		t.Helper()
		screen := a.View()
		for _, p := range lab.AllProperties() {
			if line := verdictLine(screen, p); line != "" {
				t.Errorf("%s: the page shows %s's verdict: %q\n%s", when, p, line, screen)
			}
		}
		if strings.Contains(screen, "Shortest break") || strings.Contains(screen, "broken in ") || !strings.Contains(screen, "? the adversary found") {
			t.Errorf("%s: the page should say a break was found, not which or how:\n%s", when, screen)
		}
		// nor how many schedules broke: all of them is a lock that
		// breaks with nobody in its way, deadlock-freedom's break
		if strings.Contains(words(screen), " explored, ") {
			t.Errorf("%s: the page shows the search's summary:\n%s", when, screen)
		}
	}
	hidden("before any story")
	for i := range n {
		answerBreak(t, a)
		if i < n-1 {
			hidden("with " + itoa(int64(n-1-i)) + " still to answer")
		}
	}
	if v := a.View(); !strings.Contains(v, "✗ your lock's own break: no-foreign-release") || verdictLine(v, lab.MutualExclusion) == "" || !strings.Contains(words(v), " explored, ") {
		t.Errorf("once every question is answered the page should show which properties broke:\n%s", v)
	}
}

// answerBreak opens the break the lab's page picks, steps to its
// question, answers 1 and goes back to the page.
func answerBreak(t *testing.T, a *App) {
	t.Helper()
	drive(t, a, labPresses("[ctrl+o]")...)
	for j := 0; !a.pl.Asking && j < 20; j++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("the break's story should ask:\n%s", a.View())
	}
	drive(t, a, keys("1[esc]")...)
	if a.labStory {
		t.Fatalf("esc should go back to the lab:\n%s", a.View())
	}
}

// TestLabStoryNotesKeepTheVerdict: at 80x24, in a break's story at its
// question, two hints, the note past the last hint and y's note (several
// lines: the script waits for the answer) each take rows of their own: the verdict row,
// the properties, the timeline and the help stay on the screen's 24 rows.
func TestLabStoryNotesKeepTheVerdict(t *testing.T) {
	dir := t.TempDir()
	a := openLab(t, Options{Seed: 1, Lab: labDir(t), Export: scenes.Export{Dir: dir}}, 80, 24, "[ctrl+r][ctrl+o]")
	for j := 0; !a.pl.Asking && j < 20; j++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("the break's story should ask:\n%s", a.View())
	}
	check := func(when string) string {
		t.Helper()
		v := views.Strip(a.View())
		rows := strings.Split(v, "\n")
		if len(rows) != 24 {
			t.Fatalf("%s: %d rows, want 24:\n%s", when, len(rows), v)
		}
		verdict := slices.IndexFunc(rows, func(r string) bool { return strings.HasPrefix(r, "verdict ") })
		if verdict < 0 || !strings.HasPrefix(rows[verdict+1], "properties ") || !strings.Contains(rows[23], "your prediction") {
			t.Errorf("%s: the verdict row, the properties and the help should stay on screen:\n%s", when, v)
		}
		return v
	}
	drive(t, a, keys("hh")...)
	check("two hints")
	drive(t, a, keys("h")...)
	v := check("past the last hint")
	if !strings.Contains(v, "No more hints") {
		t.Errorf("the note past the last hint should show:\n%s", v)
	}
	golden(t, "lab-story-hints-80x24", a.View())
	// at the open question y writes nothing: the script would print the
	// sources of the scripts sent (play.Scripts); its note says so
	drive(t, a, keys("y")...)
	v = check("y's note")
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "no redis-cli script here") {
		t.Errorf("y's note at the open question should say the script waits:\n%s", v)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("y at the open question wrote %v", files)
	}
}

// TestLabQuestionScreen: at 80x24, the question of the starter lock's
// mutual-exclusion break asks which property the next move breaks, with
// the properties still holding there and "none" as its choices, and
// nothing above it names the answer; the answer read from the story's
// ledger is the break's property.
func TestLabQuestionScreen(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, "[ctrl+r][pgdown][ctrl+o]")
	for j := 0; !a.pl.Asking && j < 20; j++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("the break's story should ask:\n%s", a.View())
	}
	lp := a.pl.LabPlace()
	v := views.Strip(a.View())
	q, _, _ := strings.Cut(v, "1) ")
	if !strings.Contains(v, "Which property does it break?") || strings.Contains(q, lp.Property) {
		t.Errorf("the question should ask which property breaks, naming none above its choices (%s):\n%s", lp.Property, v)
	}
	golden(t, "lab-question-80x24", a.View())
	lines := strings.Split(a.pl.Scene.Question(a.pl.Text, a.pl.Params, "choices"), "\n")
	right := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, lp.Property+":") })
	if right < 0 {
		t.Fatalf("the choices %q should offer %s", lines, lp.Property)
	}
	drive(t, a, keys(itoa(int64(right+1)))...)
	if a.pl.Actual != right {
		t.Errorf("the story's ledger answers choice %d, want %d (%s):\n%s", a.pl.Actual+1, right+1, lp.Property, a.View())
	}
}

// TestLabReportAsksOnlyWhatItsStoriesAsk: a break whose story asks
// nothing (lab.Judgement.Asks unset: its replies would not answer it with
// the verdict's property) holds nothing back: with it the only break, the
// page shows the report at once; asking, it is held back.
func TestLabReportAsksOnlyWhatItsStoriesAsk(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t)}, 80, 24, clearPart(6)+"GET {key}\nif token: DEL {key}[ctrl+r]")
	l := a.labPage()
	if len(l.failures()) == 0 || l.reportShown().State {
		t.Fatalf("the starter lock's breaks should hold the report back:\n%s", a.View())
	}
	for i := range l.report.Judgements {
		l.report.Judgements[i].Asks = false
	}
	if !l.reportShown().State || l.openBreaks() != 0 {
		t.Errorf("breaks whose stories ask nothing should hold nothing back: %d open", l.openBreaks())
	}
}
