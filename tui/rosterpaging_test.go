package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"locksim/class"
	"locksim/views"
)

// pagingRoom is an instructor on the class view at 80x24 with a school
// roster of 40 rows: k-s00..k-s04 are tied to theirs by key (the joined
// section), and twelve browser students match no row, so the roster
// page's lines run two screens and more with rules among the rows.
func pagingRoom(t *testing.T) member {
	t.Helper()
	return rosterRoom(t, 12, 80, 24)
}

// rosterRoom is pagingRoom with nokey browser students of no row
// (web-00 on, named nick 00 on) and the session w x h; one more browser
// student, web-nm, is Student 02 by name, tied to that row by it.
func rosterRoom(t *testing.T, nokey, w, h int) member {
	t.Helper()
	hub, code, teacher := schoolRoom(t, 40, func(i int, r *class.Enrolled) {
		if i%8 == 0 {
			r.KeyID = fmt.Sprintf("k-s%02d", i/8)
		}
	}, "gc-pause", w, h)
	put := func(id, name string) {
		m := class.Member{V: class.RowVersion, ID: id, Name: name, Role: class.Student, Seen: atClassNow()}
		if err := hub.Put(context.Background(), code, m); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		put(fmt.Sprintf("k-s%02d", i), fmt.Sprintf("keyed %d", i))
	}
	for i := range nokey {
		put(fmt.Sprintf("web-%02d", i), fmt.Sprintf("nick %02d", i))
	}
	if nokey != 12 {
		put("web-nm", "Student 02")
	}
	hearRoster(t, hub, code, teacher)
	drive(t, teacher.a, keys("l")...)
	return teacher
}

// schoolRoom opens a class on a memory hub and seats its instructor,
// "teacher", presenting scene at w x h, with a school roster of n rows
// (refs sis:00 on, names Student 01 on, sheet lines 2 on); tie, if not
// nil, may change row i (give it a key, say). It returns the hub, the
// class's code and the instructor.
func schoolRoom(t *testing.T, n int, tie func(i int, r *class.Enrolled), scene string, w, h int) (*class.Memory, string, member) {
	t.Helper()
	hub := class.NewMemory(atClassNow)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	var rows []class.Enrolled
	for i := range n {
		r := class.Enrolled{Ref: fmt.Sprintf("sis:%02d", i), Name: fmt.Sprintf("Student %02d", i+1), Line: i + 2}
		if tie != nil {
			tie(i, &r)
		}
		rows = append(rows, r)
	}
	room := Classroom{Join: "ssh -p 2222 " + info.Code + "@localhost", Now: atClassNow, Enrolled: rows}
	teacher := joinRoom(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: scene, Present: true}, w, h, room)
	return hub, info.Code, teacher
}

// rosterScreen is the roster page's screen: its body rows (between its
// two head rows and the 'more lines' row, without the cursor's or the
// indent's columns), the body row the cursor is on (-1 for none), and
// the footer.
func rosterScreen(t *testing.T, a *App) (body []string, cur int, footer string) {
	t.Helper()
	rows := strings.Split(views.Strip(a.View()), "\n")
	if len(rows) != 24 {
		t.Fatalf("the roster page is %d rows, want 24", len(rows))
	}
	footer = rows[len(rows)-1]
	cur = -1
	for i, r := range rows[2 : len(rows)-1] {
		if strings.HasPrefix(r, "… ") || r == "" {
			break
		}
		if strings.HasPrefix(r, "▸ ") {
			cur = i
		}
		body = append(body, strings.TrimPrefix(strings.TrimPrefix(r, "▸ "), "  "))
	}
	return body, cur, footer
}

// TestRosterPagesAWholePage: on the school roster's page [ and ] move by
// a whole page, as on the other stand-in pages (the summary, the poll
// whole): each screen starts on the line after the last one the screen
// before showed (none skipped unseen, none shown twice), but where the
// first or the last page stops it. That holds with no student picked
// (the keys scroll) and with one to match (the cursor moves with the
// page and stays on screen, and ] at the last page puts it on the last
// row), across the rules between the sections. The roster's ] moved a row
// less than the page, which showed the last row of each screen again.
func TestRosterPagesAWholePage(t *testing.T) {
	t.Parallel()
	for _, picked := range []bool{false, true} {
		m := pagingRoom(t)
		a := m.a
		a.cls.pick = len(a.students()) // none
		if picked {
			i := slices.IndexFunc(a.students(), func(m class.Member) bool { return m.ID == "web-00" })
			if i < 0 {
				t.Fatal("no student web-00")
			}
			a.cls.pick = i
		}
		drive(t, a, keys("m")...)
		p, ok := a.pages.top().(*rosterPage)
		if !ok || (p.id != "") != picked {
			t.Fatalf("picked %v: m opened no roster page to match on (%v):\n%s", picked, ok, a.View())
		}
		lines, cs := p.lines()
		var all []string
		for _, l := range lines {
			all = append(all, views.Strip(l))
		}
		lastChoice := all[cs[len(cs)-1].line]
		// at is where body starts among all the page's lines
		at := func(body []string) int {
			t.Helper()
			for i := range all {
				if i+len(body) <= len(all) && slices.Equal(all[i:i+len(body)], body) {
					return i
				}
			}
			t.Fatalf("picked %v: a screen that is not a run of the page's lines:\n%s", picked, a.View())
			return 0
		}
		check := func(what string, body []string, cur int) {
			t.Helper()
			if picked && cur < 0 {
				t.Errorf("picked %v, %s: the cursor is off the screen:\n%s", picked, what, a.View())
			}
			if !picked && cur >= 0 {
				t.Errorf("picked %v, %s: a cursor with no student to match:\n%s", picked, what, a.View())
			}
		}
		body, cur, _ := rosterScreen(t, a)
		check("opened", body, cur)
		start, downs := at(body), 0
		for ; start+len(body) < len(all); downs++ {
			if downs > 10 {
				t.Fatalf("picked %v: ] never reaches the last line", picked)
			}
			drive(t, a, keyOf("]"))
			next, cur, _ := rosterScreen(t, a)
			check("after ]", next, cur)
			end, s := start+len(body), at(next)
			switch {
			case s > end:
				t.Errorf("picked %v: ] skipped lines %d to %d unseen (%q):\n%s", picked, end, s-1, all[end:s], a.View())
			case s < end && s+len(next) < len(all):
				t.Errorf("picked %v: ] moved %d lines, not a page of %d: %q shown again:\n%s", picked, s-start, len(body), all[s:end], a.View())
			}
			body, start = next, s
		}
		if downs < 2 {
			t.Errorf("picked %v: the page took %d ] to its end, want a roster of 3 screens and more", picked, downs)
		}
		if _, cur, _ := rosterScreen(t, a); picked {
			drive(t, a, keyOf("]"))
			if b, cur2, _ := rosterScreen(t, a); cur2 < 0 || b[cur2] != lastChoice {
				t.Errorf("] on the last page does not take the cursor to the last row %q (it was on row %d):\n%s", lastChoice, cur, a.View())
			}
		}
		for ups := 0; ; ups++ {
			if ups > 10 {
				t.Fatalf("picked %v: [ never reaches the first page", picked)
			}
			drive(t, a, keyOf("["))
			prev, cur, _ := rosterScreen(t, a)
			check("after [", prev, cur)
			s := at(prev)
			if s == start {
				// [ moves no further: only on the first page, at the first
				// line or (with the cursor) the first choice's last screen
				if s > 0 && !(picked && s+len(prev)-1 == cs[0].line) {
					t.Errorf("picked %v: [ stops at line %d, not on the first page:\n%s", picked, s, a.View())
				}
				if ups < 2 {
					t.Errorf("picked %v: the page took %d [ to its start, want a roster of 3 screens and more", picked, ups)
				}
				break
			}
			switch e := s + len(prev); {
			case e < start:
				t.Errorf("picked %v: [ skipped lines %d to %d unseen (%q):\n%s", picked, e, start-1, all[e:start], a.View())
			case e > start && s > 0 && !(picked && e-1 == cs[0].line):
				t.Errorf("picked %v: [ moved %d lines, not a page of %d:\n%s", picked, start-s, len(prev), a.View())
			}
			start = s
		}
	}
}

// TestRosterFooterSaysWhatTheKeysDo: the roster page's footer says what
// ↑↓[] do: with a student to match they move the cursor's row ("row",
// with enter to match); with none picked, or one the page cannot match
// (tied by their key), they only scroll it, and it says "scroll" as the
// other stand-in pages do. It said "↑↓[] row" with no row to move.
func TestRosterFooterSaysWhatTheKeysDo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		who, keys string
		want, not []string
	}{
		{"", "↑↓[] scroll", nil, []string{"row", "enter"}},
		{"k-s01", "↑↓[] scroll", []string{"names their SSH key"}, []string{"row", "enter"}},
		{"web-03", "↑↓[] row · enter match", []string{"match nick 03 to the row under ▸"}, []string{"scroll"}},
	} {
		m := pagingRoom(t)
		a := m.a
		a.cls.pick = slices.IndexFunc(a.students(), func(m class.Member) bool { return c.who != "" && m.ID == c.who })
		if a.cls.pick < 0 {
			if c.who != "" {
				t.Fatalf("no student %s", c.who)
			}
			a.cls.pick = len(a.students())
		}
		drive(t, a, keys("m")...)
		for _, k := range []string{"", "]", "down", "["} {
			drive(t, a, keyOf(k))
			v := views.Strip(a.View())
			_, _, footer := rosterScreen(t, a)
			if !strings.HasPrefix(footer, c.keys+" · ") {
				t.Errorf("picked %q, after %q: the footer %q does not start %q", c.who, k, footer, c.keys)
			}
			for _, w := range c.not {
				if strings.Contains(footer, w) {
					t.Errorf("picked %q, after %q: the footer %q says %q", c.who, k, footer, w)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(v, w) {
					t.Errorf("picked %q, after %q: the page has no %q:\n%s", c.who, k, w, v)
				}
			}
		}
	}
}
