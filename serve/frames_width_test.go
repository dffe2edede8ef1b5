package serve

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"locksim/views"
)

// TestBlankTail: a frame's rows lose the spaces they end with only where
// those are drawn in the default colours, and the terminal's cells are
// then what the rows drawn whole leave (every cell's content and style,
// in a vt emulator): plain text, a style reset before the spaces, a row
// of spaces only, an empty row; spaces that may be styled (a background,
// an underline, reverse video, a style reset inside a longer sequence)
// are kept.
func TestBlankTail(t *testing.T) {
	rows := []struct {
		line, want string
	}{
		{"plain text  ", "plain text"},
		{"\x1b[1mbold\x1b[0m    ", "\x1b[1mbold\x1b[0m"},
		{"\x1b[7mrev\x1b[m text  ", "\x1b[7mrev\x1b[m text"},
		{"            ", ""},
		{"", ""},
		{"\x1b[44mblue  ", "\x1b[44mblue  "},
		{"\x1b[4mlined   ", "\x1b[4mlined   "},
		{"\x1b[0;7mrev   ", "\x1b[0;7mrev   "},
		{"\x1b[44mblue \x1b[0m", "\x1b[44mblue \x1b[0m"},
		{"twelve cols ", "twelve cols"},
	}
	const w = 12
	var view []string
	for _, r := range rows {
		if got, n := blankTail(r.line, views.Width(r.line)); got != r.want || n != views.Width(r.want) {
			t.Errorf("blankTail(%q) = %q, %d; want %q, %d", r.line, got, n, r.want, views.Width(r.want))
		}
		view = append(view, r.line)
	}
	// the frame, and the rows drawn whole as the frame did before
	out := &sink{}
	newFrames(out, w, len(rows), FPS, newFakeClock()).draw(strings.Join(view, "\n"))
	frame := out.take()
	for _, sent := range []string{ansi.CursorPosition(1, 1) + "plain text" + ansi.EraseLineRight, ansi.CursorPosition(1, 4) + ansi.EraseLineRight} {
		if !strings.Contains(frame, sent) {
			t.Errorf("the frame did not send %q: %q", sent, frame)
		}
	}
	framed, whole := vt.NewEmulator(w, len(rows)), vt.NewEmulator(w, len(rows))
	_, _ = framed.Write([]byte(frame))
	var b strings.Builder
	b.WriteString(ansi.EraseEntireScreen)
	for i, line := range view {
		b.WriteString(ansi.CursorPosition(1, i+1) + line)
		if views.Width(line) < w {
			b.WriteString(ansi.EraseLineRight)
		}
	}
	_, _ = whole.Write([]byte(b.String()))
	for y := range len(rows) {
		for x := range w {
			if a, b := framed.CellAt(x, y), whole.CellAt(x, y); !a.Equal(b) {
				t.Errorf("row %d (%q) column %d: the frame left %+v, the whole row %+v", y+1, view[y], x+1, a, b)
			}
		}
	}
}
