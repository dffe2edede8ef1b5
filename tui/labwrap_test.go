package tui

import (
	"regexp"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/scenes"
	"locksim/views"
)

// splitName is a row that ends inside a hyphenated name ("pause-").
var splitName = regexp.MustCompile(`[a-z]-$`)

// TestLabTextsWrapBetweenNames: at 80x24 the lab's texts that wrap (a
// note over the keys, the verdict's head, a property's line, the lesson,
// a level's title and goal, its hints) wrap between words, never inside
// a hyphenated name: every property and fault name, the longest among
// them (no-foreign-release), is put at each column across a row's end,
// and no row may end in "name-" (lipgloss's wrap split "pause-" / "half").
func TestLabTextsWrapBetweenNames(t *testing.T) {
	var names []string
	for _, p := range lab.AllProperties() {
		names = append(names, string(p))
	}
	for _, f := range lab.AllFaults() {
		names = append(names, string(f))
	}
	own := labStarter()
	l := newLab(NewCommon(views.ASCII(), scenes.Export{}), nil, nil, &own, "", false, nil)
	l.SetSize(80, 24)
	check := func(what string, rows []string) {
		t.Helper()
		for _, r := range strings.Split(strings.Join(rows, "\n"), "\n") {
			if r = strings.TrimRight(views.Strip(r), " "); splitName.MatchString(r) {
				t.Errorf("%s: a name is split at the end of %q:\n%s", what, r, strings.Join(rows, "\n"))
				return
			}
		}
	}
	l.openLevel(len(l.levels)) // the learner's own lock
	for pad := range 24 {
		text := strings.Repeat("x", pad+1) + " " + strings.Join(names, " ")
		l.note = "note " + text
		check("a note", l.footer())
		var js []lab.Judgement
		for _, p := range lab.AllProperties() {
			js = append(js, lab.Judgement{Property: p, Status: lab.Fail, Message: text})
		}
		l.report = &lab.Report{Grants: true, Judgements: js, Lesson: "lesson " + text}
		check("the result", l.resultRows())
		l.report.Judgements[0].Status = lab.Error
		l.report.Judgements = l.report.Judgements[:1]
		check("a property not judged", l.resultRows())
	}
	l.note, l.report = "", nil
	for i := range l.levels {
		l.openLevel(i)
		l.hints = 3
		check("level "+l.levels[i].ID()+" title and goal", l.levelRows())
		check("level "+l.levels[i].ID()+" hints", l.hintRows())
	}
}
