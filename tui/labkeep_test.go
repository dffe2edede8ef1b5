package tui

import (
	"strings"
	"testing"

	"locksim/lab"
)

// TestLabKeepsItsResult: a level's result stays for the session: back on
// the levels and into the same level again, the lock unchanged, the page
// shows the report it had; a result of an edited lock is not shown beside
// the level's lock as it opens again.
func TestLabKeepsItsResult(t *testing.T) {
	a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "setnx-expire", lab.FixIt))
	drive(t, a, labPresses("[ctrl+r]")...)
	l := a.labPage()
	if l.report == nil {
		t.Fatalf("no report:\n%s", a.View())
	}
	drive(t, a, labPresses("[esc][enter]")...)
	if v := a.View(); l.report == nil || strings.Contains(v, "has not run on this lock yet") || !strings.Contains(v, "SETNX, then EXPIRE") {
		t.Errorf("reopened on the same lock, the result should stay:\n%s", v)
	}
	drive(t, a, labPresses("[ctrl+e]\n# edited[ctrl+r]")...)
	if l.report == nil || !strings.Contains(l.parts[0].Value(), "# edited") {
		t.Fatalf("the edited lock should have a report:\n%s", a.View())
	}
	drive(t, a, labPresses("[esc][enter]")...)
	if v := a.View(); l.report != nil || !strings.Contains(v, "has not run on this lock yet") {
		t.Errorf("reopened on the level's lock, an edited lock's result should not show:\n%s", v)
	}
}

// TestLabHeaderKeepsTheQuestion: a level to fix judges one property,
// and would answer its break's question "which property does it break?"
// by naming it: before its first run (which asks) and while the question
// is open, the page's goal does not, on the level's page nor under the
// list of levels, and names it once it is answered (play's rule,
// LabPropertiesNamed).
func TestLabHeaderKeepsTheQuestion(t *testing.T) {
	a := openLab(t, Options{Seed: 1}, 80, 24, levelLine(t, "setnx-expire", lab.FixIt))
	if v := a.View(); strings.Contains(v, "deadlock-freedom") || !strings.Contains(v, "properties: named once") {
		t.Fatalf("before any run the goal names what the level judges, which its break's question asks:\n%s", v)
	}
	drive(t, a, labPresses("[esc]")...)
	if v := a.View(); strings.Contains(v, "deadlock-freedom") {
		t.Errorf("on the levels, before any run, the goal names the level's property:\n%s", v)
	}
	drive(t, a, labPresses("[enter]")...)
	drive(t, a, labPresses("[ctrl+r]")...)
	if len(a.labPage().failures()) == 0 {
		t.Fatalf("no break:\n%s", a.View())
	}
	if v := a.View(); strings.Contains(v, "deadlock-freedom") || !strings.Contains(v, "properties: ") {
		t.Errorf("with the break's question open the page names its answer:\n%s", v)
	}
	drive(t, a, labPresses("[esc]")...)
	if v := a.View(); strings.Contains(v, "deadlock-freedom") {
		t.Errorf("on the levels, with the break's question open, the goal names its answer:\n%s", v)
	}
	drive(t, a, labPresses("[enter]")...)
	answerBreak(t, a)
	if v := lineWith(a.View(), "properties: "); !strings.Contains(v, "deadlock-freedom") {
		t.Errorf("once answered the goal names it again: %q\n%s", v, a.View())
	}
}
