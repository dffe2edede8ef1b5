package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"locksim/race"
	"locksim/views"
)

// TestLabStoryVerdictWhole: at 80x24, every break's story of a GET then
// DEL lock, stepped to its end, says its verdict whole: no verdict row
// is cut with …, one at least is longer than a row (resource-safety's,
// which names both writes), and the screen keeps its 24 rows with the
// properties and the help line.
func TestLabStoryVerdictWhole(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 7, Lab: labDir(t), NoQuiz: true}, "")
	drive(t, a, labPresses(clearPart(6)+"GET {key}\nif token: DEL {key}[ctrl+r]")...)
	n := len(a.labPage().failures())
	if n < 2 {
		t.Fatalf("GET then DEL should give several breaks, got %d", n)
	}
	long := false
	for i := range n {
		drive(t, a, labPresses(strings.Repeat("[pgdown]", i)+"[ctrl+o]")...)
		if !a.labStory {
			t.Fatalf("break %d opened no story:\n%s", i, a.View())
		}
		for j := 0; j < 30 && a.pl.Snap.Pos < len(a.pl.Snap.Moves); j++ {
			drive(t, a, keys("n")...)
		}
		v := views.Strip(a.View())
		rows := strings.Split(v, "\n")
		at := slices.IndexFunc(rows, func(r string) bool { return strings.HasPrefix(r, "verdict ") })
		if len(rows) != 24 || at < 0 || !strings.Contains(rows[23], "esc the lab") {
			t.Fatalf("break %d: 24 rows with a verdict and the help line:\n%s", i, v)
		}
		end := slices.IndexFunc(rows[at:], func(r string) bool { return strings.Contains(r, "mutual exclusion") })
		if end < 0 {
			t.Fatalf("break %d: no properties under the verdict:\n%s", i, v)
		}
		verdict := rows[at : at+end]
		long = long || len(verdict) > 1
		for _, r := range verdict {
			if strings.HasSuffix(strings.TrimRight(r, " "), "…") {
				t.Errorf("break %d: the verdict is cut: %q\n%s", i, r, v)
			}
		}
		drive(t, a, keys("[esc]")...)
		if a.labStory {
			drive(t, a, keys("[esc]")...)
		}
	}
	if !long {
		t.Errorf("no break's verdict took more than a row: the test shows nothing")
	}
}

// TestLabStoryKeysPage: the ? page of a story of the lab lists no key
// that does nothing there (> and < the next and previous scene, a the
// scene's lesson) and says esc goes back to the lab; a says why it shows
// nothing, and not that the story is not over.
func TestLabStoryKeysPage(t *testing.T) {
	a := openLab(t, Options{Seed: 1, Lab: labDir(t), NoQuiz: true}, 80, 24, "[ctrl+r][ctrl+o]")
	if !a.labStory {
		t.Fatalf("no story of the lab:\n%s", a.View())
	}
	for j := 0; j < 30 && a.pl.Snap.Pos < len(a.pl.Snap.Moves); j++ {
		drive(t, a, keys("n")...)
	}
	drive(t, a, keys("a")...)
	if v := views.Strip(a.View()); strings.Contains(v, "once its story is over") || !strings.Contains(v, "a story of the lab has no scene's lesson") {
		t.Errorf("a in a story of the lab that is over:\n%s", v)
	}
	drive(t, a, keys("?")...)
	v := views.Strip(a.View())
	if len(strings.Split(v, "\n")) != 24 || !strings.Contains(v, "a story of the lab") {
		t.Fatalf("? should open the keys page of the lab's story at 80x24:\n%s", v)
	}
	for _, no := range []string{"next scene", "previous scene", "what the scene taught", "contents"} {
		if strings.Contains(v, no) {
			t.Errorf("the lab story's keys page lists %q:\n%s", no, v)
		}
	}
	if !strings.Contains(v, "cancel, let go, the lab") {
		t.Errorf("the keys page should say esc goes back to the lab:\n%s", v)
	}
}

// TestTrialsLostReplyNoteWhole: at 80x24, enter on a trial with a lost
// reply says whole why it cannot be stepped through and what prints it.
func TestTrialsLostReplyNoteWhole(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 80, 24, "")
	tr := trialsWithLoss(t, a)
	openTrials(a, tr)
	tr.show = int(race.BlindDel)
	drive(t, a, keys("[tab][down][down][down][enter]")...)
	v := views.Strip(a.View())
	flat := strings.Join(strings.Fields(v), " ")
	if len(strings.Split(v, "\n")) != 24 || !strings.Contains(flat, "a trial with a lost reply cannot be stepped through: -plain prints it with its replies") {
		t.Errorf("the note on a trial with a lost reply should be whole at 80x24:\n%s", v)
	}
}

// TestLabPointsAtAnUnansweredBreak: once a break's question is answered,
// the page's "ctrl+o plays break N" names a break still to answer, also
// after the lock is run again.
func TestLabPointsAtAnUnansweredBreak(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 7, Lab: labDir(t)}, "")
	drive(t, a, labPresses(clearPart(6)+"GET {key}\nif token: DEL {key}[ctrl+r]")...)
	l := a.labPage()
	fs := l.failures()
	if len(fs) < 3 {
		t.Fatalf("want three breaks or more, got %d", len(fs))
	}
	for i := range len(fs) - 1 {
		answerBreak(t, a)
		if i == 0 {
			// the same lock run again finds the same breaks, one answered
			drive(t, a, labPresses("[ctrl+r]")...)
			fs = l.failures()
		}
		head := l.hiddenHead()
		k := strings.Index(head, "plays break ")
		if k < 0 {
			t.Fatalf("after %d answers: %q", i+1, head)
		}
		var n int
		fmt.Sscanf(head[k+len("plays break "):], "%d", &n)
		if n < 1 || n > len(fs) || l.answered[l.breakKey(fs[n-1])] {
			t.Errorf("after %d answers the page points at break %d, answered already: %q", i+1, n, head)
		}
	}
}
