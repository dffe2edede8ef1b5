package tui

import (
	"slices"
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// screenOf is the roster page's screen at its session's size, as
// rosterScreen reads it: its body rows without the cursor's or the
// indent's columns, the row the cursor is on (-1 for none), its head's
// second row and its footer.
func screenOf(t *testing.T, a *App) (body []string, cur int, say, footer string) {
	t.Helper()
	rows := strings.Split(views.Strip(a.View()), "\n")
	if len(rows) != a.com.Height {
		t.Fatalf("the roster page is %d rows, want %d", len(rows), a.com.Height)
	}
	footer, say, cur = rows[len(rows)-1], rows[1], -1
	for i, r := range rows[2 : len(rows)-1] {
		if strings.HasPrefix(r, "… ") || r == "" {
			break
		}
		if strings.HasPrefix(r, "▸ ") {
			cur = i
		}
		body = append(body, strings.TrimPrefix(strings.TrimPrefix(r, "▸ "), "  "))
	}
	return body, cur, say, footer
}

// TestRosterEveryLineReachable: every line of the school roster's page is
// on some screen the keys reach, in each of its states (no student
// picked, one tied by key, one of no row, one tied by name: the undo
// line), at 80x24 and larger, with 30 students of no row (a class of 60
// where half joined under names not on the roster), more than a screen
// holds. With a student to match the cursor stays on screen, and the
// footer says what enter does where it stands. The cursor could not go
// above the first roster row, so the top of the list of students of no
// row (13 lines at 80x24) was never on screen while matching.
func TestRosterEveryLineReachable(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {100, 40}} {
		for _, who := range []string{"", "k-s01", "web-03", "web-nm"} {
			m := rosterRoom(t, 30, size[0], size[1])
			a := m.a
			a.cls.pick = slices.IndexFunc(a.students(), func(m class.Member) bool { return m.ID == who })
			if a.cls.pick < 0 {
				if who != "" {
					t.Fatalf("no student %s", who)
				}
				a.cls.pick = len(a.students())
			}
			drive(t, a, keys("m")...)
			p, ok := a.pages.top().(*rosterPage)
			if !ok {
				t.Fatalf("m opened no roster page:\n%s", a.View())
			}
			matching := p.id != ""
			if matching != (who == "web-03" || who == "web-nm") {
				t.Fatalf("%dx%d, picked %q: matching is %v", size[0], size[1], who, matching)
			}
			lines, _ := p.lines()
			// each line as a screen shows it, stripped once (every screen
			// below is looked for among them)
			plain := make([]string, len(lines))
			for i, l := range lines {
				plain[i] = views.Strip(l)
			}
			seen := make([]bool, len(lines))
			look := func(after string) {
				t.Helper()
				body, cur, say, footer := screenOf(t, a)
				if matching && cur < 0 {
					t.Errorf("%dx%d, picked %q, after %s: the cursor is off the screen:\n%s", size[0], size[1], who, after, a.View())
				}
				if !matching && cur >= 0 {
					t.Errorf("%dx%d, picked %q, after %s: a cursor with nothing to match:\n%s", size[0], size[1], who, after, a.View())
				}
				if matching && cur >= 0 {
					onStudent := strings.HasPrefix(body[cur], "? ") || strings.HasPrefix(body[cur], rosterMatching)
					if onStudent && strings.Contains(footer, "enter match") {
						t.Errorf("%dx%d, picked %q, after %s: the cursor is on a student, and the footer says enter matches: %q", size[0], size[1], who, after, footer)
					}
					if !onStudent && (!strings.Contains(footer, "enter match") || !strings.HasPrefix(say, "match ")) {
						t.Errorf("%dx%d, picked %q, after %s: the cursor is on a row, and the page does not say enter matches: %q, %q", size[0], size[1], who, after, say, footer)
					}
				}
				for i := range lines {
					if i+len(body) <= len(lines) && slices.Equal(plain[i:i+len(body)], body) {
						for j := range body {
							seen[i+j] = true
						}
						return
					}
				}
				t.Fatalf("%dx%d, picked %q, after %s: a screen that is not a run of the page's lines:\n%s", size[0], size[1], who, after, a.View())
			}
			look("m")
			for _, k := range []string{"up", "down", "[", "]"} {
				for range len(lines) + 2 {
					drive(t, a, keyOf(k))
					look(k)
				}
			}
			for i, s := range seen {
				if !s {
					t.Errorf("%dx%d, picked %q: line %d %q is on no screen the keys reach", size[0], size[1], who, i, plain[i])
				}
			}
		}
	}
}

// TestRosterEnterOnAStudentPicksThem: matching one student, the cursor
// stands on the students of no row too (so the top of their list is on
// screen), and enter there picks that student to match instead: the page
// stays, says whom it matches now, and puts the cursor on the first row,
// where enter matches them. On the student already picked, enter does
// nothing, and the footer offers no enter.
func TestRosterEnterOnAStudentPicksThem(t *testing.T) {
	t.Parallel()
	m := rosterRoom(t, 30, 80, 24)
	a := m.a
	a.cls.pick = slices.IndexFunc(a.students(), func(m class.Member) bool { return m.ID == "web-03" })
	drive(t, a, keys("m")...)
	p, ok := a.pages.top().(*rosterPage)
	if !ok || p.id != "web-03" {
		t.Fatalf("m opened no roster page matching web-03:\n%s", a.View())
	}
	first := func() string {
		body, cur, _, _ := screenOf(t, a)
		if cur < 0 {
			t.Fatalf("no cursor on screen:\n%s", a.View())
		}
		return body[cur]
	}
	opened := first()
	if !strings.HasPrefix(opened, "line ") {
		t.Fatalf("m put the cursor on %q, not the first row", opened)
	}
	upTo := func(want string) {
		t.Helper()
		for range 40 {
			if strings.HasPrefix(first(), want) {
				return
			}
			drive(t, a, keyOf("up"))
		}
		t.Fatalf("↑ never reaches %q:\n%s", want, a.View())
	}
	upTo(rosterMatching + "nick 03 ") // the student being matched, marked so
	if _, _, say, footer := screenOf(t, a); strings.Contains(footer, "enter") || !strings.Contains(say, "nick 03, the student to match") {
		t.Errorf("on the student to match, the page says %q, %q", say, footer)
	}
	drive(t, a, keyOf("enter"))
	if a.pages.top() != Component(p) || p.id != "web-03" {
		t.Fatalf("enter on the student to match did something:\n%s", a.View())
	}
	upTo("? nick 00 ")
	if _, _, say, footer := screenOf(t, a); !strings.Contains(footer, "enter pick") || !strings.Contains(say, "pick nick 00 to match, not nick 03") {
		t.Errorf("on another student, the page says %q, %q", say, footer)
	}
	drive(t, a, keyOf("enter"))
	_, _, say, footer := screenOf(t, a)
	if a.pages.top() != Component(p) || p.id != "web-00" || first() != opened || !strings.HasPrefix(say, "match nick 00 to the row under ▸") || !strings.Contains(footer, "enter match") {
		t.Fatalf("enter on nick 00 does not pick them with the cursor on the first row (%q, %q):\n%s", say, footer, a.View())
	}
	drive(t, a, keyOf("enter"))
	e, _ := a.cls.part.Enrolment()
	if _, tied := e.Row["web-00"]; !tied {
		t.Errorf("enter on %q did not match nick 00 to it", opened)
	}
	if _, tied := e.Row["web-03"]; tied {
		t.Errorf("nick 03 was matched too")
	}
	if isRosterPage(a.pages.top()) {
		t.Errorf("the match left the roster page open")
	}
}

// TestRosterPageFollowsTheClass: the school roster's page, open, shows a
// student who joins meanwhile, and redraws at a new size (the page keeps
// its lines until the class or the size changes).
func TestRosterPageFollowsTheClass(t *testing.T) {
	t.Parallel()
	m := rosterRoom(t, 3, 80, 24)
	a := m.a
	drive(t, a, keys("m")...)
	if !isRosterPage(a.pages.top()) {
		t.Fatalf("m opened no roster page:\n%s", a.View())
	}
	before := views.Strip(a.View())
	if !strings.Contains(before, "students with no row (3)") || strings.Contains(before, "nick new") {
		t.Fatalf("the page before anyone joins:\n%s", before)
	}
	newcomer := class.Member{V: class.RowVersion, ID: "web-new", Name: "nick new", Role: class.Student, Seen: atClassNow()}
	drive(t, a, ClassMsg{Events: []class.Event{{Kind: class.KindMember, Member: &newcomer}}})
	if !isRosterPage(a.pages.top()) {
		t.Fatalf("a student joining closed the roster page:\n%s", a.View())
	}
	if v := views.Strip(a.View()); !strings.Contains(v, "students with no row (4)") || !strings.Contains(v, "? nick new") {
		t.Errorf("the page does not show the student who joined:\n%s", v)
	}
	// and a new size: its rules as wide as the screen
	drive(t, a, tea.WindowSizeMsg{Width: 100, Height: 40})
	rows := strings.Split(views.Strip(a.View()), "\n")
	if len(rows) != 40 || !strings.HasPrefix(rows[2], "── students with no row (4)") || views.Width(rows[2]) != 100 {
		t.Errorf("at 100x40 the page's first rule is not 100 columns (%d rows):\n%s", len(rows), strings.Join(rows, "\n"))
	}
}
