package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"
	"locksim/shown"
)

// hostileName is a student's name meant to rewrite the instructor's
// projected screen: a right-to-left override that reverses the rest of
// its row, an isolate left open, a mark, a line separator, an ESC that
// would clear the screen and a newline that would push a row down.
const hostileName = "Mal\u202elory\u2066 x\u200f\u2028\x1b[2J\nEve"

// rawControls reports the first character of s a terminal would obey
// rather than show (ESC of an SGR colour sequence aside), -1 for none.
func rawControls(s string) rune {
	for _, r := range strings.ReplaceAll(s, "\x1b[", "") {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f || shown.Bidi(r) || r == 0x2028 || r == 0x2029 {
			return r
		}
	}
	return -1
}

// TestClassPagesShowAHostileName: a student whose name carries bidi and
// control characters is drawn with them shown (U+FFFD, ␛, ␊), not
// obeyed, on the instructor's class view (l), the school roster (m),
// and in the class summary: nothing in the name reorders or hides the
// projector's text. Names enter the screen's part of the class at one
// place (class.Part hears the roster's rows), where they are shown.
func TestClassPagesShowAHostileName(t *testing.T) {
	t.Parallel()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	room := Classroom{Join: "ssh -p 2222 " + info.Code + "@localhost", Now: atClassNow,
		Enrolled: append(schoolRows(), class.Enrolled{Ref: "sis:S-6", Name: "Row\u202eName", Line: 7, Label: "x\u2067y"})}
	teacher := joinRoom(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 80, 24, room)
	joinAs(t, hub, info.Code, class.Student, "web-mal", hostileName, Options{Seed: 4}, 80, 24)
	hear(t, teacher, "Mallory's row", rowOf("web-mal", func(class.Member) bool { return true }))
	if ss := teacher.a.students(); len(ss) != 1 || ss[0].Name != "Mal\uFFFDlory\uFFFD x\uFFFD\uFFFD␛[2J␊Eve" {
		t.Errorf("the class's students: %q", names(ss))
	}
	for _, page := range []string{"l", "m", "[esc]"} {
		drive(t, teacher.a, keys(page)...)
		v := teacher.a.View()
		if r := rawControls(v); r != -1 {
			t.Errorf("after %s the screen holds %U raw:\n%s", page, r, v)
		}
		if !strings.Contains(v, "Mal\uFFFDlory") {
			t.Errorf("after %s the screen does not show the name as Mal\uFFFDlory…:\n%s", page, v)
		}
	}
	drive(t, teacher.a, keys("m")...)
	if v := teacher.a.View(); !strings.Contains(v, "Row\uFFFDName") {
		t.Errorf("the school roster does not show its row's name as Row\uFFFDName:\n%s", v)
	}
}
