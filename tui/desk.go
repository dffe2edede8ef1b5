package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Desk is the instructor's class view: who is connected and where each
// stands, the poll of the story on the instructor's screen, and the
// speaker notes for the step, while the projector (a follower session)
// shows the scene. The app hands it the class as it stands (sync) after
// every message; View only draws.
type Desk struct {
	com  *Common
	w, h int

	code, join, web string
	// projector is the projector tab's link, the instructor's alone
	projector string
	// tabLink makes a one-time link to an instructor's tab of this view
	// (Classroom.TabLink), nil for none; tab is the last one made, shown
	// until the view closes
	tabLink func() (string, time.Duration)
	tab     string
	tabLife time.Duration
	deskState
	// top is the roster's first row on screen; page the roster rows the
	// last View drew, what [ and ] move the pick by
	top, page int
}

// deskState is the class as the app hands it to the desk.
type deskState struct {
	// students are the class's students, by name; pick the one picked
	students []class.Member
	pick     int
	// enrol is the class against the school's roster; nil for none
	enrol *class.Enrolment
	// lead is the instructor's place, and since when it stands there (by
	// the class's clock): an open question's time
	lead  play.Position
	since time.Time
	// follow and hold: the class is asked to follow, and held
	follow, hold bool
	// contents: the instructor is on the contents, where the class has no
	// question open, whatever scene lies under them
	contents bool
	notes    string
	// now is the time rows are judged online at, and their times from
	now time.Time
	// lesson are the polls of the instructor's scene some student has
	// answered (every story of its lesson, each its own question), in
	// the lesson's order: the class view shows each, the one the
	// instructor stands at in full
	lesson []class.Asked
}

// lessonOf are the polls of scene among asked.
func lessonOf(asked []class.Asked, scene string) []class.Asked {
	var out []class.Asked
	for _, q := range asked {
		if q.Q.Scene == scene && scene != "" {
			out = append(out, q)
		}
	}
	return out
}

// newDesk is the class view of class code drawn with com; no size yet.
func newDesk(com *Common, code, join, web, projector string) *Desk {
	return &Desk{com: com, code: code, join: join, web: web, projector: projector, page: 1}
}

// SetSize sets the size View draws at, the help line's row included.
func (d *Desk) SetSize(w, h int) { d.w, d.h = w, h }

// sync hands the desk the class as it stands.
func (d *Desk) sync(s deskState) { d.deskState = s }

// View draws the class view at the size SetSize set, all but its last
// row, which the app fills with the desk's help line. Every part says
// what it leaves out: the roster scrolls with the pick and says how many
// are above and below; the notes say how many lines they cut.
func (d *Desk) View() string {
	st, w := d.com.Styles, d.w
	online, following := 0, 0
	for _, m := range d.students {
		if m.Here(d.now) {
			online++
			if m.Following {
				following++
			}
		}
	}
	head := views.OneLine(st.Title, "class "+d.code) + " · " + fmt.Sprintf("%d online, %d following", online, following)
	switch {
	case d.hold:
		head += " · " + views.OneLine(st.Accent, "the class is held")
	case d.follow:
		head += " · the class is asked to follow"
	}
	lines := []string{truncate(head, w)}
	if d.join != "" {
		// the command whole on its line; a note on how sure it is under it
		cmd, note, _ := strings.Cut(d.join, " (")
		lines = append(lines, truncate(views.OneLine(st.Dim, "students join with: "+cmd), w))
		if note != "" {
			lines = append(lines, truncate(views.OneLine(st.Dim, "("+note), w))
		}
	}
	if d.web != "" {
		link, _, _ := strings.Cut(d.web, " (")
		lines = append(lines, truncate(views.OneLine(st.Dim, "or in a browser: "+link), w))
	}
	if d.projector != "" {
		lines = append(lines, linkLines(st, "projector tab: ", d.projector, w)...)
	}
	if d.tab != "" {
		label := fmt.Sprintf("your tab (opens one, for %s): ", span(d.tabLife))
		lines = append(lines, linkLines(st, label, d.tab, w)...)
	}
	poll := d.pollLines()
	var notes []string
	if d.lead.Scene == "" {
		notes = []string{views.OneLine(st.Dim, truncate("no notes yet: they come with the scene you open", w))}
	} else if n := strings.TrimSpace(d.notes); n != "" {
		for _, l := range strings.Split(strings.TrimRight(d.notes, "\n"), "\n") {
			notes = append(notes, strings.Split(ansi.Wrap(l, w, ""), "\n")...)
		}
	}
	rows := d.h - 1 - len(lines) - 3 // the help line and three rules
	// the poll first, whole if it can be: it is what the room is asked
	// about now. The roster (which pages, and says how many it leaves
	// out) keeps three rows, its heads, the pick and what is cut, and the
	// notes one, the line saying how many they cut; they take what is
	// left, the notes a quarter of it (two rows at least) while the
	// roster needs more than it has
	pollRows := min(len(poll), max(rows-4, 3))
	if pollRows < len(poll) {
		// what the poll cannot show is said, on its last row
		cut := len(poll) - pollRows + 1
		poll = append(clip(poll, pollRows-1), views.OneLine(st.Dim, truncate(fmt.Sprintf("… %d more lines of the poll · V shows it whole", cut), w)))
	}
	left := max(rows-pollRows, 0)
	need := max(len(d.students), 1) + 1 // its column heads
	// the school's roster (its rule and two lines) takes only what the
	// poll, the roster's three rows and a line of notes leave: its counts
	// are on the roster's rule whatever it gets
	var enrol []string
	if d.enrol != nil {
		enrol = clip(d.enrolLines(), min(max(left-3-min(len(notes), 1)-1, 0), 2))
		if len(enrol) > 0 {
			left -= len(enrol) + 1
		}
	}
	keep := min(len(notes), max(left/4, 2))
	rosterRows := min(need, max(left-keep, 3))
	notesRows := max(left-rosterRows, 0)
	lines = append(lines, views.Rule(st, "poll", w))
	lines = append(lines, clip(poll, pollRows)...)
	lines = append(lines, views.Rule(st, d.rosterTitle(), w))
	lines = append(lines, d.rosterLines(rosterRows)...)
	if len(enrol) > 0 {
		lines = append(lines, views.Rule(st, "school roster", w))
		lines = append(lines, enrol...)
	}
	lines = append(lines, views.Rule(st, "speaker notes", w))
	if len(notes) > notesRows && notesRows > 0 {
		more := len(notes) - notesRows + 1
		notes = append(clip(notes, notesRows-1), views.OneLine(st.Dim, truncate(fmt.Sprintf("… %d more lines (l, then N, shows them whole)", more), w)))
	}
	lines = append(lines, clip(notes, notesRows)...)
	return fitRows(strings.Join(lines, "\n"), d.h-1)
}

// linkLines are a link and its label: a link cut short opens nothing,
// so it goes whole, on rows of its own if the label beside it would push
// it past the width.
func linkLines(st views.Styles, label, link string, w int) []string {
	if l := label + link; ansi.StringWidth(l) <= w || w <= 0 {
		return []string{views.OneLine(st.Dim, l)}
	}
	return append([]string{views.OneLine(st.Dim, strings.TrimSpace(label))}, strings.Split(ansi.Hardwrap(link, w, false), "\n")...)
}

// rosterLines are the roster in n rows: its column heads, one row per
// student (name, place, step, following or offline, time on the step,
// time since the last key, prediction and what their run answered) from
// the picked one's page, and, when some do not fit, a last row saying how
// many are above and below and how to get to them.
func (d *Desk) rosterLines(n int) []string {
	st, w := d.com.Styles, d.w
	if len(d.students) == 0 {
		return clip([]string{views.OneLine(st.Dim, "no student has joined yet")}, n)
	}
	type row struct{ name, where, step, state, onStep, key, answer string }
	rs := make([]row, len(d.students))
	nameW, whereW, answerW := len("name"), len("where"), len("answer")
	for i, m := range d.students {
		r := row{name: m.Name, where: m.Pos.Scene, step: stepOf(m.Pos), answer: answerOf(m)}
		if m.OnContents {
			r.where, r.step = "contents", ""
		}
		switch {
		case !m.Here(d.now):
			r.state = "offline"
		case m.Following:
			r.state = "following"
		}
		if m.Here(d.now) {
			r.onStep, r.key = ago(d.now, m.StepAt), ago(d.now, m.KeyAt)
		}
		rs[i] = r
		nameW = max(nameW, ansi.StringWidth(r.name))
		whereW = max(whereW, ansi.StringWidth(r.where))
		answerW = max(answerW, ansi.StringWidth(r.answer))
	}
	// the fixed columns and their gaps; the name gets what the answer
	// leaves, and never less than eight columns
	fixed := 2 + whereW + 1 + 6 + 10 + 8 + 6 // where, step, state, on step, key
	nameW = min(nameW, max(w-fixed-answerW-1, 8))
	cell := func(s string, w int) string {
		s = truncate(s, w)
		return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
	}
	line := func(mark string, r row) string {
		return mark + cell(r.name, nameW) + " " + cell(r.where, whereW) + " " + cell(r.step, 5) + " " + cell(r.state, 9) + " " +
			cell(r.onStep, 7) + " " + cell(r.key, 5) + " " + r.answer
	}
	out := []string{truncate(views.OneLine(st.Dim, strings.TrimRight(line("  ", row{"name", "where", "step", "state", "on step", "key", "answer"}), " ")), w)}
	shown := n - 1
	over := len(rs) > shown
	if over {
		shown-- // the row that says how many more
	}
	shown = max(shown, 1)
	d.page = shown
	d.pick = min(max(d.pick, 0), len(rs)-1)
	// the window (the desk's own state, kept from draw to draw) moves
	// only as far as the pick needs
	d.top = min(d.top, d.pick)
	d.top = max(d.top, d.pick-shown+1)
	d.top = min(max(d.top, 0), max(len(rs)-shown, 0))
	for i := d.top; i < min(d.top+shown, len(rs)); i++ {
		mark := "  "
		if i == d.pick {
			mark = "▸ "
		}
		if d.unmatched(d.students[i].ID) {
			mark = mark[:len(mark)-1] + "?" // a student of no roster row
		}
		l := truncate(strings.TrimRight(line(mark, rs[i]), " "), w)
		if i == d.pick {
			l = views.OneLine(st.Accent, l)
		}
		out = append(out, l)
	}
	if over {
		above, below := d.top, len(rs)-min(d.top+shown, len(rs))
		var more []string
		if below > 0 {
			more = append(more, fmt.Sprintf("%d more below", below))
		}
		if above > 0 {
			more = append(more, fmt.Sprintf("%d more above", above))
		}
		out = append(out, truncate(views.OneLine(st.Dim, "  … "+strings.Join(more, ", ")+" · ↑/↓ pick · [ ] page"), w))
	}
	return clip(out, n)
}

// ago is the time from at to now, as the roster shows it: "" for never.
func ago(now, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return span(now.Sub(at))
}

// span is d in the roster's short form: "42s", "4m", "1h05".
func span(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%dh%02d", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// stepOf is where a position stands, as "5/9" (the learner's own moves
// counted in the total), "" for a scene without steps. The total is the
// story's length, which the core withholds at or before an open question
// (play.Disclosure.Drawn): "3/?", as the bar draws it, since the count of
// moves tells the stories of one question apart (release's blind DEL has
// a move fewer than its script).
func stepOf(p play.Position) string {
	sc := scenes.Find(p.Scene)
	if sc == nil || !sc.Stepped() {
		return ""
	}
	n, more := play.Disclose(p, play.Instructor).Drawn(len(sc.Script(scenes.Params(p.Settings)).Moves) + len(p.Own))
	if more {
		return fmt.Sprintf("%d/?", p.Step)
	}
	return fmt.Sprintf("%d/%d", p.Step, n)
}

// answerOf is a student's prediction and, once their run has made the
// move, what it answered: "predicted 2 · ran 2 ✓".
func answerOf(m class.Member) string {
	g := m.Pos.Prediction
	var s string
	switch {
	case g == nil:
		return ""
	case g.Chosen >= 0:
		s = fmt.Sprintf("predicted %d", g.Chosen+1)
	default:
		s = "no prediction"
	}
	if !m.Revealed {
		return s
	}
	if m.Actual < 0 {
		return s + " · ran: none of them"
	}
	s += fmt.Sprintf(" · ran %d", m.Actual+1)
	if g.Chosen >= 0 {
		s += map[bool]string{true: " ✓", false: " ✗"}[g.Chosen == m.Actual]
	}
	return s
}

// clip is the first n of lines.
func clip(lines []string, n int) []string { return lines[:min(len(lines), max(n, 0))] }

// deskPage is the instructor's class view as a page over the scene (l):
// ↑/↓ pick a student, enter shows their run, l goes back to the scene;
// the scene's keys (a step, the follow key) still act on the scene it
// stands beside.
type deskPage struct{ a *session }

func (p *deskPage) Init() tea.Cmd { return nil }

func (p *deskPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	a, c := p.a, p.a.cls
	// a one-time note goes with the next key: the scene's keys below
	// have it back, to clear as the scene does
	flash := a.pl.Flash
	a.pl.SetFlash("")
	switch {
	case key.Matches(k, a.com.Keys.Desk):
		return nil, nil
	case k.Type == tea.KeyUp || k.Type == tea.KeyDown:
		n := len(a.students())
		if k.Type == tea.KeyUp {
			c.pick = max(c.pick-1, 0)
		} else {
			c.pick = min(c.pick+1, max(n-1, 0))
		}
		return p, nil
	case k.String() == "H":
		a.toggleHold()
		return p, nil
	case key.Matches(k, summaryKey):
		return newSummaryPage(a, p), nil
	case key.Matches(k, pollKey):
		return newPollPage(c.board, p), nil
	case key.Matches(k, classKeysKey):
		// the class view's own keys, not the scene's beside it
		return newClassKeysPage(a, p), nil
	case key.Matches(k, rosterKey):
		if !c.part.Enrolled() {
			a.pl.SetFlash("the server has no school roster: its operator gives one with -roster FILE")
			return p, nil
		}
		return newRosterPage(a, p), nil
	case key.Matches(k, tabKey) && c.board.tabLink != nil:
		c.board.tab, c.board.tabLife = c.board.tabLink()
		switch {
		case c.board.tab != "":
		case c.board.projector == "":
			// the projector's link comes from the same web page: none
			// means the server serves none
			a.pl.SetFlash("no tab link: this server serves no web page (its operator adds -web)")
		default:
			a.pl.SetFlash("no tab link now: the server holds too many unused links; try in 2m")
		}
		return p, nil
	case key.Matches(k, watchKey):
		return p, p.watchPicked()
	case k.String() == "[" || k.String() == "]":
		// a page of the roster: the pick moves by the rows on screen
		n, page := len(a.students()), max(c.board.page, 1)
		if k.String() == "[" {
			c.pick = max(c.pick-page, 0)
		} else {
			c.pick = min(c.pick+page, max(n-1, 0))
		}
		return p, nil
	case k.Type == tea.KeyEnter:
		ss := a.students()
		if c.pick >= len(ss) {
			return p, nil
		}
		m := ss[c.pick]
		cmd := a.goTo(m.Pos, play.VisitRun)
		c.shown = m.Name
		what := "their seed, their moves, their prediction"
		if a.pl.Position().Prediction == nil {
			// at or before the question the room's question stays open
			what = "their seed and moves; the question is the room's"
		}
		a.pl.SetFlash("showing " + m.Name + "'s run: " + what + " · esc goes back to your own place")
		return nil, cmd
	}
	a.pl.SetFlash(flash)
	return p, a.sceneKey(k)
}

func (p *deskPage) View() string {
	a := p.a
	// a one-time note (a step the class view ran nothing for says why)
	// stands in for the help line until the next key, as on the scene
	if f := a.pl.Flash; f != "" {
		return a.cls.board.View() + "\n" + truncate(views.OneLine(a.com.Styles.Warn, strings.ReplaceAll(f, "\n", " ")), a.com.Width)
	}
	return a.cls.board.View() + "\n" + truncate(views.OneLine(a.com.Styles.Dim, views.HelpLine(p.KeyMap().ShortHelp())), a.com.Width)
}

func (p *deskPage) SetSize(w, h int) { p.a.cls.board.SetSize(w, h) }

// KeyMap is the class view's keys: esc first while a student's run is on
// screen (it goes back to the instructor's own place).
func (p *deskPage) KeyMap() help.KeyMap {
	a := p.a
	k := a.com.Keys
	pick := views.Bind("↑↓[]", "pick", "up", "down", "[", "]")
	show := views.Bind("enter", "their run", "enter")
	hold := views.Bind("H", "hold", "H")
	if a.cls.part.Holding() {
		hold.SetHelp("H", "release")
	}
	bs := []key.Binding{short(k.Step, "→", "step"), short(k.Back, "←", "back"), pick, show, watchKey,
		short(k.Follow, "F", "follow"), hold, summaryKey, classKeysKey, short(k.Desk, "l", "scene"), short(k.Quit, "q", "quit")}
	if a.cls.part.Enrolled() {
		bs = slices.Insert(bs, len(bs)-3, rosterKey)
	}
	if a.cls.board.tabLink != nil {
		bs = slices.Insert(bs, len(bs)-3, tabKey)
	}
	if a.course.Visiting() != play.NotVisiting {
		// a student's run on screen: esc goes back to the instructor's own
		bs = append([]key.Binding{views.Bind("esc", "your own place", "esc")}, bs...)
	}
	full := bs
	// a line too narrow for every key leaves out the step and the back
	// first: the scene's keys, which its help page lists; then the watch
	// key, the follow key (the class's line over the scene has it), the
	// school roster's (the roster's rule says it), the summary and the
	// hold, which ? lists (? itself stays: it is how to find the rest)
	for _, drop := range []string{"right", "left", "I", "W", "F", "m", "S", "H"} {
		if ansi.StringWidth(views.HelpLine(bs)) <= a.com.Width {
			break
		}
		bs = slices.DeleteFunc(slices.Clone(bs), func(b key.Binding) bool { return len(b.Keys()) > 0 && b.Keys()[0] == drop })
	}
	return keyList{short: bs, full: [][]key.Binding{full}}
}

// isDesk reports the class view's page, or the summary, the school
// roster, the keys page or the poll standing in for it.
func isDesk(c Component) bool {
	_, ok := c.(*deskPage)
	return ok || isSummary(c) || isRosterPage(c) || isClassKeys(c) || isPollPage(c)
}

func short(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
