package views

import (
	"strings"

	"github.com/charmbracelet/x/cellbuf"
)

// Wrapped is text as an unstyled lipgloss style of the width draws it
// (st.Plain.Width(width).Render(text)) with each row's trailing spaces
// trimmed: tabs as four spaces, "\r\n" as "\n", then the same word wrap
// lipgloss calls. Render also pads every row to the width, which its
// callers trimmed again; under -race that round trip was a hot spot of
// drawing a screen. TestWrappedIsLipgloss holds it to lipgloss.
func Wrapped(text string, width int) string {
	lines := strings.Split(wrap(text, width), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

// Rows is how many rows text takes wrapped to width, as
// st.Plain.Width(width).Render draws it.
func Rows(text string, width int) int {
	return strings.Count(wrap(text, width), "\n") + 1
}

// wrap is Render's word wrap of text at width (at least 1).
func wrap(text string, width int) string {
	if strings.IndexByte(text, '\t') >= 0 {
		text = strings.ReplaceAll(text, "\t", "    ")
	}
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	return cellbuf.Wrap(text, max(width, 1), "")
}
