package tui

import (
	"context"
	"locksim/views"
	"regexp"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// open starts a course with o at the walk's size.
func (w *walk) open(o Options) *App {
	w.t.Helper()
	a, err := NewCourse(w.b, o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { a.Shutdown(context.Background()) })
	if w.glossary != "" {
		a.com.glossary = map[glossaryAt]string{{w.w, a.com.Styles.R, ""}: w.glossary}
	}
	drive(w.t, a, tea.WindowSizeMsg{Width: w.w, Height: w.h})
	runCmd(w.t, a, a.Init())
	return a
}

// check fails for every evidence row on screen v, and where v counts the
// story's moves (tellsLength).
func (w *walk) check(what, v string) {
	w.t.Helper()
	w.checkLength(what, v)
	var shown []string
	for _, r := range screenRows(v) {
		if w.evidence[r] {
			shown = append(shown, r)
		}
	}
	if len(shown) > 0 {
		w.t.Errorf("%s: %s shows what answers the question: %q\n%s", w.where, what, shown, views.Strip(v))
	}
}

// logRow is a row of the command log: the story time, then the actor.
var logRow = regexp.MustCompile(`^\+\d+\.\d+s\s`)

// checkLength fails where v, drawn while the walk's question is open,
// counts the story's moves: "3/10" (the bar, a class's roster), "step 3
// of 10" (the -notes file), "step 3 of 10" (the history page). The
// count of moves tells the stories of one question apart (release's blind
// DEL has a move fewer than its script), so the core withholds it
// (play.Disclosure.Drawn) and every page asks it: a page that reads the
// story's length itself fails here, whichever role draws it.
func (w *walk) checkLength(what, v string) {
	w.t.Helper()
	if n := w.length(); n > 0 {
		if c := tellsLength(views.Strip(v), n); c != "" {
			w.t.Errorf("%s: %s counts the story's %d moves while its question is open (%q): the count tells its stories apart\n%s", w.where, what, n, c, views.Strip(v))
		}
	}
}

// length is the walk's story's count of moves, the learner's own among
// them, 0 when unknown.
func (w *walk) length() int {
	if w.sc == nil {
		return 0
	}
	return len(w.sc.Build(w.p).Moves) + w.own
}

// stepCount is a step's count of a story's moves as pages write it: "3/10",
// "3 of 10", "step 3 of 10".
var stepCount = regexp.MustCompile(`(?:^|[^0-9/.])[0-9]+(?:/| of )([0-9]+)(?:[^0-9/.]|$)`)

// tellsLength is the first count of n moves in text, "" for none. A count
// of n holds "/n" or " of n": a text with neither (most screens) is
// passed without running stepCount, a tenth of the disclosure walk.
func tellsLength(text string, n int) string {
	ns := strconv.Itoa(n)
	if !strings.Contains(text, "/"+ns) && !strings.Contains(text, " of "+ns) {
		return ""
	}
	for _, m := range stepCount.FindAllStringSubmatch(text, -1) {
		if m[1] == ns {
			return m[0]
		}
	}
	return ""
}
