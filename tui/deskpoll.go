package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/class"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// pollLines are the poll of the instructor's story: its question, the
// predictions as a histogram, and once the move has run, what each
// student's own run answered.
func (d *Desk) pollLines() []string {
	st, w := d.com.Styles, d.w
	if d.lead.Scene == "" {
		return []string{views.OneLine(st.Dim, truncate("you lead no scene yet: the poll opens with the scene you open", w))}
	}
	if d.contents {
		return []string{views.OneLine(st.Dim, truncate("on the contents: no question is open; the poll opens with the scene you open", w))}
	}
	p, ok := class.Tally(d.lead, d.students, d.now)
	if !ok {
		return []string{views.OneLine(st.Dim, truncate("no question in "+d.lead.Scene+": nothing to poll", w))}
	}
	if p.State == class.Before {
		return append([]string{views.OneLine(st.Dim, truncate(fmt.Sprintf("%s asks its question before step %d: the poll opens when you get there", p.Scene, p.At+1), w))},
			d.otherPolls(p.Q)...)
	}
	return append(d.pollOf(p), d.otherPolls(p.Q)...)
}

// otherPolls are the lesson's polls but the one at q, each in three
// lines or more: its story, its own question, and its own counts.
func (d *Desk) otherPolls(q class.Question) []string {
	st, w := d.com.Styles, d.w
	var out []string
	for _, o := range d.lesson {
		if o.Q.Key() == q.Key() {
			continue
		}
		out = append(out, truncate(views.OneLine(st.Bold, "earlier in the lesson: "+o.Q.Label()), w))
		out = append(out, pollQuestion(o.Question, w)...)
		var counts []string
		for i, n := range o.Chosen {
			counts = append(counts, fmt.Sprintf("%d: %d", i+1, n))
		}
		line := fmt.Sprintf("%d answered (%s)", o.Answered, strings.Join(counts, ", "))
		if o.Ran > 0 {
			// of the runs that made the move: the others are not yet
			// true, nor false
			line += fmt.Sprintf(" · %d of %d came true", o.Right, o.Ran)
			if n := o.NotRun(); n > 0 {
				line += fmt.Sprintf(", %d not yet run", n)
			}
		}
		if o.Blind > 0 {
			line += fmt.Sprintf(" · %d blind", o.Blind)
		}
		out = append(out, truncate(line, w))
	}
	return out
}

// pollOf is the poll p of the instructor's story.
func (d *Desk) pollOf(p class.Poll) []string {
	st, w := d.com.Styles, d.w
	out := pollQuestion(p.Question, w)
	head := p.Headline()
	if p.State == class.Open && !d.since.IsZero() {
		head = "open " + span(d.now.Sub(d.since)) + " · " + head
	}
	if p.Elsewhere > 0 {
		head += fmt.Sprintf(" · %d elsewhere", p.Elsewhere)
	}
	out = append(out, truncate(views.OneLine(st.Bold, head), w))
	if tooLongForBars(p.Choices, w) {
		return append(out, d.pollWhole(p)...)
	}
	lw := max(w-30, 12) // as tooLongForBars
	var bars []views.Bar
	for i, c := range p.Choices {
		bars = append(bars, views.Bar{Label: fmt.Sprintf("%d %s", i+1, truncate(c, lw-2)), Count: p.Guesses[i]})
	}
	out = append(out, strings.Split(views.Histogram(st, bars, w), "\n")...)
	if p.State == class.Open {
		return append(out, d.openLines(p)...)
	}
	out = append(out, truncate(fmt.Sprintf("their own runs answered (%d of %d have run it):", p.Ran, p.Of), w))
	bars = nil
	for i, c := range p.Choices {
		bars = append(bars, views.Bar{Label: fmt.Sprintf("%d %s", i+1, truncate(c, lw-2)), Count: p.Actual[i], Tone: views.Good})
	}
	if p.NoneTrue > 0 {
		bars = append(bars, views.Bar{Label: "  none of these", Count: p.NoneTrue, Tone: views.Bad})
	}
	return append(out, strings.Split(views.Histogram(st, bars, w), "\n")...)
}

// openLines end an open poll: who is still to answer, and what → does.
func (d *Desk) openLines(p class.Poll) []string {
	st, w := d.com.Styles, d.w
	var out []string
	if waiting := p.WaitingLine(w); waiting != "" {
		out = append(out, waiting)
	}
	return append(out, views.OneLine(st.Dim, truncate("the question is open · → runs the move in every follower's own run", w)))
}

// pollWhole is the poll's choices and counts when a choice is too long to
// label its bar: each choice whole on rows of its own, wrapped, and the
// bars labelled by number; once the move has run, the predictions and
// what the runs answered side by side, so the poll takes no more rows
// than with the choices beside their bars.
func (d *Desk) pollWhole(p class.Poll) []string {
	st, w := d.com.Styles, d.w
	if p.State == class.Open {
		return append(d.openWhole(p), d.openLines(p)...)
	}
	var out []string
	for i := range p.Choices {
		out = append(out, d.choiceRows(p, i)...)
	}
	var guessed, ran []views.Bar
	for i := range p.Choices {
		guessed = append(guessed, views.Bar{Label: itoa(int64(i + 1)), Count: p.Guesses[i]})
		ran = append(ran, views.Bar{Label: itoa(int64(i + 1)), Count: p.Actual[i], Tone: views.Good})
	}
	if p.NoneTrue > 0 {
		ran = append(ran, views.Bar{Label: "none of these", Count: p.NoneTrue, Tone: views.Bad})
	}
	// the predictions take the left column, a bar of eight cells and its
	// count; what the runs answered the rest, its heading whole at 80
	const left = 30
	out = append(out, truncate("predicted"+strings.Repeat(" ", left-len("predicted"))+fmt.Sprintf("their own runs answered (%d of %d have run it):", p.Ran, p.Of), w))
	l := strings.Split(views.Histogram(st, guessed, left-1), "\n")
	r := strings.Split(views.Histogram(st, ran, max(w-left, 1)), "\n")
	for i := range max(len(l), len(r)) {
		var a, b string
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			b = r[i]
		}
		out = append(out, truncate(a+strings.Repeat(" ", max(left-ansi.StringWidth(a), 0))+b, w))
	}
	return out
}

// choiceRows are choice i of poll p, numbered, wrapped at the desk's
// width with its later rows indented.
func (d *Desk) choiceRows(p class.Poll, i int) []string {
	return choiceRows(i, p.Choices[i], d.w)
}

// choiceRows are choice c, the i-th (0-based), numbered, wrapped between
// words at width w with its later rows indented.
func choiceRows(i int, c string, w int) []string {
	rows := strings.Split(wrapWords(fmt.Sprintf("%d %s", i+1, c), max(w-2, 1)), "\n")
	for j := 1; j < len(rows); j++ {
		rows[j] = "  " + rows[j]
	}
	return rows
}

// tooLongForBars reports a choice too long to label its bar in a
// histogram w columns wide: a label takes what the bar (ten cells at
// least) and its count (twenty, see views.Histogram) leave.
func tooLongForBars(choices []string, w int) bool {
	lw := max(w-30, 12)
	return slices.ContainsFunc(choices, func(c string) bool { return ansi.StringWidth(c) > lw-2 })
}

// openWhole are an open poll's choices whole, each with its predictions
// (a bar, room allowing, and the count) at the end of its last row, in a
// column, or on a row of its own where they do not fit: a row a choice,
// as with the choices beside their bars.
func (d *Desk) openWhole(p class.Poll) []string {
	return choicesWhole(d.com.Styles, p.Choices, p.Guesses, d.w)
}

// choicesWhole are choices whole at width w, each with its count of
// counts (a bar, room allowing, and the count) at the end of its last
// row, in a column, or on a row of its own where they do not fit. The
// bars share one scale, ten cells for the largest count, whatever the
// choices' lengths: a choice's text moves its count to a row of its own,
// never shortens the bars.
func choicesWhole(st views.Styles, choices []string, counts []int, w int) []string {
	total, most, tail := 0, 0, 0
	for _, n := range counts {
		total += n
		most = max(most, n)
	}
	rows := make([][]string, len(choices))
	tails := make([]string, len(choices))
	for i, c := range choices {
		rows[i] = choiceRows(i, c, w)
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(counts[i]) / float64(total)
		}
		tails[i] = fmt.Sprintf("%d (%.1f%%)", counts[i], pct)
		tail = max(tail, len(tails[i]))
	}
	cells := min(w-2-tail-1, 10) // the bar's cells on a row of its own, ten at most
	ends := make([]string, len(choices))
	for i := range choices {
		ends[i] = tails[i]
		if cells > 0 && most > 0 {
			n := counts[i] * cells / most
			if counts[i] > 0 {
				n = max(n, 1)
			}
			ends[i] = views.OneLine(st.Plain, strings.Repeat("█", n)) + " " + tails[i]
		}
	}
	// the column: the one that leaves the most ends beside their choice
	beside := func(i, col int) bool {
		l := ansi.StringWidth(rows[i][len(rows[i])-1])
		return l+2 <= col && col+ansi.StringWidth(ends[i]) <= w
	}
	col, best := 0, 0
	for _, r := range rows {
		c, n := ansi.StringWidth(r[len(r)-1])+2, 0
		for i := range rows {
			if beside(i, c) {
				n++
			}
		}
		if n > best || n == best && c < col {
			col, best = c, n
		}
	}
	var out []string
	for i, r := range rows {
		last := r[len(r)-1]
		if beside(i, col) {
			r[len(r)-1] = last + strings.Repeat(" ", col-ansi.StringWidth(last)) + ends[i]
		} else {
			r = append(r, truncate("  "+ends[i], w))
		}
		out = append(out, r...)
	}
	return out
}

// pollQuestion is a poll's question whole at width w, wrapped between
// words: its setup is what the room reasons from, so no sentence of it is
// left out (a poll too long for the class view says so, and V shows it
// whole).
func pollQuestion(q string, w int) []string {
	var out []string
	for _, l := range strings.Split(wrapWords(q, w), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
