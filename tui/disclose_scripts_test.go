package tui

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"locksim/play"
	"locksim/views"
)

// checkScripts fails when the whole story page (i) shows, before the
// answer key's heading, a line of the source of a script the story has
// sent by the reveal (w.scripts): a source says what its run replies, so
// it waits for the answer (play.Scripts). A row of the source is no
// evidence the walk derives (it is on the page before and after the
// reveal alike), hence this check of its own.
func (w *walk) checkScripts(what, page string) {
	w.t.Helper()
	page, _, _ = strings.Cut(page, play.AnswerKeyHeading)
	rows := map[string]bool{}
	for _, r := range strings.Split(views.Strip(page), "\n") {
		rows[strings.TrimSpace(r)] = true
	}
	for _, name := range slices.Sorted(maps.Keys(w.scripts)) {
		for _, l := range strings.Split(w.scripts[name].Src, "\n") {
			// a line long enough to be the script's own, not "end"
			if l = strings.TrimSpace(l); len(l) >= 12 && rows[l] {
				w.t.Errorf("%s: %s shows the source of <%s>, whose run answers the question: %q\n%s", w.where, what, name, l, views.Strip(page))
				break
			}
		}
	}
}

// checkPanel fails when screen v, before the answer, shows the panel of
// a script's source (a screen taller than 80x24 has one) of a script the
// story sends by the reveal: it waits for the answer, as on the story page.
func (w *walk) checkPanel(what, v string) {
	w.t.Helper()
	v = views.Strip(v)
	for name := range w.scripts {
		if strings.Contains(v, "── script <"+name+">") {
			w.t.Errorf("%s: %s shows the source of <%s> before the answer:\n%s", w.where, what, name, v)
		}
	}
}

// TestScriptPanelWaits: a screen taller than 80x24 shows the source of the
// script the log's latest EVAL ran, but not while the core holds it back
// (play.Scripts): in fencing, B's write at step 4 sends <fenced-write>,
// whose source says what A's write with 33 gets, the question at step 7.
// Once answered, the panel shows it again. (The walk's 120x40 screens are
// the slow tier's; this is the quick tier's one look.)
func TestScriptPanelWaits(t *testing.T) {
	t.Parallel()
	w := &walk{t: t, b: embedded(t), w: 120, h: 40}
	a := w.open(Options{Seed: 1, Scene: "fencing"})
	const panel = "── script <fenced-write>"
	for i := 0; i < 10 && !a.pl.Asking; i++ {
		if _, sent := a.pl.Snap.Scripts["fenced-write"]; sent && strings.Contains(views.Strip(a.View()), panel) {
			t.Errorf("at step %d, before the question, the screen shows <fenced-write>'s source:\n%s", a.pl.Snap.Pos, views.Strip(a.View()))
		}
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("fencing never asked:\n%s", a.View())
	}
	drive(t, a, keys("1")...)
	if v := views.Strip(a.View()); !strings.Contains(v, panel) {
		t.Errorf("answered, the screen does not show <fenced-write>'s source:\n%s", v)
	}
}
