package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/class"
	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

var summaryKey = views.Bind("S", "summary", "S")

// newSummaryPage is the instructor's summary of the class, for the end
// of a lesson (S in the class view, which it stands in for): per
// student the scenes finished, the predictions that came true of those
// given, the quizzes and the time in the class; per question the class's
// answers and how many came true. It is the instructor's only: it says
// which answers came true, which a student must never see before
// answering.
func newSummaryPage(a *session, back Component) *standinPage {
	// its title and lines as last worked out, and what from: the class's
	// version (class.Part.Version), the width and the renderer
	var memo struct {
		version      uint64
		at           glossaryAt
		title        string
		lines        []string
		workedOutYet bool
	}
	return &standinPage{standin: standin{com: a.com, back: back, open: summaryKey}, scrolls: true, size: sessionSize(a.com),
		body: func(w int) (string, []string) {
			at, version := glossaryAt{w, a.com.Styles.R, ""}, a.cls.part.Version()
			if !memo.workedOutYet || memo.version != version || memo.at != at {
				ss := a.students()
				memo.title = truncate(a.com.Styles.Title.Render("class "+a.cls.part.Code())+" · summary of "+students(len(ss)), w)
				memo.lines, memo.version, memo.at, memo.workedOutYet = summaryLines(a, ss, w), version, at, true
			}
			// a copy: frame appends its scroll line to the rows it shows
			return memo.title, slices.Clone(memo.lines)
		}}
}

// students is n students as a title says it.
func students(n int) string {
	if n == 1 {
		return "1 student"
	}
	return fmt.Sprintf("%d students", n)
}

// summaryLines are the summary's lines w columns wide: the students'
// table, then the class's answers to each question some student answered.
func summaryLines(a *session, ss []class.Member, w int) []string {
	st := a.com.Styles
	out := []string{views.Rule(st, "students", w)}
	type row struct{ name, done, right, notRun, quiz, time string }
	rs := []row{{"name", "finished", "came true", "not run", "quiz", "time"}}
	of := len(scenes.All())
	for _, m := range ss {
		s := class.Summarize(m)
		// came true of those whose run made the move; a prediction whose
		// move has not run is neither true nor false: not run says how many
		r := row{name: m.Name, done: fmt.Sprintf("%d/%d", s.Finished, of), right: fmt.Sprintf("%d of %d", s.Right, s.Ran), time: span(m.Spent)}
		if n := s.NotRun(); n > 0 {
			r.notRun = fmt.Sprint(n)
		}
		if s.QuizOf > 0 {
			r.quiz = fmt.Sprintf("%d/%d", s.QuizRight, s.QuizOf)
		}
		if len(s.Levels) > 0 {
			r.quiz += fmt.Sprintf(" · lab %d", len(s.Levels))
		}
		rs = append(rs, r)
	}
	nameW := 0
	for _, r := range rs {
		nameW = max(nameW, ansi.StringWidth(r.name))
	}
	// the name takes what the other columns (49) leave
	nameW = min(nameW, max(w-49, 8))
	cell := func(s string, n int) string {
		s = truncate(s, n)
		return s + strings.Repeat(" ", max(n-ansi.StringWidth(s), 0))
	}
	for i, r := range rs {
		l := truncate(strings.TrimRight(cell(r.name, nameW)+" "+cell(r.done, 8)+" "+cell(r.right, 9)+" "+cell(r.notRun, 7)+" "+cell(r.time, 6)+" "+r.quiz, " "), w)
		if i == 0 {
			l = st.Dim.Render(l)
		}
		out = append(out, l)
	}
	if len(ss) == 0 {
		out = append(out, st.Dim.Render("no student has joined"))
	}
	qs := a.cls.part.AskedOfStudents() // of ss, the class's students
	out = append(out, views.Rule(st, "questions", w))
	if len(qs) == 0 {
		out = append(out, st.Dim.Render(truncate("no student has answered a question yet", w)))
	}
	for _, q := range qs {
		out = append(out, truncate(st.Bold.Render(q.Q.Label()), w))
		for _, l := range strings.Split(st.Wrap(q.Question, w, 3), "\n") {
			if strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
		if tooLongForBars(q.Choices, w) {
			// a choice too long to label its bar: each whole, its count
			// at the end of its row, as the class view's poll has them
			out = append(out, choicesWhole(st, q.Choices, q.Chosen, w)...)
		} else {
			var bars []views.Bar
			for i, c := range q.Choices {
				bars = append(bars, views.Bar{Label: fmt.Sprintf("%d %s", i+1, c), Count: q.Chosen[i]})
			}
			out = append(out, strings.Split(views.Histogram(st, bars, w), "\n")...)
		}
		// of the runs that made the move: one that has not is neither
		// true nor false
		line := fmt.Sprintf("%d of %d predictions came true in the student's own run", q.Right, q.Ran)
		switch n := q.NotRun(); {
		case q.Ran == 0:
			line = fmt.Sprintf("no run has made the move yet: %d not yet run, neither true nor false", n)
		case n > 0:
			line += fmt.Sprintf(" · %d not yet run, neither true nor false", n)
		}
		if q.Blind > 0 {
			line += fmt.Sprintf(" · %d blind (given out of follow)", q.Blind)
		}
		for _, l := range strings.Split(st.Wrap(line, w, 2), "\n") {
			if strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
		out = append(out, "")
	}
	return out
}

// isSummary reports the class's summary page.
func isSummary(c Component) bool { return standsFor(c, summaryKey) }
