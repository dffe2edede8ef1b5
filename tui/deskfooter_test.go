package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"locksim/class"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// footerRoom is an instructor leading lost-reply, on the class view at
// 80x24, with 30 students who answered every question of its lesson and
// a school roster of 60 rows (the first student picked): the summary, the
// poll page and the roster page each run longer than the screen, so their scroll keys have
// something to do.
func footerRoom(t *testing.T) member {
	t.Helper()
	hub, code, teacher := schoolRoom(t, 60, nil, "lost-reply", 80, 24)
	lesson := lostReplyPolls()
	for i := range 30 {
		m := class.Member{V: class.RowVersion, ID: fmt.Sprintf("k-s%02d", i), Name: fmt.Sprintf("s%02d", i), Role: class.Student,
			Seen: atClassNow(), Answers: map[string]class.Answer{}}
		for _, c := range lesson {
			m.Pos = c.lead
			m.Answers[c.q.Key()] = class.Answer{Q: c.q, Chosen: i % len(c.choices), At: atClassNow(), Ran: true, Actual: 0}
		}
		if err := hub.Put(context.Background(), code, m); err != nil {
			t.Fatal(err)
		}
	}
	hearRoster(t, hub, code, teacher)
	drive(t, teacher.a, keys("l")...)
	if _, ok := teacher.a.pages.top().(*deskPage); !ok {
		t.Fatalf("l opened no class view:\n%s", teacher.a.View())
	}
	return teacher
}

// lostReplyPolls are lost-reply's open questions, as pollQuestions gives
// them: worked out once for the test binary, where each footerRoom (one
// per key pressed) asked for all sixty questions again for each of its
// thirty students, most of TestClassPagesFooterKeys's time.
var lostReplyPolls = sync.OnceValue(func() []pollCase {
	var out []pollCase
	for _, c := range pollQuestions() {
		if c.lead.Scene == "lost-reply" && !c.revealed {
			out = append(out, c)
		}
	}
	return out
})

// keyOf is the press of key name as a binding lists it ("up", "esc",
// "ctrl+c", "S").
func keyOf(name string) tea.KeyMsg {
	switch name {
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// TestClassPagesFooterKeys: on each page that stands in for the class
// view (the summary, S; the poll whole, V; the school roster, m; the
// class view's keys, ?), every key its footer offers does what the
// footer says: ↑↓[] scroll it, its own key or esc gives the class view
// back, l goes to the scene, q (and ctrl+c) quits. A key on a footer
// that this test does not know fails it, so a new one comes with its
// check. (q did nothing on the summary and the poll page: the footer
// said "q quit".) The keys page fits the screen whole: it offers no
// scroll key, which this test would fail on if it did.
func TestClassPagesFooterKeys(t *testing.T) {
	for _, pg := range []struct {
		open string
		is   func(Component) bool
		// long: the page runs longer than the screen, to scroll
		long bool
	}{{"S", isSummary, true}, {"V", isPollPage, true}, {"m", isRosterPage, true}, {"?", isClassKeys, false}} {
		onPage := func() member {
			m := footerRoom(t)
			drive(t, m.a, keys(pg.open)...)
			if !pg.is(m.a.pages.top()) {
				t.Fatalf("%s opened no page of its own:\n%s", pg.open, m.a.View())
			}
			if v := views.Strip(m.a.View()); strings.Contains(v, "more lines below") != pg.long {
				t.Fatalf("%s: the page should be longer than the screen (%v), to scroll:\n%s", pg.open, pg.long, v)
			}
			return m
		}
		// a room (thirty students' answers through the hub's JSON) is dear:
		// the keys that leave the room as it was (the scroll keys, back to
		// the class view, to the scene) are pressed in turn on one, the
		// page opened again and scrolled back to its top before each, and
		// each pressed only on a page exactly as first opened (where the
		// page cannot be brought back so, the roster's picked row, a new
		// room); quitting and matching a row by hand each get a room of
		// their own
		shared := onPage()
		first := views.Strip(shared.a.View())
		again := func() member {
			a := shared.a
			if isScene(a.pages.top()) {
				drive(t, a, keys("l")...)
			}
			if !pg.is(a.pages.top()) {
				drive(t, a, keys(pg.open)...)
			}
			// the page keeps its place: back to its top
			for i := 0; i < 10 && pg.is(a.pages.top()) && views.Strip(a.View()) != first; i++ {
				drive(t, a, keyOf("["))
			}
			if !pg.is(a.pages.top()) || views.Strip(a.View()) != first {
				shared = onPage()
			}
			return shared
		}
		var bs []key.Binding
		bs = append(bs, shared.a.pages.top().KeyMap().ShortHelp()...)
		footer := first[strings.LastIndex(first, "\n")+1:]
		for _, b := range bs {
			if !strings.Contains(footer, b.Help().Key+" "+b.Help().Desc) {
				t.Errorf("%s: the footer %q does not offer %s %s", pg.open, footer, b.Help().Key, b.Help().Desc)
			}
			for _, name := range b.Keys() {
				what := fmt.Sprintf("%s then %s (%s %s)", pg.open, name, b.Help().Key, b.Help().Desc)
				var m member
				switch name {
				case "q", "ctrl+c", "enter":
					m = onPage()
				default:
					m = again()
				}
				a := m.a
				top := func() string { return views.Strip(a.View()) }
				switch name {
				case "down", "]":
					before := top()
					drive(t, a, keyOf(name))
					if v := top(); !pg.is(a.pages.top()) || v == before || !strings.Contains(v, "above") {
						t.Errorf("%s: does not scroll the page down:\n%s", what, v)
					}
				case "up", "[":
					first := top()
					drive(t, a, keys("]]")...)
					before := top()
					drive(t, a, keyOf(name))
					if v := top(); !pg.is(a.pages.top()) || v == before || v == first && name == "up" {
						t.Errorf("%s: does not scroll the page up:\n%s", what, v)
					}
				case pg.open, "esc":
					drive(t, a, keyOf(name))
					if _, ok := a.pages.top().(*deskPage); !ok {
						t.Errorf("%s: does not give the class view back:\n%s", what, a.View())
					}
				case "l":
					drive(t, a, keyOf(name))
					if !isScene(a.pages.top()) {
						t.Errorf("%s: does not go to the scene:\n%s", what, a.View())
					}
				case "enter":
					// the roster's match: the picked student tied to the
					// picked row by hand, and the class view back
					id := a.pages.top().(*rosterPage).id
					drive(t, a, keyOf(name))
					e, _ := a.cls.part.Enrolment()
					if _, ok := a.pages.top().(*deskPage); !ok || id == "" || e.How[id] != class.TieHand {
						t.Errorf("%s: does not match %q to a row by hand (%q):\n%s", what, id, e.How[id], a.View())
					}
				case "q", "ctrl+c":
					drive(t, a, keyOf(name))
					if a.ctx.Err() == nil {
						t.Errorf("%s: does not quit:\n%s", what, a.View())
					}
				default:
					t.Errorf("%s: a key this test does not check: add its effect", what)
				}
			}
		}
	}
}
