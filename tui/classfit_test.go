package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// wholeAt80 fails for a row of screen v wider than 80 columns, or a last
// row (the help line, or the class's line in its place) cut with "…".
func wholeAt80(t *testing.T, what, v string) {
	t.Helper()
	rows := strings.Split(views.Strip(v), "\n")
	for _, l := range rows {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("%s: a row wider than 80 columns: %q", what, l)
		}
	}
	if last := rows[len(rows)-1]; strings.HasSuffix(strings.TrimRight(last, " "), "…") || strings.HasPrefix(last, "…") {
		t.Errorf("%s: the footer is cut: %q\n%s", what, last, v)
	}
}

// TestClassViewReadsWholeAt80x24: a class served with -web, every way in
// on the class view (the SSH command and its note, the browser's page, the
// projector tab), held, with two students who answered and ran the move:
// at 80x24 every choice reads whole and both histograms count all three, the
// projector link is there whole, and the footers of the instructor and of
// a held student are whole. The students' screens never show the
// projector link.
func TestClassViewReadsWholeAt80x24(t *testing.T) {
	t.Parallel()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	const projector = "http://203.0.113.7:8099/p/k7m2qabcdefghjkmnpqr"
	room := Classroom{
		Join:      "ssh -p 2299 " + code + "@203.0.113.7 (the address you reached: behind a NAT or a port forward, use -public-addr)",
		Web:       "http://203.0.113.7:8099/c/" + code + " (the address you reached: behind a NAT or a proxy, use -public-url)",
		Projector: projector,
		Now:       atClassNow,
	}
	teacher := joinRoom(t, hub, code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 80, 24, room)
	ann := joinAs(t, hub, code, class.Student, "k-ann", "ann", Options{Seed: 2}, 80, 24)
	bob := joinAs(t, hub, code, class.Student, "k-bob", "bob", Options{Seed: 3}, 80, 24)
	drive(t, teacher.a, keys("lHl")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	for _, s := range []member{ann, bob} {
		hear(t, s, "the instructor at the question", leadAt("gc-pause", at))
		drive(t, s.a, keys("F")...)
		if !s.a.pl.Asking || !s.a.cls.part.Held() {
			t.Fatalf("the follower is not asked in a held class at step %d:\n%s", s.a.pl.Snap.Pos, s.a.View())
		}
	}
	drive(t, ann.a, keys("1")...)
	drive(t, bob.a, keys("2")...)
	for _, id := range []string{"k-ann", "k-bob"} {
		if m := teacher.a.cls.row(id); m.Pos.Prediction == nil {
			hear(t, teacher, id+"'s prediction", rowOf(id, func(m class.Member) bool { return m.Pos.Prediction != nil }))
		}
	}
	drive(t, teacher.a, keys(".")...)
	for _, s := range []member{ann, bob} {
		hear(t, s, "the move", leadAt("gc-pause", at+1))
		wholeAt80(t, "a held student after the move", s.a.View())
		// a key the hold refuses is told in the class's line: the story's
		// own verdict and ⚠ lines stay
		drive(t, s.a, keys("n")...)
		v := s.a.View()
		if s.a.pl.Snap.Pos != at+1 {
			t.Fatalf("a held student's step moved the story to %d", s.a.pl.Snap.Pos)
		}
		wholeAt80(t, "a held student's refused key", v)
		rows := strings.Split(views.Strip(v), "\n")
		if !strings.Contains(rows[len(rows)-1], "the class is held: you stay on the instructor's place") {
			t.Errorf("a held student's refused key is not told in the class's line:\n%s", v)
		}
		if !strings.Contains(v, "verdict ") || strings.Contains(teacher.a.View(), "⚠ ") != strings.Contains(v, "⚠ ") {
			t.Errorf("the hold's note took the place of the story's own lines; the student:\n%s\nthe instructor:\n%s", v, teacher.a.View())
		}
		drive(t, s.a, keys("?")...)
		drive(t, s.a, keys("?")...)
		if rows := strings.Split(views.Strip(s.a.View()), "\n"); strings.Contains(rows[len(rows)-1], "you stay") {
			t.Errorf("the refused key's note outlasts the next key:\n%s", s.a.View())
		}
		if v := s.a.View(); strings.Contains(v, "/p/") {
			t.Errorf("a student sees the projector link:\n%s", v)
		}
	}
	// released and held again while ann follows: the hold that comes
	// is said in her class's line, and her verdict line stays
	drive(t, teacher.a, keys("lHl")...)
	hear(t, ann, "the release", func(e class.Event) bool { return e.Kind == class.KindLead && !e.Lead.Hold })
	drive(t, ann.a, keys("??")...) // the release's note goes with a key
	drive(t, teacher.a, keys("lHl")...)
	hear(t, ann, "the hold again", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Hold })
	if v := ann.a.View(); !strings.Contains(v, "verdict ") || !strings.Contains(views.Strip(v), "the class is held: following the instructor") {
		t.Errorf("the hold that came took the verdict's place, or is not said:\n%s", v)
	}
	for _, id := range []string{"k-ann", "k-bob"} {
		if m := teacher.a.cls.row(id); !m.Revealed {
			hear(t, teacher, id+"'s run", rowOf(id, func(m class.Member) bool { return m.Revealed }))
		}
	}
	drive(t, teacher.a, keys("l")...)
	v := teacher.a.View()
	wholeAt80(t, "the class view", v)
	plain := views.Strip(v)
	if !strings.Contains(plain, "projector tab: "+projector) {
		t.Errorf("the class view does not show the projector link whole:\n%s", v)
	}
	_, after, ok := strings.Cut(plain, "their own runs answered (2 of 2 have run it):")
	if !ok {
		t.Fatalf("the class view does not show the runs' answers:\n%s", v)
	}
	before, _, _ := strings.Cut(plain, "their own runs answered")
	for _, c := range []string{"1 (nil): A's key is still there, so B is refused", "2 OK: A's key has expired, so B gets the lock", "3 an error: A is frozen, so the server cannot answer"} {
		if !strings.Contains(before, c) {
			t.Errorf("the poll does not show the choice %q whole:\n%s", c, v)
		}
	}
	// the two histograms side by side, a row for each choice
	if n := len(regexp.MustCompile(`(?m)^[123] .*%\) +[123] .*%\)`).FindAllString(after, -1)); n != 3 {
		t.Errorf("the predictions and the runs' answers should be side by side, a row for each of the 3 choices (%d):\n%s", n, v)
	}
	if !strings.Contains(after, "2 (100.0%)") {
		t.Errorf("the runs' answers do not count both runs on 2:\n%s", v)
	}
	for _, k := range []string{"H release", "S summary", "l scene", "q quit"} {
		if !strings.Contains(plain, k) {
			t.Errorf("the class view's footer leaves out %q:\n%s", k, v)
		}
	}
	golden(t, "class-view-held-80x24", strings.ReplaceAll(v, code, "CODE"))

	// a student's run on screen: the class view's footer has esc first,
	// and is still whole
	drive(t, teacher.a, keys("[enter]l")...)
	v = teacher.a.View()
	wholeAt80(t, "the class view over a student's run", v)
	rows := strings.Split(views.Strip(v), "\n")
	if last := rows[len(rows)-1]; !strings.HasPrefix(last, "esc your own place") || !strings.Contains(last, "q quit") {
		t.Errorf("the class view over a student's run does not say esc and q:\n%s", v)
	}

	// fewer rows than the poll needs (as a server's long addresses would
	// leave): the poll says what it cuts, and the roster keeps its rows
	board := teacher.a.cls.board
	board.SetSize(80, 18)
	v = board.View()
	board.SetSize(80, 24)
	if !regexp.MustCompile(`… \d+ more lines of the poll`).MatchString(v) || !strings.Contains(v, "▸ ann") {
		t.Errorf("at 80x18 the class view does not say what the poll cuts:\n%s", v)
	}
}
