package tui

import (
	"fmt"
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

	code, join string
	students   []class.Member
	pick       int
	lead       play.Position
	follow     bool
	notes      string
	now        time.Time
}

// newDesk is the class view of class code drawn with com; no size yet.
func newDesk(com *Common, code, join string) *Desk {
	return &Desk{com: com, code: code, join: join}
}

// SetSize sets the size View draws at, the help line's row included.
func (d *Desk) SetSize(w, h int) { d.w, d.h = w, h }

// sync hands the desk the class as it stands: its students (by name),
// the one picked, the instructor's place and whether the class is asked
// to follow, the speaker notes for it, and the time rows are judged
// online at.
func (d *Desk) sync(students []class.Member, pick int, lead play.Position, follow bool, notes string, now time.Time) {
	d.students, d.pick, d.lead, d.follow, d.notes, d.now = students, pick, lead, follow, notes, now
}

// View draws the class view at the size SetSize set, all but its last
// row, which the app fills with the desk's help line.
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
	head := st.Title.Render("class "+d.code) + " · " + fmt.Sprintf("%d online, %d following", online, following)
	if d.follow {
		head += " · the class is asked to follow"
	}
	lines := []string{truncate(head, w)}
	if d.join != "" {
		// the command whole on its line; a note on how sure it is under it
		cmd, note, _ := strings.Cut(d.join, " (")
		lines = append(lines, truncate(st.Dim.Render("students join with: "+cmd), w))
		if note != "" {
			lines = append(lines, truncate(st.Dim.Render("("+note), w))
		}
	}
	poll := d.pollLines()
	roster := d.rosterLines()
	notes := strings.Split(strings.TrimRight(d.notes, "\n"), "\n")
	rows := d.h - 1 - len(lines) - 3 // the help line and three rules
	// the poll first, then the roster, then the notes take what is left;
	// each keeps a few rows
	pollRows := min(len(poll), max(rows-8, 3))
	rosterRows := min(len(roster), max((rows-pollRows)/2, 3))
	notesRows := max(rows-pollRows-rosterRows, 0)
	lines = append(lines, views.Rule(st, "poll", w))
	lines = append(lines, clip(poll, pollRows)...)
	lines = append(lines, views.Rule(st, "roster", w))
	lines = append(lines, d.window(roster, rosterRows)...)
	lines = append(lines, views.Rule(st, "speaker notes", w))
	var wrapped []string
	for _, l := range notes {
		wrapped = append(wrapped, strings.Split(ansi.Wrap(l, w, ""), "\n")...)
	}
	lines = append(lines, clip(wrapped, notesRows)...)
	return fitRows(strings.Join(lines, "\n"), d.h-1)
}

// pollLines are the poll of the instructor's story: its question, the
// predictions as a histogram, and once the move has run, what each
// student's own run answered.
func (d *Desk) pollLines() []string {
	st, w := d.com.Styles, d.w
	if d.lead.Scene == "" {
		return []string{st.Dim.Render(truncate("you lead no scene yet: the poll opens with the scene you open", w))}
	}
	p, ok := class.Tally(d.lead, d.students, d.now)
	if !ok {
		return []string{st.Dim.Render(truncate("no question in "+d.lead.Scene+": nothing to poll", w))}
	}
	if p.State == class.Before {
		return []string{st.Dim.Render(truncate(fmt.Sprintf("%s asks its question before step %d: the poll opens when you get there", p.Scene, p.At+1), w))}
	}
	var out []string
	for _, l := range strings.Split(st.Wrap(p.Question, w, 2), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	head := p.Headline()
	if p.Elsewhere > 0 {
		head += fmt.Sprintf(" · %d elsewhere", p.Elsewhere)
	}
	out = append(out, truncate(st.Bold.Render(head), w))
	// a label keeps a third of the width, the bar and its count the rest
	lw := max(w/3, 20)
	var bars []views.Bar
	for i, c := range p.Choices {
		bars = append(bars, views.Bar{Label: fmt.Sprintf("%d %s", i+1, truncate(c, lw)), Count: p.Guesses[i]})
	}
	out = append(out, strings.Split(views.Histogram(st, bars, w), "\n")...)
	if p.State == class.Open {
		if waiting := p.WaitingLine(w); waiting != "" {
			out = append(out, waiting)
		}
		return append(out, st.Dim.Render(truncate("the question is open · → runs the move in every follower's own run", w)))
	}
	out = append(out, truncate(fmt.Sprintf("their own runs answered (%d of %d have run it):", p.Ran, p.Of), w))
	bars = nil
	for i, c := range p.Choices {
		bars = append(bars, views.Bar{Label: fmt.Sprintf("%d %s", i+1, truncate(c, lw)), Count: p.Actual[i], Tone: views.Good})
	}
	if p.NoneTrue > 0 {
		bars = append(bars, views.Bar{Label: "  none of these", Count: p.NoneTrue, Tone: views.Bad})
	}
	return append(out, strings.Split(views.Histogram(st, bars, w), "\n")...)
}

// rosterLines are one row per student: name, scene, step, following or
// offline, prediction and what their run answered.
func (d *Desk) rosterLines() []string {
	st, w := d.com.Styles, d.w
	if len(d.students) == 0 {
		return []string{st.Dim.Render("no student has joined yet")}
	}
	var out []string
	for i, m := range d.students {
		mark := "  "
		if i == d.pick {
			mark = "▸ "
		}
		state := ""
		switch {
		case !m.Here(d.now):
			state = "offline"
		case m.Following:
			state = "following"
		}
		where, step := m.Pos.Scene, stepOf(m.Pos)
		if m.OnContents {
			where, step = "contents", ""
		}
		row := fmt.Sprintf("%s%-12s %-11s %-7s %-9s %s", mark, truncate(m.Name, 12), where, step, state, answerOf(m))
		if i == d.pick {
			row = st.Accent.Render(truncate(row, w))
		}
		out = append(out, truncate(row, w))
	}
	return out
}

// window is the roster's rows that fit in n, the picked one among them.
func (d *Desk) window(rows []string, n int) []string {
	if len(rows) <= n {
		return rows
	}
	from := min(max(d.pick-n/2, 0), len(rows)-n)
	return rows[from : from+n]
}

// stepOf is where a position stands, as "5/9" (the learner's own moves
// counted in the total), "" for a scene without steps.
func stepOf(p play.Position) string {
	sc := scenes.Find(p.Scene)
	if sc == nil || !sc.Stepped() {
		return ""
	}
	return fmt.Sprintf("%d/%d", p.Step, len(sc.Script(scenes.Params(p.Settings)).Moves)+len(p.Own))
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
	return p, a.sceneKey(k)
}

func (p *deskPage) View() string {
	a := p.a
	return a.cls.board.View() + "\n" + truncate(a.com.Styles.Dim.Render(views.HelpLine(p.KeyMap().ShortHelp())), a.com.Width)
}

func (p *deskPage) SetSize(w, h int) { p.a.cls.board.SetSize(w, h) }

// KeyMap is the class view's keys: esc first while a student's run is on
// screen (it goes back to the instructor's own place).
func (p *deskPage) KeyMap() help.KeyMap {
	a := p.a
	k := a.com.Keys
	pick := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "pick"))
	show := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show their run"))
	bs := []key.Binding{short(k.Step, "→", "step"), short(k.Back, "←", "back"), pick, show,
		short(k.Follow, "F", "follow"), short(k.Desk, "l", "scene"), short(k.Quit, "q", "quit")}
	if a.course.Visiting() != play.NotVisiting {
		// a student's run on screen: esc goes back to the instructor's own
		bs = append([]key.Binding{key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "your own place"))}, bs...)
	}
	return keyList{short: bs, full: [][]key.Binding{bs}}
}

// isDesk reports the class view's page.
func isDesk(c Component) bool {
	_, ok := c.(*deskPage)
	return ok
}

func short(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}
