package tui

import (
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"
)

// TestRosterMarksTheStudentToMatch: on the school roster's page at 80x24,
// while the instructor matches a student of no row, that student's line
// among the students of no row is marked ◆ (… · to match), wherever the
// cursor is, and the others keep "? "; enter on another of them marks
// them instead. The list had no mark for the student being matched.
func TestRosterMarksTheStudentToMatch(t *testing.T) {
	t.Parallel()
	hub, code, teacher := schoolRowsRoom(t)
	joinAs(t, hub, code, class.Student, "web-mal", "Mallory", Options{Seed: 4}, 80, 24)
	hear(t, teacher, "Mallory's row", rowOf("web-mal", func(class.Member) bool { return true }))
	joinAs(t, hub, code, class.Student, "web-sam", "S. Lee", Options{Seed: 5}, 80, 24)
	hear(t, teacher, "S. Lee's row", rowOf("web-sam", func(class.Member) bool { return true }))
	drive(t, teacher.a, keys("l")...)
	for i, m := range teacher.a.students() {
		if m.Name == "S. Lee" {
			teacher.a.cls.pick = i
		}
	}
	drive(t, teacher.a, keys("m")...)
	rowsOf := func() []string {
		v := teacher.a.View()
		wholeAt80(t, "the school roster", v)
		if n := strings.Count(v, "\n") + 1; n != 24 {
			t.Errorf("the school roster is %d rows, want 24:\n%s", n, v)
		}
		return strings.Split(views.Strip(v), "\n")
	}
	has := func(rows []string, want string) bool {
		for _, r := range rows {
			if r == want {
				return true
			}
		}
		return false
	}
	rows := rowsOf()
	for _, want := range []string{"◆ S. Lee · web-sam · to match", "? Mallory · web-mal"} {
		if !has(rows, want) {
			t.Errorf("the school roster while matching S. Lee has no row %q:\n%s", want, strings.Join(rows, "\n"))
		}
	}
	// the cursor up to Mallory, and enter: Mallory is the one to match
	drive(t, teacher.a, keys("[up][up][up]")...)
	if !has(rowsOf(), "▸ ? Mallory · web-mal") {
		t.Fatalf("the cursor is not on Mallory:\n%s", strings.Join(rowsOf(), "\n"))
	}
	drive(t, teacher.a, keys("[enter]")...)
	rows = rowsOf()
	for _, want := range []string{"◆ Mallory · web-mal · to match", "? S. Lee · web-sam"} {
		if !has(rows, want) {
			t.Errorf("the school roster after picking Mallory has no row %q:\n%s", want, strings.Join(rows, "\n"))
		}
	}
}
