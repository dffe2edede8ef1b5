package views

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// TestLineWidthIsStringWidth: Width, which counts ASCII at once,
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
			if got, want := Width(s), ansi.StringWidth(s); got != want {
				t.Errorf("Width(%q) = %d, ansi.StringWidth %d", s, got, want)
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
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
}

// TestJoinTopIsLipgloss: JoinTop joins as lipgloss.JoinHorizontal with
// lipgloss.Top does: blocks of rows of random pieces (colours, wide
// runes, marks, blank rows), of random heights, one to four blocks.
func TestJoinTopIsLipgloss(t *testing.T) {
	pieces := []string{"a", " ", "holders 1", "\x1b[1;38;5;212m", "\x1b[0m", "界", "e\u0301", "│", "…", "\u2764\ufe0f", ""}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		blocks := make([]string, r.IntN(4)+1)
		for i := range blocks {
			var b strings.Builder
			for j := range r.IntN(5) {
				if j > 0 {
					b.WriteString("\n")
				}
				for range r.IntN(6) {
					b.WriteString(pieces[r.IntN(len(pieces))])
				}
			}
			blocks[i] = b.String()
		}
		if got, want := JoinTop(blocks...), lipgloss.JoinHorizontal(lipgloss.Top, blocks...); got != want {
			t.Fatalf("JoinTop(%q) =\n%q\nlipgloss joins\n%q", blocks, got, want)
		}
	}
}
