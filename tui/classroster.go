package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/class"
	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// rosterKey opens the school's roster from the class view (m): every row,
// who has not joined, and the picked student's match by hand.
var rosterKey = views.Bind("m", "roster", "m")

// rosterTitle is the roster rule's label: with a school roster, how many
// of its rows have not joined and how many students match no row, and
// the key that lists them whole.
func (d *Desk) rosterTitle() string {
	if d.enrol == nil {
		return "roster"
	}
	return fmt.Sprintf("roster · %d not joined · %d with no row · m lists them", len(d.enrol.Missing), len(d.enrol.Unmatched))
}

// unmatched reports a student of no school roster row.
func (d *Desk) unmatched(id string) bool {
	if d.enrol == nil {
		return false
	}
	_, tied := d.enrol.Row[id]
	return !tied
}

// enrolLines are the school roster's lines of the class view: the rows
// that have not joined, and the students of no row, each on one line
// saying how many it leaves out.
func (d *Desk) enrolLines() []string {
	st, w := d.com.Styles, d.w
	var missing, unmatched []string
	for _, r := range d.enrol.Missing {
		missing = append(missing, r.Name)
	}
	for _, m := range d.enrol.Unmatched {
		unmatched = append(unmatched, m.Name)
	}
	var out []string
	if len(unmatched) > 0 {
		out = append(out, nameList(fmt.Sprintf("? no row (%d): ", len(unmatched)), unmatched, " · ↑↓ pick one, m matches", w))
	}
	if len(missing) > 0 {
		out = append(out, st.Dim.Render(nameList(fmt.Sprintf("not joined (%d): ", len(missing)), missing, "", w)))
	}
	if len(out) == 0 {
		out = append(out, st.Dim.Render(truncate("every roster row has joined, and every student has a row", w)))
	}
	return out
}

// nameList is head, then as many of names as fit in w columns with tail
// after them, and "+N more" for the rest.
func nameList(head string, names []string, tail string, w int) string {
	line := head
	for i, n := range names {
		next := line
		if i > 0 {
			next += ", "
		}
		next += n
		rest := ""
		if left := len(names) - i - 1; left > 0 {
			rest = fmt.Sprintf(", +%d more", left)
		}
		if w > 0 && ansi.StringWidth(next+rest+tail) > w {
			if i == 0 {
				return truncate(head+fmt.Sprintf("%d names", len(names))+tail, w)
			}
			return truncate(line+fmt.Sprintf(", +%d more", len(names)-i)+tail, w)
		}
		line = next
	}
	return truncate(line+tail, w)
}

// rosterPage is the school's roster over the class view (m): the students
// of no row, then every row (those not joined first), each with who it
// is tied to and how. With a picked student not tied by their key, enter
// matches them to the row under the cursor (or to no row, which unties a
// name's tie too): the class (class.Part.Match) keeps it in the class
// store. The cursor goes up the students of no row too (however many,
// the top of their list is on screen), and enter on one picks them to
// match instead. It scrolls; the class view's state is untouched. It is a stand-in
// page (its keys m/esc, l, q and its scrolling are standin's) with a
// cursor and enter on top.
type rosterPage struct {
	standin
	a *session
	// id is the student to match ("" for none), name theirs, why what
	// says they cannot be matched
	id, name, why string
	// cur is the cursor among the page's choices
	cur int
	// memo is the page's lines as last worked out (every key and every
	// View wants them, a few hundred rows of a large class)
	memo rosterMemo
}

// rosterMemo is the roster page's lines and choices, each line as View
// draws it off the cursor, and what they were worked out from: the
// enrolment (as of the class's version, class.Part.Version), the student
// to match (enter on another student of no row picks them), the width
// and the renderer. The student's name is no part of it: it is set with
// their id, and a page's id names one student (enter on the student
// being matched keeps their name).
type rosterMemo struct {
	version uint64
	id      string
	at      glossaryAt
	lines   []string
	cs      []choice
	shown   []string
}

func newRosterPage(a *session, back Component) *rosterPage {
	p := &rosterPage{standin: standin{com: a.com, back: back, open: rosterKey}, a: a}
	ss := a.students()
	if c := a.cls; c.pick < len(ss) {
		m := ss[c.pick]
		p.id, p.name = m.ID, m.Name
		if why, ok := c.part.Matchable(m.ID); !ok {
			p.id, p.why = "", why
		}
	}
	p.cur = p.firstRow()
	return p
}

// firstRow is the first choice that is a row (or no row), not a student:
// where the cursor starts, on the page opened and on a student picked on
// it.
func (p *rosterPage) firstRow() int {
	_, cs := p.lines()
	return max(slices.IndexFunc(cs, func(c choice) bool { return c.who == "" }), 0)
}

var (
	// rosterMove is standinMove named for the cursor's rows (↑↓ a row,
	// [] a page); with no student to match the keys only scroll, and the
	// page offers standinMove
	rosterMove  = views.Bind("↑↓[]", "row", "up", "down", "[", "]")
	rosterMatch = views.Bind("enter", "match", "enter")
	// rosterPick is enter on another student of no row: they are the one
	// to match instead
	rosterPick = views.Bind("enter", "pick", "enter")
)

// rosterMatching marks the student of no row being matched on the
// roster's page, in the column the other students of no row have "? ".
const rosterMatching = "◆ "

// choice is one row the cursor can stand on: a roster row's Ref, or
// class.NoRow for no row; or, with a student to match, a student of no
// row (who, their id, and name), whom enter picks to match instead, so
// that the cursor reaches the top of that list however long it is.
type choice struct {
	ref       string
	who, name string
	line      int // its line among the page's lines
}

func (p *rosterPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	if next, cmd, done := p.sharedKey(p, k); done {
		return next, cmd
	}
	if p.id == "" {
		p.scroll(k, p.rows) // nothing to match: the keys scroll the page, as the other stand-ins'
		return p, nil
	}
	lines, choices := p.lines()
	switch step, ok := rowStep(k, 1); {
	case ok && (k.String() == "[" || k.String() == "]"):
		p.page(step, len(lines), choices)
	case ok:
		p.cur += step // the cursor moves a row; View keeps it on screen
	}
	if key.Matches(k, rosterMatch) && len(choices) > 0 {
		p.cur = min(max(p.cur, 0), len(choices)-1)
		if c := choices[p.cur]; c.who != "" {
			// a student of no row: they are the one to match now, and the
			// cursor goes to the first row, as when m opens the page
			if _, ok := p.a.cls.part.Matchable(c.who); ok && c.who != p.id {
				p.id, p.name = c.who, c.name
				p.cur = p.firstRow()
			}
			return p, nil
		}
		note := p.a.cls.part.Match(p.id, choices[p.cur].ref)
		p.a.pl.SetFlash(note) // the class view's help line says it until the next key
		return p.back, nil
	}
	p.cur = min(max(p.cur, 0), max(len(choices)-1, 0))
	return p, nil
}

// page is [ (dir -1) or ] (dir 1) with a student to match, of n lines:
// the screen moves a whole page, as the other stand-ins' do (from the
// last page on screen to the next, none skipped and none shown twice, or
// as far as the first or last page goes), and the cursor keeps its row on
// it: it goes to the choice on the new screen nearest the row it stood
// on, so at the last page ] takes it to the last choice and at the first
// [ to the first on screen.
func (p *rosterPage) page(dir, n int, cs []choice) {
	if len(cs) == 0 {
		return
	}
	rows := max(p.rows, 1)
	p.cur = min(max(p.cur, 0), len(cs)-1)
	top := min(max(p.top+dir*rows, 0), max(n-rows, 0))
	want := min(max(cs[p.cur].line+dir*rows, top), top+rows-1)
	// the nearest choice to want, one on screen before any off it (were
	// a screen to hold rules alone),
	// and of two as near the one further in dir
	off := func(c choice) int {
		if c.line < top || c.line >= top+rows {
			return 1
		}
		return 0
	}
	best := 0
	for i, c := range cs {
		b := cs[best]
		d, bd := lineDist(c.line, want), lineDist(b.line, want)
		if o, bo := off(c), off(b); o != bo {
			if o < bo {
				best = i
			}
			continue
		}
		if d < bd || d == bd && dir > 0 && c.line > b.line {
			best = i
		}
	}
	p.top, p.cur = top, best
}

// lineDist is how many lines apart lines a and b are.
func lineDist(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// KeyMap is the page's keys: with a student to match, ↑↓[] move the
// cursor's row and enter matches (on another student of no row, picks
// them; on the one to match, does nothing); else they only scroll, and
// say so.
func (p *rosterPage) KeyMap() help.KeyMap {
	_, cs := p.lines()
	return p.keyMapAt(cs)
}

// keyMapAt is KeyMap with the page's choices cs as lines gives them (View
// works them out once for its lines, the cursor and its keys).
func (p *rosterPage) keyMapAt(cs []choice) help.KeyMap {
	if p.id != "" {
		switch c, _ := choiceAt(cs, p.cur); {
		case c.who == p.id:
			return p.keyMap(rosterMove)
		case c.who != "":
			return p.keyMap(rosterMove, rosterPick)
		}
		return p.keyMap(rosterMove, rosterMatch)
	}
	return p.keyMap(standinMove)
}

// lines are the page's lines w columns wide, and the choices among them:
// the memo's, worked out again when what they are drawn from changed.
// They are shared: not to be changed.
func (p *rosterPage) lines() ([]string, []choice) {
	part := p.a.cls.part
	at := glossaryAt{p.a.com.Width, p.a.com.Styles.R, ""}
	m := &p.memo
	if m.lines == nil || m.version != part.Version() || m.id != p.id || m.at != at {
		e, _ := part.Enrolment()
		lines, cs := p.drawLines(e)
		*m = rosterMemo{version: part.Version(), id: p.id, at: at, lines: lines, cs: cs}
	}
	return m.lines, m.cs
}

// drawLines works out lines from the enrolment e.
func (p *rosterPage) drawLines(e class.Enrolment) ([]string, []choice) {
	a := p.a
	st, w := a.com.Styles, a.com.Width
	var out []string
	var cs []choice
	out = append(out, views.Rule(st, fmt.Sprintf("students with no row (%d)", len(e.Unmatched)), w))
	if len(e.Unmatched) == 0 {
		out = append(out, st.Dim.Render("none: every student is tied to a row"))
	}
	for _, m := range e.Unmatched {
		if p.id != "" {
			cs = append(cs, choice{who: m.ID, name: m.Name, line: len(out)})
		}
		// "? ", never the cursor's column blank: a name is the student's
		// to choose, and one that starts "▸ line" must not pass for it;
		// the student being matched is "◆ " there, wherever the cursor is
		mark, to := "? ", ""
		if m.ID == p.id {
			mark, to = rosterMatching, " · to match"
		}
		out = append(out, truncate(mark+m.Name+st.Dim.Render(" · "+idOf(m.ID)+to), w))
	}
	if how := e.How[p.id]; p.id != "" && (how == class.TieHand || how == class.TieName) {
		// a name's tie is undone too: the name may be a classmate's
		out = append(out, views.Rule(st, "undo", w))
		cs = append(cs, choice{ref: class.NoRow, line: len(out)})
		out = append(out, "no row: "+p.name+" matches no roster row")
	}
	row := func(i int) string {
		r := e.Rows[i]
		s := fmt.Sprintf("line %-3d %s", r.Line, r.Name)
		if r.Label != "" {
			s += st.Dim.Render(" · " + r.Label)
		}
		var tied []string
		for _, m := range e.ByRow[i] {
			tied = append(tied, m.Name+" ("+map[class.Tie]string{class.TieKey: "key", class.TieName: "name", class.TieHand: "by hand"}[e.How[m.ID]]+")")
		}
		if len(tied) > 0 {
			s += " · " + strings.Join(tied, ", ")
		}
		return s
	}
	var joined []int
	out = append(out, views.Rule(st, fmt.Sprintf("not joined (%d)", len(e.Missing)), w))
	for i := range e.Rows {
		if len(e.ByRow[i]) > 0 {
			joined = append(joined, i)
			continue
		}
		cs = append(cs, choice{ref: e.Rows[i].Ref, line: len(out)})
		out = append(out, row(i))
	}
	out = append(out, views.Rule(st, fmt.Sprintf("joined (%d)", len(joined)), w))
	for _, i := range joined {
		cs = append(cs, choice{ref: e.Rows[i].Ref, line: len(out)})
		out = append(out, row(i))
	}
	return out, cs
}

// View is the page's title, as many of its lines as fit around the
// cursor with a line saying how many more there are, and the help line.
func (p *rosterPage) View() string {
	a := p.a
	st, w, h := a.com.Styles, a.com.Width, a.com.Height
	e, _ := a.cls.part.Enrolment()
	title := st.Title.Render("class "+a.cls.part.Code()) + fmt.Sprintf(" · school roster: %d rows, %d not joined", len(e.Rows), len(e.Missing))
	var say string
	all, cs := p.lines()
	c, _ := choiceAt(cs, p.cur)
	switch {
	case p.id != "" && c.who == p.id:
		say = st.Accent.Render("▸ is " + p.name + ", the student to match: ↓ to their row, then enter")
	case p.id != "" && c.who != "":
		say = st.Accent.Render("enter: pick " + c.name + " to match, not " + p.name)
	case p.id != "":
		say = st.Accent.Render("match " + p.name + " to the row under ▸: enter")
	case p.why != "":
		say = st.Dim.Render(p.name + ": " + p.why)
	default:
		say = st.Dim.Render("pick a student in the class view, then m, to match them")
	}
	cur := -1
	if p.id != "" && len(cs) > 0 {
		p.cur = min(max(p.cur, 0), len(cs)-1)
		cur = cs[p.cur].line
	}
	// each line off the cursor as drawn, once for the lines (the memo)
	if m := &p.memo; m.shown == nil {
		m.shown = make([]string, len(all))
		for i, l := range all {
			if plain := ansi.Strip(l); !strings.HasPrefix(plain, "──") && !strings.HasPrefix(plain, "? ") && !strings.HasPrefix(plain, rosterMatching) {
				l = "  " + l
			}
			m.shown[i] = truncate(l, w)
		}
	}
	lines := slices.Clone(p.memo.shown)
	if cur >= 0 {
		lines[cur] = truncate(st.Accent.Render("▸ "+ansi.Strip(all[cur])), w)
	}
	return p.frame(truncate(title, w)+"\n"+truncate(say, w), lines, true, cur, w, h, p.keyMapAt(cs))
}

// at is the choice under the cursor (ok false for none).
func (p *rosterPage) at() (c choice, ok bool) {
	_, cs := p.lines()
	return choiceAt(cs, p.cur)
}

// choiceAt is the choice of cs under cursor cur (ok false for none).
func choiceAt(cs []choice, cur int) (c choice, ok bool) {
	if len(cs) == 0 {
		return choice{}, false
	}
	return cs[min(max(cur, 0), len(cs)-1)], true
}

// idOf is the start of a member's id, as the gradebook's notes name it.
func idOf(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// isRosterPage reports the school roster's page.
func isRosterPage(c Component) bool {
	_, ok := c.(*rosterPage)
	return ok
}
