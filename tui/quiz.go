package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/scenes"
	"locksim/shown"
	"locksim/views"
)

func (p *Quiz) quizMarks() []views.QuizMark {
	q := p.OpenQuiz()
	out := make([]views.QuizMark, len(q.Items))
	for i, s := range q.Items {
		switch {
		case q.Answers[i] >= 0 && scenes.Class(q.Answers[i]) == s.Class:
			out[i] = views.Right
		case q.Answers[i] >= 0:
			out[i] = views.Wrong
		case p.KeyShown(i):
			out[i] = views.Shown
		}
	}
	return out
}

// Quiz is the quiz page: the quiz session its player runs, drawn one
// situation at a time.
type Quiz struct {
	*Player
	com  *Common
	w, h int
}

// newQuiz is the page of the quiz p runs, with p's Common; no size yet.
func newQuiz(p *Player) *Quiz { return &Quiz{Player: p, com: p.com} }

// SetSize sets the size View draws at, the help line's row included.
func (q *Quiz) SetSize(w, h int) { q.w, q.h = w, h }

// View draws the quiz under the header: the situation on screen (or the
// score, or the speaker notes) and the strip of answers; the app puts the
// help line under it. No scoreboard: a quiz puts no lock property to the
// test.
func (p *Quiz) View() string {
	st, w, h := p.com.Styles, p.w, p.h
	header := p.header(st, w)
	q := p.OpenQuiz()
	rows := max(h-3, 0)
	var body []string
	switch {
	case p.notes:
		body = append([]string{views.Rule(st, "speaker notes · N hides them", w)}, wrapped(st, p.Notes(p.role), w, rows-1)...)
	case q.At >= len(q.Items):
		body = p.scorePage(st, w, rows)
	default:
		body = p.situationPage(st, w, rows)
	}
	right, answered := scenes.Grade(q.Items, q.Answers)
	note := fmt.Sprintf("%d right of %d answered", right, answered)
	if q.At < len(q.Items) && p.KeyShown(q.At) && !p.notes {
		// answered: the way on, which the help line leaves out at 80
		// columns (→ gives way to the answers' keys)
		next := "next situation"
		if q.At == len(q.Items)-1 {
			next = "the score"
		}
		note += " · → " + next
	}
	switch {
	case p.Flash != "":
		note = st.Warn.Render(strings.ReplaceAll(p.Flash, "\n", " ")) // the strip is one line
	case p.Err != "":
		note = st.Bad.Render("error: " + shown.Text(p.Err))
	}
	strip := views.QuizStrip(st, p.quizMarks(), q.At, note, w)
	return header + "\n" + fitRows(strings.Join(body, "\n"), rows) + "\n" + strip
}

// situationPage is one situation: what happens, the assumption that
// decides it, the question, and once answered the verdict, the tool that
// fits and why; before that, how to answer and the hints asked for.
func (p *Quiz) situationPage(st views.Styles, w, rows int) []string {
	q := p.OpenQuiz()
	s := q.Items[q.At]
	lines := []string{views.Rule(st, fmt.Sprintf("situation %d of %d · %s", q.At+1, len(q.Items), s.Name), w)}
	lines = append(lines, wrapped(st, s.Text, w, 4)...)
	lines = append(lines, wrapped(st, st.Bold.Render("assumes: ")+s.Assumption, w, 4)...)
	lines = append(lines, "")
	lines = append(lines, wrapped(st, st.Bold.Render(p.Question("predict")), w, 2)...)
	for i, c := range p.Choices() {
		mark := "  "
		if q.Answers[q.At] == i {
			mark = "▸ "
		}
		keys := [...]string{"e/1", "c/2"}[min(i, 1)]
		lines = append(lines, truncate(mark+st.Key.Render(keys)+") "+c, w))
	}
	lines = append(lines, views.Rule(st, "verdict", w))
	if !p.KeyShown(q.At) {
		lines = append(lines, wrapped(st, st.Dim.Render(p.Text.Get("start")), w, 3)...)
		for i := 1; i <= p.Hints; i++ {
			lines = append(lines, wrapped(st, "hint: "+p.Question("hint-"+itoa(int64(i))), w, 3)...)
		}
		return lines
	}
	vars := map[string]string{"class": p.Text.Get("class-" + s.Class.String())}
	verdict := st.Accent.Render(p.Text.Fill("verdict-shown", vars))
	if a := q.Answers[q.At]; a >= 0 {
		vars["chosen"] = p.Text.Get("class-" + scenes.Class(a).String())
		verdict = st.Good.Render(p.Text.Fill("verdict-right", vars))
		if scenes.Class(a) != s.Class {
			verdict = st.Bad.Render(p.Text.Fill("verdict-wrong", vars))
		}
	}
	lines = append(lines, truncate(verdict, w))
	lines = append(lines, wrapped(st, st.Bold.Render("tool: ")+p.Text.Get("tool-"+s.Tool), w, 3)...)
	return append(lines, wrapped(st, st.Bold.Render("why: ")+s.Why, w, max(rows-len(lines), 1))...)
}

// scorePage is the score, one row per situation (its mark, the key and the
// tool that fits; the key of a situation not yet answered stays hidden),
// and the recap.
func (p *Quiz) scorePage(st views.Styles, w, rows int) []string {
	q := p.OpenQuiz()
	right, answered := scenes.Grade(q.Items, q.Answers)
	of := len(q.Items)
	vars := map[string]string{"right": itoa(int64(right)), "answered": itoa(int64(answered)), "of": itoa(int64(of))}
	verdict := st.Bold.Render(p.Text.Fill("score-done", vars))
	if answered < of {
		verdict = p.Text.Fill("score-partial", vars)
		if slices.Contains(q.Shown, true) || !p.Predict {
			verdict = p.Text.Get("score-shown")
		}
	}
	lines := []string{views.Rule(st, p.Text.Get("score-title"), w)}
	lines = append(lines, wrapped(st, verdict, w, 2)...)
	lines = append(lines, "", st.Dim.Render(truncate(fmt.Sprintf("%s %2s  %-30s %-13s %s", " ", "", "situation", "the key", "the tool that fits"), w)))
	marks := p.quizMarks()
	for i, s := range q.Items {
		key, tool := "—", ""
		if p.KeyShown(i) {
			key, tool = s.Class.String(), p.Text.Get("short-"+s.Tool)
		}
		glyph := views.QuizGlyphs()[marks[i]]
		lines = append(lines, truncate(fmt.Sprintf("%s %2d  %-30s %-13s %s", glyph, i+1, s.Name, key, tool), w))
	}
	lines = append(lines, "")
	return append(lines, wrapped(st, p.Text.Get("recap"), w, max(rows-len(lines), 1))...)
}

// wrapped is s wrapped to w columns, in at most rows lines (the last one
// cut with … if it needs more), with no empty lines after it.
func wrapped(st views.Styles, s string, w, rows int) []string {
	n := views.Rows(s, max(w, 1))
	return strings.Split(st.Wrap(s, w, min(n, max(rows, 1))), "\n")
}
