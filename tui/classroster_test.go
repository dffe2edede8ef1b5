package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// schoolRowsRoom opens a class with schoolRows as its school roster and
// seats its instructor on gc-pause, presenting, at 80x24.
func schoolRowsRoom(t *testing.T) (*class.Memory, string, member) {
	t.Helper()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	room := Classroom{Join: "ssh -p 2222 " + info.Code + "@localhost", Now: atClassNow, Enrolled: schoolRows()}
	return hub, info.Code, joinRoom(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 80, 24, room)
}

// schoolRows are a school roster: Ada's row names her key; José's, Alan's
// and the two Sam Lees' do not.
func schoolRows() []class.Enrolled {
	return []class.Enrolled{
		{Ref: "sis:S-1", Name: "Ada Lovelace", Line: 2, KeyID: "k-ada", Label: "ada · S-1 · A"},
		{Ref: "sis:S-2", Name: "José Martínez", Line: 3, Label: "jmartinez · S-2 · A"},
		{Ref: "sis:S-3", Name: "Alan Turing", Line: 4, Label: "alan · S-3 · B"},
		{Ref: "sis:S-4", Name: "Sam Lee", Line: 5, Label: "slee · S-4 · B"},
		{Ref: "sis:S-5", Name: "Sam Lee", Line: 6, Label: "slee2 · S-5 · B"},
	}
}

// TestClassViewSchoolRoster: the instructor's class view, with the
// school's roster, at 80x24 while the class's poll is open: the poll
// reads whole (its question, its three choices, who has answered), the
// roster's rule counts the rows not joined and the students of no row,
// those students are marked ? and both lists are named. m on a student
// tied by name offers to match them to no row first; on a browser
// student of no row it opens the
// school roster, where enter matches them by hand to the row under the
// cursor: the class view counts them tied at once, the class store keeps
// the match, and a second session of the instructor starts with it. A
// school roster longer than the screen scrolls on its page.
func TestClassViewSchoolRoster(t *testing.T) {
	t.Parallel()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	room := Classroom{Join: "ssh -p 2222 " + code + "@localhost", Now: atClassNow, Enrolled: schoolRows()}
	teacher := joinRoom(t, hub, code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 80, 24, room)
	ada := joinAs(t, hub, code, class.Student, "k-ada", "ada", Options{Seed: 2}, 80, 24)
	jose := joinAs(t, hub, code, class.Student, "web-jose", "josé martínez", Options{Seed: 3}, 80, 24)
	mal := joinAs(t, hub, code, class.Student, "web-mal", "Mallory", Options{Seed: 4}, 80, 24)
	sam := joinAs(t, hub, code, class.Student, "web-sam", "S. Lee", Options{Seed: 5}, 80, 24)
	drive(t, teacher.a, keys("F")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	for _, s := range []member{ada, jose, mal, sam} {
		hear(t, s, "the instructor at the question", leadAt("gc-pause", at))
		drive(t, s.a, keys("F")...)
	}
	drive(t, ada.a, keys("1")...)
	drive(t, sam.a, keys("2")...)
	for _, id := range []string{"k-ada", "web-sam"} {
		if m := teacher.a.cls.row(id); m.Pos.Prediction == nil {
			hear(t, teacher, id+"'s prediction", rowOf(id, func(m class.Member) bool { return m.Pos.Prediction != nil }))
		}
	}
	for _, id := range []string{"web-jose", "web-mal"} {
		if m := teacher.a.cls.row(id); !m.Following {
			hear(t, teacher, id+" following", rowOf(id, func(m class.Member) bool { return m.Following }))
		}
	}
	drive(t, teacher.a, keys("l")...)
	v := teacher.a.View()
	wholeAt80(t, "the class view", v)
	plain := views.Strip(v)
	if rows := strings.Split(plain, "\n"); len(rows) != 24 {
		t.Errorf("the class view is %d rows, want 24:\n%s", len(rows), v)
	}
	for _, want := range []string{"What does B get?", "1 (nil): ", "2 OK: ", "3 an error: ", "2 of 4 answered",
		"roster · 3 not joined · 2 with no row · m lists them",
		"? no row (2): Mallory, S. Lee", "not joined (3): Alan Turing, Sam Lee, Sam Lee",
		"?Mallory", " ?S. Lee", "  ada ", "josé martínez"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the class view has no %q:\n%s", want, v)
		}
	}
	golden(t, "class-view-school-roster-80x24", strings.ReplaceAll(v, code, "CODE"))

	// the students by name: José, Mallory, S. Lee, ada; José is his
	// name's row
	pickName := func(name string) {
		t.Helper()
		for i, m := range teacher.a.students() {
			if m.Name == name {
				teacher.a.cls.pick = i
				return
			}
		}
		t.Fatalf("no student %s", name)
	}
	pickName("josé martínez")
	drive(t, teacher.a, keys("m")...)
	v = teacher.a.View()
	if !strings.Contains(views.Strip(v), "▸ no row: josé martínez matches no roster row") || !strings.Contains(v, "enter match") {
		t.Errorf("the school roster does not offer to untie a student tied by name:\n%s", v)
	}
	drive(t, teacher.a, keys("[esc]")...)
	if !isDesk(teacher.a.pages.top()) || isRosterPage(teacher.a.pages.top()) {
		t.Fatalf("esc did not go back to the class view:\n%s", teacher.a.View())
	}

	pickName("S. Lee")
	drive(t, teacher.a, keys("m[down][down]")...)
	v = teacher.a.View()
	wholeAt80(t, "the school roster", v)
	golden(t, "class-school-roster-match-80x24", strings.ReplaceAll(v, code, "CODE"))
	if !strings.Contains(views.Strip(v), "▸ line 6   Sam Lee · slee2 · S-5 · B") {
		t.Fatalf("the cursor is not on the second Sam Lee:\n%s", v)
	}
	drive(t, teacher.a, keys("[enter]")...)
	v = teacher.a.View()
	plain = views.Strip(v)
	for _, want := range []string{"S. Lee is roster line 6 (Sam Lee) in the class's grades", "roster · 2 not joined · 1 with no row",
		"? no row (1): Mallory", "not joined (2): Alan Turing, Sam Lee"} {
		if !strings.Contains(plain, want) {
			t.Errorf("after the match the class view has no %q:\n%s", want, v)
		}
	}
	if strings.Contains(plain, " ?S. Lee") {
		t.Errorf("S. Lee is still marked of no row:\n%s", v)
	}
	hear(t, teacher, "the class store's match", func(e class.Event) bool {
		return e.Kind == class.KindMatch && e.Match.ID == "web-sam" && e.Match.Ref == "sis:S-5"
	})
	ms, err := hub.Roster(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if want := map[string]string{"web-sam": "sis:S-5"}[m.ID]; m.Row != want {
			t.Errorf("the store keeps %s matched to %q, want %q", m.ID, m.Row, want)
		}
	}
	// another session of the instructor (a second server of the class)
	// starts from the store's roster, the match in it
	second := joinRoom(t, hub, code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 80, 24,
		Classroom{Join: room.Join, Now: atClassNow, Enrolled: schoolRows()})
	if e, ok := second.a.cls.part.Enrolment(); !ok || e.How["web-sam"] != class.TieHand || len(e.Unmatched) != 1 {
		t.Errorf("the second session's enrolment: %v, %+v", ok, e.Ties)
	}
	// the match undone from the same page
	pickName("S. Lee")
	drive(t, teacher.a, keys("m")...)
	if v := views.Strip(teacher.a.View()); !strings.Contains(v, "▸ no row: S. Lee matches no roster row") {
		t.Errorf("the school roster does not offer to undo the match first:\n%s", v)
	}
	drive(t, teacher.a, keys("[enter]")...)
	if v := views.Strip(teacher.a.View()); !strings.Contains(v, "S. Lee matches no roster row again") || !strings.Contains(v, "? no row (2)") {
		t.Errorf("the undo is not on the class view:\n%s", v)
	}
	hear(t, second, "the undo", func(e class.Event) bool {
		return e.Kind == class.KindMatch && e.Match.ID == "web-sam" && e.Match.Ref == ""
	})
	if e, _ := second.a.cls.part.Enrolment(); len(e.Unmatched) != 2 {
		t.Errorf("the second session did not hear the undo: %+v", e.Ties)
	}
	// a student's screen never lists the school's roster
	for _, s := range []member{ada, sam} {
		if _, ok := s.a.cls.part.Enrolment(); ok || strings.Contains(s.a.View(), "not joined") {
			t.Errorf("a student's session has the school roster:\n%s", s.a.View())
		}
	}
}

// TestSchoolRosterScrolls: a school roster of sixty rows, none joined: the
// class view names a few and says how many more, in one line at 80
// columns; its page scrolls through all of them and says what is above
// and below.
func TestSchoolRosterScrolls(t *testing.T) {
	t.Parallel()
	_, _, teacher := schoolRoom(t, 60, nil, "gc-pause", 80, 24)
	drive(t, teacher.a, keys("l")...)
	v := views.Strip(teacher.a.View())
	wholeAt80(t, "the class view", teacher.a.View())
	if !strings.Contains(v, "roster · 60 not joined · 0 with no row") || !strings.Contains(v, "not joined (60): Student 01, Student 02") || !strings.Contains(v, " more") {
		t.Errorf("the class view does not say how many have not joined:\n%s", v)
	}
	drive(t, teacher.a, keys("m")...)
	v = views.Strip(teacher.a.View())
	if !strings.Contains(v, "Student 01") || strings.Contains(v, "Student 60") || !strings.Contains(v, "more lines below") {
		t.Errorf("the school roster's page does not start at the top:\n%s", v)
	}
	for range 10 {
		drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{']'}})
	}
	v = teacher.a.View()
	wholeAt80(t, "the school roster, scrolled", v)
	if plain := views.Strip(v); !strings.Contains(plain, "Student 60") || !strings.Contains(plain, "above") {
		t.Errorf("] does not scroll to the last row:\n%s", v)
	}
	if rows := strings.Split(v, "\n"); len(rows) != 24 {
		t.Errorf("the page is %d rows, want 24", len(rows))
	}
}

// TestSchoolRosterFits: the class view and the school roster's page keep
// to the window at any size, the poll's question first: no row wider
// than the window, never more rows than it has.
func TestSchoolRosterFits(t *testing.T) {
	t.Parallel()
	hub, code, teacher := schoolRowsRoom(t)
	joinAs(t, hub, code, class.Student, "web-mal", "Mallory with a name far longer than any window is wide, on and on and on", Options{Seed: 4}, 80, 24)
	hear(t, teacher, "Mallory's row", rowOf("web-mal", func(class.Member) bool { return true }))
	drive(t, teacher.a, keys("F")...)
	at := teacher.a.pl.Scene.PredictAt(teacher.a.pl.MoveLabels())
	drive(t, teacher.a, keys(strings.Repeat(".", at))...)
	for _, page := range []string{"l", "m"} {
		drive(t, teacher.a, keys(page)...)
		for _, size := range [][2]int{{80, 24}, {120, 40}, {100, 30}, {81, 25}} {
			drive(t, teacher.a, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			v := teacher.a.View()
			rows := strings.Split(v, "\n")
			if len(rows) > size[1] {
				t.Errorf("%s at %dx%d: %d rows", page, size[0], size[1], len(rows))
			}
			for _, r := range rows {
				if ansi.StringWidth(r) > size[0] {
					t.Errorf("%s at %dx%d: a row of %d columns: %q", page, size[0], size[1], ansi.StringWidth(r), views.Strip(r))
				}
			}
			if page == "l" && size[1] >= 24 && !strings.Contains(v, "What does B get?") {
				t.Errorf("the class view at %dx%d lost the poll's question:\n%s", size[0], size[1], v)
			}
		}
		drive(t, teacher.a, tea.WindowSizeMsg{Width: 80, Height: 24})
	}
	// fewer rows than a screen of 80x24 has (as a server's long addresses
	// leave the class view): the poll's question stays, the school
	// roster's section gives way, and the rule keeps its counts
	drive(t, teacher.a, keys("[esc]")...)
	board := teacher.a.cls.board
	for _, h := range []int{18, 14, 10} {
		board.SetSize(80, h)
		v := board.View()
		if rows := strings.Split(v, "\n"); len(rows) != h-1 {
			t.Errorf("the class view at 80x%d has %d rows, want %d:\n%s", h, len(rows), h-1, v)
		}
		if !strings.Contains(v, "What does B get?") || !strings.Contains(v, "roster · 5 not joined · 1 with no row") {
			t.Errorf("at 80x%d the class view lost the poll's question or the roster's counts:\n%s", h, v)
		}
	}
	board.SetSize(80, 24)
}

// TestClassRosterMovesANameTie: a student who typed a classmate's name
// (José Martínez, whose row names no key) is tied to that row by name.
// From the class view's m the instructor matches them to no row: the
// row is free again, the real José takes it by his name when he joins,
// and the impostor, of no row, is matched by hand to their own row. A
// student tied by name is moved by hand to another row in one step; a
// student tied by their key still cannot be moved.
func TestClassRosterMovesANameTie(t *testing.T) {
	t.Parallel()
	hub, code, teacher := schoolRowsRoom(t)
	joinAs(t, hub, code, class.Student, "web-imp", "José Martínez", Options{Seed: 2}, 80, 24)
	joinAs(t, hub, code, class.Student, "k-ada", "ada", Options{Seed: 3}, 80, 24)
	hearRoster(t, hub, code, teacher)
	pick := func(id string) {
		t.Helper()
		for i, m := range teacher.a.students() {
			if m.ID == id {
				teacher.a.cls.pick = i
				return
			}
		}
		t.Fatalf("no student %s", id)
	}
	// cursorTo moves the school roster's cursor down to the row of line
	cursorTo := func(line string) {
		t.Helper()
		for range 12 {
			if strings.Contains(views.Strip(teacher.a.View()), "▸ "+line) {
				return
			}
			drive(t, teacher.a, tea.KeyMsg{Type: tea.KeyDown})
		}
		t.Fatalf("the cursor never reaches %q:\n%s", line, teacher.a.View())
	}
	how := func(id string) class.Tie {
		e, _ := teacher.a.cls.part.Enrolment()
		return e.How[id]
	}
	if how("web-imp") != class.TieName {
		t.Fatalf("the impostor is tied %q, want by name", how("web-imp"))
	}
	drive(t, teacher.a, keys("l")...)

	// Ada's key ties her: m says so, and offers nothing
	pick("k-ada")
	drive(t, teacher.a, keys("m")...)
	if v := views.Strip(teacher.a.View()); !strings.Contains(v, "names their SSH key: nothing to match") || strings.Contains(v, "enter match") {
		t.Errorf("the school roster offers to move a student tied by key:\n%s", v)
	}
	drive(t, teacher.a, keys("[esc]")...)

	// the impostor, to no row: the first choice
	pick("web-imp")
	drive(t, teacher.a, keys("m")...)
	v := views.Strip(teacher.a.View())
	for _, want := range []string{"▸ no row: José Martínez matches no roster row", "line 3   José Martínez · jmartinez · S-2 · A · José Martínez (name)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the school roster has no %q:\n%s", want, v)
		}
	}
	drive(t, teacher.a, keys("[enter]")...)
	v = views.Strip(teacher.a.View())
	for _, want := range []string{"José Martínez matches no roster row, not line 3 (José Martínez) by name",
		"roster · 4 not joined · 1 with no row", "? no row (1): José Martínez"} {
		if !strings.Contains(v, want) {
			t.Errorf("after the match to no row the class view has no %q:\n%s", want, v)
		}
	}
	hear(t, teacher, "the class store's match to no row", func(e class.Event) bool {
		return e.Kind == class.KindMatch && e.Match.ID == "web-imp" && e.Match.Ref == class.NoRow
	})

	// the real José joins: his name ties him to his row
	joinAs(t, hub, code, class.Student, "web-jose", "josé martínez", Options{Seed: 4}, 80, 24)
	hear(t, teacher, "José's row", rowOf("web-jose", func(class.Member) bool { return true }))
	if e, _ := teacher.a.cls.part.Enrolment(); e.How["web-jose"] != class.TieName || e.Row["web-jose"] != 1 || len(e.ByRow[1]) != 1 || names(e.Unmatched) != "José Martínez" {
		t.Errorf("with the real José: %+v", e.Ties)
	}

	// the impostor is Alan Turing: matched by hand to his row
	pick("web-imp")
	drive(t, teacher.a, keys("m")...)
	cursorTo("line 4   Alan Turing")
	drive(t, teacher.a, keys("[enter]")...)
	if v := views.Strip(teacher.a.View()); !strings.Contains(v, "José Martínez is roster line 4 (Alan Turing) in the class's grades") || !strings.Contains(v, "roster · 2 not joined · 0 with no row") {
		t.Errorf("the impostor's match by hand is not on the class view:\n%s", v)
	}

	// a student tied by name is moved by hand in one step
	pick("web-jose")
	drive(t, teacher.a, keys("m")...)
	cursorTo("line 6   Sam Lee")
	drive(t, teacher.a, keys("[enter]")...)
	if v := views.Strip(teacher.a.View()); !strings.Contains(v, "josé martínez is roster line 6 (Sam Lee) in the class's grades") || how("web-jose") != class.TieHand {
		t.Errorf("José, tied by name, was not moved by hand (%q):\n%s", how("web-jose"), v)
	}
	hear(t, teacher, "the class store's match of José", func(e class.Event) bool {
		return e.Kind == class.KindMatch && e.Match.ID == "web-jose" && e.Match.Ref == "sis:S-5"
	})
}

func names(ms []class.Member) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return strings.Join(out, "|")
}
