package views

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Instant is a point on a history's time axis: story time, and Seq, the
// order of what happened at the same story time (an event's sequence
// number). Commands of one step share a story time; Seq keeps them apart.
type Instant struct {
	At  time.Duration
	Seq int
}

func (a Instant) cmp(b Instant) int {
	if c := cmp.Compare(a.At, b.At); c != 0 {
		return c
	}
	return cmp.Compare(a.Seq, b.Seq)
}

// Span is a stretch of a track, from one instant to another, drawn with a
// one-cell Glyph (a lease "═", a belief "━").
type Span struct {
	From, To Instant
	Glyph    string
	Tone     Tone
	Owner    string // whose it is, for a legend: the client of a node's lease
}

// Point is one instant of a track, drawn with a one-cell Glyph over any
// span under it.
type Point struct {
	At    Instant
	Glyph string
	Tone  Tone
}

// Track is one row of a history: its label (a client, its lease on the
// server, the resource, a node) and what happened on it.
type Track struct {
	Label  string
	Spans  []Span
	Points []Point
	// Note stands in the row instead of its spans and points: what is
	// there is hidden, and says why.
	Note string
}

// Flag marks the instant a model could not place, with its one sentence.
type Flag struct {
	At   Instant
	Text string
}

// History is a story drawn as tracks on one time axis, up to Now.
type History struct {
	Tracks []Track
	Now    Instant
	Flag   *Flag // nil for none
}

// TracksDrawn is a drawn history: its rows, and how many of its instants
// lie before and after the window drawn (a long story is drawn a window
// at a time).
type TracksDrawn struct {
	Rows          []string
	Before, After int
}

// Tracks draws h in width columns: a time axis, one row per track, and
// under them the flag's mark and sentence. Instants get a column each in
// story order, those at one story time side by side, and the spare columns
// go to the gaps between story times in proportion to their length, so the
// axis keeps the story clock's order and roughly its scale. A story with
// more instants than fit is drawn as a window of them, back instants
// before the newest.
func Tracks(st Styles, h History, width, back int) TracksDrawn {
	labelW := 0
	for _, t := range h.Tracks {
		labelW = max(labelW, ansi.StringWidth(t.Label))
	}
	labelW = min(labelW+1, max(width/4, 1))
	area := max(width-labelW-1, 1) // and the last column, for "▸" past the window

	all := instants(h)
	// gap[i] is the columns from instant i-1 to i: one within a story
	// time, two across a change of it (room for the time to be seen passing)
	gap := func(i int) int {
		if i == 0 || all[i].At == all[i-1].At {
			return 1
		}
		return 2
	}
	hi := max(len(all)-back, 1)
	hi = min(hi, len(all))
	lo, used := hi-1, 0
	for lo > 0 && used+gap(lo) < area {
		used += gap(lo)
		lo--
	}
	win := all[lo:hi]
	xs := columns(win, gap, lo, area)
	// x is the column of instant a: of its place in the window, or, for one
	// outside it, -1 before and area after
	x := func(a Instant) int {
		i, found := slices.BinarySearchFunc(win, a, Instant.cmp)
		switch {
		case found:
			return xs[i]
		case i == 0 && (len(win) == 0 || a.cmp(win[0]) < 0):
			return -1
		case i >= len(win):
			return area
		}
		return xs[i] // between two instants (it cannot be: all are listed)
	}

	var out []string
	out = append(out, axis(st, win, xs, labelW, width, lo > 0))
	for _, t := range h.Tracks {
		cells := make([]cell, area+1)
		for _, s := range t.Spans {
			from, to := x(s.From), x(s.To)
			if to < 0 || from >= area {
				continue
			}
			for c := max(from, 0); c <= min(to, area-1); c++ {
				cells[c] = cell{s.Glyph, s.Tone}
			}
			if from < 0 {
				cells[0] = cell{"◂", s.Tone}
			}
			if to >= area {
				cells[area] = cell{"▸", s.Tone}
			}
		}
		for _, p := range t.Points {
			if c := x(p.At); c >= 0 && c < area {
				cells[c] = cell{p.Glyph, p.Tone}
			}
		}
		label := ansi.Truncate(t.Label, labelW-1, "…")
		row := drawCells(st, cells)
		if t.Note != "" {
			row = st.Dim.Render(ansi.Truncate(t.Note, area, "…"))
		}
		out = append(out, st.Bold.Render(label)+strings.Repeat(" ", labelW-ansi.StringWidth(label))+row)
	}
	if f := h.Flag; f != nil {
		c := x(f.At)
		switch {
		case c < 0:
			out = append(out, strings.Repeat(" ", labelW)+st.Bad.Render("◂ earlier"))
		case c >= area:
			out = append(out, strings.Repeat(" ", labelW+area)+st.Bad.Render("▸"))
		default:
			out = append(out, strings.Repeat(" ", labelW+c)+st.Bad.Render("▲"))
		}
		for _, l := range strings.Split(st.Wrap("▲ "+f.Text, width, 4), "\n") {
			if l != "" {
				out = append(out, l)
			}
		}
	}
	return TracksDrawn{Rows: out, Before: lo, After: len(all) - hi}
}

// instants are every instant h names, in order, once each.
func instants(h History) []Instant {
	all := []Instant{h.Now}
	for _, t := range h.Tracks {
		for _, s := range t.Spans {
			all = append(all, s.From, s.To)
		}
		for _, p := range t.Points {
			all = append(all, p.At)
		}
	}
	if h.Flag != nil {
		all = append(all, h.Flag.At)
	}
	// sort.Slice, not slices.SortFunc: its code is shared by every type
	// it sorts, where the generic sort compiles its own for each struct
	// type (docs/benchmarks.md: the binary's size)
	sort.Slice(all, func(i, j int) bool { return all[i].cmp(all[j]) < 0 })
	all = slices.Compact(all)
	// nothing is drawn after now
	for len(all) > 1 && all[len(all)-1].cmp(h.Now) > 0 {
		all = all[:len(all)-1]
	}
	return all
}

// columns places the window's instants across area columns: each gap its
// base width (gap, by index in the whole list from lo), and the spare
// columns shared among the gaps between story times by their length.
func columns(win []Instant, gap func(int) int, lo, area int) []int {
	xs := make([]int, len(win))
	base := 0
	var total time.Duration
	for i := 1; i < len(win); i++ {
		base += gap(lo + i)
		total += win[i].At - win[i-1].At
	}
	spare := max(area-1-base, 0)
	x, given := 0, 0
	var run time.Duration
	for i := 1; i < len(win); i++ {
		x += gap(lo + i)
		if d := win[i].At - win[i-1].At; d > 0 && total > 0 {
			// the spare columns up to here, in proportion to the time so far
			run += d
			share := int(int64(spare) * int64(run) / int64(total))
			x += share - given
			given = share
		}
		xs[i] = x
	}
	return xs
}

// axis is the row of story times over the tracks: each instant's time where
// it starts a new story time and its label fits.
func axis(st Styles, win []Instant, xs []int, labelW, width int, earlier bool) string {
	row := []rune(strings.Repeat(" ", width))
	put := func(at int, s string) bool {
		r := []rune(s)
		if at < 0 || at+len(r) > len(row) {
			return false
		}
		for i := max(at-1, 0); i < min(at+len(r)+1, len(row)); i++ {
			if row[i] != ' ' {
				return false
			}
		}
		copy(row[at:], r)
		return true
	}
	if earlier {
		put(0, "◂ [")
	}
	for i, a := range win {
		if i > 0 && win[i-1].At == a.At {
			continue
		}
		s := "+" + AxisTime(a.At)
		if !put(labelW+xs[i], s) && a.At == win[len(win)-1].At {
			// the newest time matters most: it may end at its column instead
			put(labelW+xs[i]-len([]rune(s))+1, s)
		}
	}
	return st.Dim.Render(strings.TrimRight(string(row), " "))
}

// AxisTime is d as the axis labels it: "32s", "1m20s", "400ms", "9.3ms",
// "1.2s".
func AxisTime(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d < time.Second && d%time.Millisecond == 0:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Second:
		// a trial's microseconds, to a tenth of a millisecond
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)), ".0") + "ms"
	case d%time.Second == 0 && d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d%time.Second == 0:
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < time.Minute:
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".") + "s"
	}
	return d.Round(time.Millisecond).String()
}

type cell struct {
	glyph string
	tone  Tone
}

// drawCells renders a row of cells, a run of one tone at a time.
func drawCells(st Styles, cells []cell) string {
	var b strings.Builder
	for i := 0; i < len(cells); {
		j := i
		var run strings.Builder
		for j < len(cells) && cells[j].tone == cells[i].tone {
			g := cells[j].glyph
			if g == "" {
				g = " "
			}
			run.WriteString(g)
			j++
		}
		b.WriteString(st.tone(cells[i].tone).Render(run.String()))
		i = j
	}
	return strings.TrimRight(b.String(), " ")
}
