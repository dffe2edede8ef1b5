package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// TestSceneKeysPageClassKeysWhole: on every scene's keys page (?) at
// 80x24, the class's keys say what they do whole, for the instructor
// (F asks the class to follow, l opens the class view) and for a student
// (F follows): a scene's wide keys ("←/shift+tab", "[ ] / wheel") left
// them 27 columns and they were cut ("ask the class to follow, o…"). No
// key's row is cut.
func TestSceneKeysPageClassKeysWhole(t *testing.T) {
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	check := func(who, scene, v string, wants ...string) {
		t.Helper()
		rows := strings.Split(views.Strip(v), "\n")
		if len(rows) > 24 {
			t.Errorf("%s, %s: the keys page is %d rows", who, scene, len(rows))
		}
		for _, want := range wants {
			if !strings.Contains(views.Strip(v), want) {
				t.Errorf("%s, %s: the keys page does not say %q whole:\n%s", who, scene, want, v)
			}
		}
		for i, r := range rows[1 : len(rows)-1] { // the title and the footer have their own rules
			if ansi.StringWidth(r) > 80 || strings.Contains(r, "…") {
				t.Errorf("%s, %s: row %d is cut or over 80 columns: %q", who, scene, i+2, r)
			}
		}
	}
	for i, sc := range []string{"race", "gc-pause", "timeout", "redlock", "choose"} {
		m := deskRoom(t, Classroom{}, Options{Seed: 4, Scene: sc, Present: true})
		drive(t, m.a, keys("l?")...)
		check("the instructor", sc, m.a.View(), "F", "ask the class to follow, or stop", "the class: roster, poll, notes")
		s := joinAs(t, hub, info.Code, class.Student, fmt.Sprint("student-", i), "s", Options{Seed: 2, Scene: sc}, 80, 24)
		drive(t, s.a, keys("?")...)
		check("a student", sc, s.a.View(), "follow the instructor, or leave")
	}
}
