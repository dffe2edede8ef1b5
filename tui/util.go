package tui

import (
	"strconv"
	"strings"

	"locksim/views"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

func truncate(s string, w int) string {
	if len(s) <= w {
		// no wider than its bytes (a rune of two columns takes three):
		// it fits, as ansi.Truncate would find, measuring each cluster
		return s
	}
	return ansi.Truncate(s, w, "…")
}

func joinLines(parts []string) []string { return strings.Split(strings.Join(parts, "\n"), "\n") }

// spread puts left and right on one line of width w; when both do not fit,
// left is cut, since right says which server the learner is on.
func spread(left, right string, w int) string {
	room := w - ansi.StringWidth(right) - 2 // two spaces keep the halves apart
	if room < 10 {
		return truncate(left, w)
	}
	left = truncate(left, room)
	return left + strings.Repeat(" ", w-ansi.StringWidth(left)-ansi.StringWidth(right)) + right
}

func fitRows(s string, rows int) string {
	lines := strings.Split(s, "\n")
	for len(lines) < rows {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(rows, 0)], "\n")
}

func renderTone(st views.Styles, t views.Tone, s string) string {
	switch t {
	case views.Good:
		return views.OneLine(st.Good, s)
	case views.Bad:
		return views.OneLine(st.Bad, s)
	case views.Warn:
		return views.OneLine(st.Warn, s)
	}
	return s
}

// wholeLines is text's lines in style st, each wrapped to width w at its
// spaces (a word wider than w, such as a long path, broken where the
// width ends), so that nothing is cut.
func wholeLines(st lipgloss.Style, text string, w int) []string {
	out := strings.Split(wrapWords(text, w), "\n")
	for i := range out {
		out[i] = st.Render(out[i])
	}
	return out
}
