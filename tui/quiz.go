package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/lipgloss"
)

func (p *Player) quizMarks() []views.QuizMark {
	q := p.quizState()
	out := make([]views.QuizMark, len(q.items))
	for i, s := range q.items {
		switch {
		case q.answers[i] >= 0 && scenes.Class(q.answers[i]) == s.Class:
			out[i] = views.Right
		case q.answers[i] >= 0:
			out[i] = views.Wrong
		case p.keyShown(i):
			out[i] = views.Shown
		}
	}
	return out
}

// quizView draws a quiz under the header: the situation on screen (or the
// score, or the speaker notes), the strip of answers and the help line.
// No scoreboard: a quiz puts no lock property to the test.
func (p *Player) quizView(st views.Styles, w, h int, header, helpLine string) string {
	q := p.quizState()
	rows := max(h-3, 0)
	var body []string
	switch {
	case p.notes:
		body = append([]string{views.Rule(st, "speaker notes · N hides them", w)}, wrapped(p.text.Get("notes"), w, rows-1)...)
	case q.at >= len(q.items):
		body = p.scorePage(st, w, rows)
	default:
		body = p.situationPage(st, w, rows)
	}
	right, answered := scenes.Grade(q.items, q.answers)
	note := fmt.Sprintf("%d right of %d answered", right, answered)
	switch {
	case p.flash != "":
		note = st.Warn.Render(p.flash)
	case p.err != "":
		note = st.Bad.Render("error: " + p.err)
	}
	strip := views.QuizStrip(st, p.quizMarks(), q.at, note, w)
	return header + "\n" + fitRows(strings.Join(body, "\n"), rows) + "\n" + strip + "\n" + helpLine
}

// situationPage is one situation: what happens, the assumption that
// decides it, the question, and once answered the verdict, the tool that
// fits and why; before that, how to answer and the hints asked for.
func (p *Player) situationPage(st views.Styles, w, rows int) []string {
	q := p.quizState()
	s := q.items[q.at]
	lines := []string{views.Rule(st, fmt.Sprintf("situation %d of %d · %s", q.at+1, len(q.items), s.Name), w)}
	lines = append(lines, wrapped(s.Text, w, 4)...)
	lines = append(lines, wrapped(st.Bold.Render("assumes: ")+s.Assumption, w, 4)...)
	lines = append(lines, "")
	lines = append(lines, wrapped(st.Bold.Render(p.text.Get("predict")), w, 2)...)
	for i, c := range p.choices() {
		mark := "  "
		if q.answers[q.at] == i {
			mark = "▸ "
		}
		keys := [...]string{"e/1", "c/2"}[min(i, 1)]
		lines = append(lines, truncate(mark+st.Key.Render(keys)+") "+c, w))
	}
	lines = append(lines, views.Rule(st, "verdict", w))
	if !p.keyShown(q.at) {
		lines = append(lines, wrapped(st.Dim.Render(p.text.Get("start")), w, 3)...)
		for i := 1; i <= p.hints; i++ {
			lines = append(lines, wrapped("hint: "+p.text.Get("hint-"+itoa(int64(i))), w, 3)...)
		}
		return lines
	}
	vars := map[string]string{"class": p.text.Get("class-" + s.Class.String())}
	verdict := st.Accent.Render(p.text.Fill("verdict-shown", vars))
	if a := q.answers[q.at]; a >= 0 {
		vars["chosen"] = p.text.Get("class-" + scenes.Class(a).String())
		verdict = st.Good.Render(p.text.Fill("verdict-right", vars))
		if scenes.Class(a) != s.Class {
			verdict = st.Bad.Render(p.text.Fill("verdict-wrong", vars))
		}
	}
	lines = append(lines, truncate(verdict, w))
	lines = append(lines, wrapped(st.Bold.Render("tool: ")+p.text.Get("tool-"+s.Tool), w, 3)...)
	return append(lines, wrapped(st.Bold.Render("why: ")+s.Why, w, max(rows-len(lines), 1))...)
}

// scorePage is the score, one row per situation (its mark, the key and the
// tool that fits; the key of a situation not yet answered stays hidden),
// and the recap.
func (p *Player) scorePage(st views.Styles, w, rows int) []string {
	q := p.quizState()
	right, answered := scenes.Grade(q.items, q.answers)
	of := len(q.items)
	vars := map[string]string{"right": itoa(int64(right)), "answered": itoa(int64(answered)), "of": itoa(int64(of))}
	verdict := st.Bold.Render(p.text.Fill("score-done", vars))
	if answered < of {
		verdict = p.text.Fill("score-partial", vars)
		if slices.Contains(q.shown, true) || !p.quiz {
			verdict = p.text.Get("score-shown")
		}
	}
	lines := []string{views.Rule(st, p.text.Get("score-title"), w)}
	lines = append(lines, wrapped(verdict, w, 2)...)
	lines = append(lines, "", st.Dim.Render(truncate(fmt.Sprintf("%s %2s  %-30s %-13s %s", " ", "", "situation", "the key", "the tool that fits"), w)))
	marks := p.quizMarks()
	for i, s := range q.items {
		key, tool := "—", ""
		if p.keyShown(i) {
			key, tool = s.Class.String(), p.text.Get("short-"+s.Tool)
		}
		glyph := views.QuizGlyphs[marks[i]]
		lines = append(lines, truncate(fmt.Sprintf("%s %2d  %-30s %-13s %s", glyph, i+1, s.Name, key, tool), w))
	}
	lines = append(lines, "")
	return append(lines, wrapped(p.text.Get("recap"), w, max(rows-len(lines), 1))...)
}

// wrapped is s wrapped to w columns, in at most rows lines (the last one
// cut with … if it needs more), with no empty lines after it.
func wrapped(s string, w, rows int) []string {
	n := strings.Count(lipgloss.NewStyle().Width(max(w, 1)).Render(s), "\n") + 1
	return strings.Split(views.Wrap(s, w, min(n, max(rows, 1))), "\n")
}
