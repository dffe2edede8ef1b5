package tui

import (
	"fmt"
	"strings"
	"testing"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// pollCase is a question of the course as the class polls it: the
// instructor's place at the question (open) or after its move (revealed),
// and what the poll must show whole.
type pollCase struct {
	where    string
	lead     play.Position
	q        class.Question
	text     string
	choices  []string
	revealed bool
}

// pollQuestions are every question of the course, each story of each
// scene, open and revealed.
func pollQuestions() []pollCase {
	var out []pollCase
	for _, sc := range scenes.All() {
		for _, p := range sc.Stories() {
			at := play.QuestionAt(sc, p, nil)
			if at < 0 {
				continue
			}
			for _, step := range []int{at, at + 1} {
				lead := play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: p, Step: step}
				q, ok := class.QuestionOf(lead)
				if !ok {
					continue
				}
				text, choices, _ := q.Text()
				where := fmt.Sprintf("%s (%s) step %d", sc.ID, scenes.FormatSettings(sc, p), step)
				out = append(out, pollCase{where, lead, q, text, choices, step > at})
			}
		}
	}
	return out
}

// pollClass is three students at lead, following, who answered q (each
// another choice) and, when ran, whose runs made its move.
func pollClass(lead play.Position, q class.Question, choices int, ran bool) []class.Member {
	var ms []class.Member
	for i, name := range []string{"ann", "bob", "cat"} {
		a := class.Answer{Q: q, Chosen: i % choices, At: atClassNow(), Ran: ran, Actual: (i + 1) % choices}
		ms = append(ms, class.Member{V: class.RowVersion, ID: "k-" + name, Name: name, Role: class.Student, Pos: lead,
			Online: true, Seen: atClassNow(), Following: true, Answers: map[string]class.Answer{q.Key(): a}})
	}
	return ms
}

// everyWayIn is a class view with every way in on it (the SSH command and
// its note, the browser's page, the projector tab), at 80x24.
func everyWayIn() *Desk {
	d := newDesk(NewCommon(views.ASCII(), scenes.Export{}), "CODE",
		"ssh -p 2299 CODE@203.0.113.7 (the address you reached: behind a NAT or a port forward, use -public-addr)",
		"http://203.0.113.7:8099/c/CODE (the address you reached: behind a NAT or a proxy, use -public-url)",
		"http://203.0.113.7:8099/p/k7m2qabcdefghjkmnpqr")
	d.SetSize(80, 24)
	return d
}

// words is s's words joined by one space, rows and their padding aside.
func words(s string) string { return strings.Join(strings.Fields(views.Strip(s)), " ") }

// TestPollShowsEveryQuestionWhole: at 80x24, with every way in on the
// class view and three students who answered, every question of the
// course (each story of each scene, open and once its move has run) is on
// the class view's poll whole: every sentence of its setup (the lost
// SET's "A's SET at 0 s got no reply ... A gave up." was cut, its last
// sentences only shown), and every choice, each numbered; the poll says
// nothing is left out; the poll page (V) shows it whole too.
func TestPollShowsEveryQuestionWhole(t *testing.T) {
	qs := pollQuestions()
	if len(qs) < 20 {
		t.Fatalf("only %d questions found", len(qs))
	}
	for _, c := range qs {
		d := everyWayIn()
		d.sync(deskState{lead: c.lead, now: atClassNow(), students: pollClass(c.lead, c.q, len(c.choices), c.revealed)})
		page := newPollPage(d, nil)
		board := d.View()
		for what, v := range map[string]string{"the class view": board, "the poll page": page.View()} {
			got := words(v)
			if !strings.Contains(got, words(c.text)) {
				t.Errorf("%s: %s does not show the question whole (%q):\n%s", c.where, what, c.text, v)
			}
			for i, ch := range c.choices {
				if !strings.Contains(got, words(fmt.Sprintf("%d %s", i+1, ch))) {
					t.Errorf("%s: %s does not show choice %d whole (%q):\n%s", c.where, what, i+1, ch, v)
				}
			}
			if strings.Contains(v, "more lines") {
				t.Errorf("%s: %s leaves part of the poll out:\n%s", c.where, what, v)
			}
			for _, r := range strings.Split(views.Strip(v), "\n") {
				if views.Width(r) > 80 {
					t.Errorf("%s: %s has a row wider than 80 columns: %q", c.where, what, r)
				}
			}
		}
		if c.revealed && !strings.Contains(views.Strip(board), "their own runs answered (3 of 3 have run it)") {
			t.Errorf("%s: the revealed poll does not count the runs:\n%s", c.where, board)
		}
	}
}

// TestPollPageScrollsALesson: a lesson whose every story was answered
// takes more rows than the class view has at 80x24: the class view keeps
// the open question whole, says how many lines of the poll it leaves out
// and that V shows them; the poll page scrolls through all of them, each
// earlier question whole, and says what is above and below.
func TestPollPageScrollsALesson(t *testing.T) {
	sc := scenes.Find("lost-reply")
	var ms []class.Member
	var all []string
	for _, c := range pollQuestions() {
		if c.lead.Scene != sc.ID || c.revealed {
			continue
		}
		all = append(all, c.text)
		for i, m := range pollClass(c.lead, c.q, len(c.choices), true) {
			if len(ms) < 3 {
				ms = append(ms, m)
			} else {
				ms[i].Answers[c.q.Key()] = m.Answers[c.q.Key()]
			}
		}
	}
	if len(all) < 3 {
		t.Fatalf("lost-reply asks %d questions", len(all))
	}
	lead := play.Position{Version: play.PositionVersion, Scene: sc.ID, Step: play.QuestionAt(sc, nil, nil)}
	d := everyWayIn()
	d.sync(deskState{lead: lead, now: atClassNow(), students: ms, lesson: lessonOf(class.AskedOf(ms), sc.ID)})
	v := views.Strip(d.View())
	if !strings.Contains(words(v), words(all[0])) || !strings.Contains(v, "more lines of the poll · V shows it whole") {
		t.Fatalf("the class view should show the open question whole and say V shows the rest:\n%s", v)
	}
	page := newPollPage(d, nil)
	var seen []string
	for i := 0; i < 100; i++ {
		pv := views.Strip(page.View())
		rows := strings.Split(pv, "\n")
		if len(rows) != 24 || !strings.HasPrefix(rows[len(rows)-1], "↑↓[] scroll · V/esc class view") {
			t.Fatalf("the poll page is not 24 rows over its keys:\n%s", pv)
		}
		seen = append(seen, rows[1:len(rows)-2]...) // its title, its scroll line and its keys aside
		if !strings.Contains(pv, "more lines below") {
			if i == 0 || !strings.Contains(pv, "above · ↑↓[] scroll") {
				t.Fatalf("the poll page should have scrolled, and say what is above:\n%s", pv)
			}
			break
		}
		page.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	got := words(strings.Join(seen, "\n"))
	for _, q := range all {
		if !strings.Contains(got, words(q)) {
			t.Errorf("scrolled through, the poll page never shows %q whole", q)
		}
	}
}

// TestPollPageKey: V in the class view opens the poll page, which stands
// in for the class view (l still goes to the scene); V or esc gives the
// class view back; the class view's keys page lists V.
func TestPollPageKey(t *testing.T) {
	m := deskRoom(t, Classroom{}, Options{Seed: 4})
	drive(t, m.a, keys("V")...)
	if !isPollPage(m.a.pages.top()) || !isDesk(m.a.pages.top()) {
		t.Fatalf("V opened no poll page:\n%s", m.a.View())
	}
	fits(t, "the poll page", m.a.View())
	for _, k := range []string{"V", "[esc]"} {
		drive(t, m.a, keys(k)...)
		if _, ok := m.a.pages.top().(*deskPage); !ok {
			t.Fatalf("%s on the poll page did not give the class view back:\n%s", k, m.a.View())
		}
		if k == "V" {
			drive(t, m.a, keys("V")...)
		}
	}
	drive(t, m.a, keys("?")...)
	if !strings.Contains(views.Strip(m.a.View()), "V       the poll whole") {
		t.Errorf("the class view's keys page does not list V:\n%s", m.a.View())
	}
}
