package serve

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// TestLineWidthIsStringWidth: lineWidth, which counts ASCII at once,
// measures as ansi.StringWidth does: lines of ASCII, escape sequences
// (colours, a hyperlink, a cursor move), wide runes, combining marks and
// variation selectors after ASCII, a keycap, an emoji joined by ZWJ, box
// drawing, control bytes and broken UTF-8, alone and in random lines.
func TestLineWidthIsStringWidth(t *testing.T) {
	pieces := []string{
		"a", "Z", " ", "~", "1", "#", "    ", "holders 1",
		"\x1b[1;38;5;212m", "\x1b[0m", "\x1b[38;2;10;20;30m", "\x1b]8;;https://example.org\x1b\\", "\x1b]8;;\x07",
		"\x1b[2K", "\x1b[12;1H", "\x1b7", "\x1bP1$r\x1b\\",
		"界", "ｗ", "é", "\u0301", "e\u0301", "\ufe0f", "\u2764\ufe0f", "1\ufe0f\u20e3", "#\u20e3",
		"\U0001F469\u200d\U0001F4BB", "\u200d", "\U0001F1EB\U0001F1F7", "▸", "·", "│", "╭─╮", "…", "█",
		"\t", "\r", "\n", "\x00", "\x7f", "\xff", "\xe2\x94", "\u0e01\u0e33",
	}
	for _, p := range pieces {
		for _, s := range []string{p, "x" + p, p + "x", p + p, "x" + p + "x"} {
			if got, want := lineWidth(s), ansi.StringWidth(s); got != want {
				t.Errorf("lineWidth(%q) = %d, ansi.StringWidth %d", s, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := lineWidth(s), ansi.StringWidth(s); got != want {
			t.Fatalf("lineWidth(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
}

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
		if got, n := blankTail(r.line, lineWidth(r.line)); got != r.want || n != lineWidth(r.want) {
			t.Errorf("blankTail(%q) = %q, %d; want %q, %d", r.line, got, n, r.want, lineWidth(r.want))
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
		if lineWidth(line) < w {
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
