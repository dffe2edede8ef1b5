package tui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"locksim/class"
	"locksim/play"
	"locksim/views"
	"regexp"
	"strings"
	"testing"
)

// readoutRows are the rows under the readout's rule, up to the next rule
// or the verdict.
func readoutRows(v string) []string {
	var out []string
	in := false
	for _, r := range strings.Split(views.Strip(v), "\n") {
		r = strings.TrimSpace(r)
		switch {
		case strings.HasPrefix(r, "── readout"):
			in = true
		case in && (strings.HasPrefix(r, "──") || strings.HasPrefix(r, "verdict") || strings.HasPrefix(r, "⚠")):
			in = false
		case in && r != "":
			out = append(out, r)
		}
	}
	return out
}

// castFramesBeforeMarker are a cast's frames, ANSI stripped, up to its
// first marker (the question's).
func castFramesBeforeMarker(t *testing.T, cast []byte) []string {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(cast))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var frames []string
	first := true
	for sc.Scan() {
		if first {
			first = false // the header
			continue
		}
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("a cast event: %q: %v", sc.Text(), err)
		}
		kind, _ := ev[1].(string)
		data, _ := ev[2].(string)
		if kind == "m" {
			return frames
		}
		frames = append(frames, strings.ReplaceAll(views.Strip(data), "\r", ""))
	}
	return frames
}

// TestDisclosureGoldens draws one question point, gc-pause's, as each role
// sees it at 80x24: the rule made visible. The learner's notes and story
// page stop at the question with a line that the rest waits; the
// projector shows no state; a follower who answered waits with the state
// hidden; the instructor's own session and the -notes file carry the rest
// under the answer key's heading.
func TestDisclosureGoldens(t *testing.T) {
	t.Parallel()
	w := &walk{t: t, b: embedded(t), w: 80, h: 24}
	at := func(a *App, step string) {
		for i := 0; i < 10 && !a.pl.Asking; i++ {
			drive(t, a, keys(step)...)
		}
		if !a.pl.Asking {
			t.Fatalf("gc-pause never asked:\n%s", a.View())
		}
	}
	learner := w.open(Options{Seed: 1, Scene: "gc-pause"})
	at(learner, "n")
	pages := w.pages(learner)
	golden(t, "disclose-learner-notes-80x24", views.Strip(pages[0]))
	golden(t, "disclose-learner-page-80x24", views.Strip(pages[1]))
	golden(t, "disclose-notes-file", learner.notesPage())

	projector := w.open(Options{Seed: 1, Scene: "gc-pause", Present: true})
	at(projector, ".")
	golden(t, "disclose-projector-80x24", views.Strip(projector.View()))

	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause"}, 80, 24)
	bob := joinAs(t, hub, info.Code, class.Student, "k-bob", "bob", Options{Seed: 1}, 80, 24)
	drive(t, teacher.a, keys("F")...)
	hear(t, bob, "the instructor asking", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
	drive(t, bob.a, keys("F")...)
	at(teacher.a, "n")
	hear(t, bob, "the instructor at the question", leadAt("gc-pause", teacher.a.pl.Snap.Pos))
	drive(t, bob.a, keys("1")...)
	golden(t, "disclose-follower-answered-80x24", views.Strip(bob.a.View()))
	drive(t, teacher.a, keys("N")...)
	// the class's code is drawn at random: the golden names it CODE
	golden(t, "disclose-instructor-notes-80x24", strings.ReplaceAll(views.Strip(teacher.a.View()), info.Code, "CODE"))
}

// logPaneRows are the rows of the command log's pane: its entries and the
// rows a long reply wraps onto, which carry no story time of their own.
func logPaneRows(v string) []string {
	var out []string
	in := false
	for _, r := range strings.Split(views.Strip(v), "\n") {
		r = strings.TrimSpace(r)
		if strings.HasPrefix(r, "──") {
			in = strings.HasPrefix(r, "── commands")
			continue
		}
		if in && r != "" || strings.HasPrefix(r, "+") && logRow.MatchString(r) {
			out = append(out, r)
		}
	}
	return out
}

// timelineRow is the timeline's row: the moves, the step counter, the clock.
var timelineRow = regexp.MustCompile(`\d+/\d+\s+t=\+`)

// screenRows are a screen's rows that say something of the story: not the
// header, the help line, a rule, the timeline or an empty row.
func screenRows(v string) []string {
	rows := strings.Split(views.Strip(v), "\n")
	if len(rows) < 3 {
		return nil
	}
	var out []string
	script := false // rows of a script's source, as sent: the log's
	for _, r := range rows[1 : len(rows)-1] {
		r = strings.TrimSpace(r)
		if strings.HasPrefix(r, "──") || strings.HasPrefix(r, "─ ") {
			script = strings.HasPrefix(r, "── script ")
			continue
		}
		if r == play.AnswerKeyHeading {
			break // the answer key, for a role that may read it
		}
		// (the regexp, dear under -race, only on a row with the clock)
		if r == "" || script || strings.Contains(r, "t=+") && timelineRow.MatchString(r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// topRows are the screen rows above the log's rule: the cards, the keys,
// the nodes, the resource.
func topRows(v string) []string {
	top, _, _ := strings.Cut(views.Strip(v), "\n──")
	return screenRows(top + "\n")
}
