package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// narrowTexts are texts a wrapper has to end on at any width: a double-
// width character (CJK, an emoji with a skin tone), one behind a
// zero-width space, invalid UTF-8, a long word, leading spaces and tabs.
var narrowTexts = []string{
	"漢", "a漢b", "ab漢cd 字", "👍🏽x", "\u200b漢", "  漢字 x",
	"\xff\xfe abc", "\xe6\xbc", "abcdefghijkl", "SET k v PX 30000 漢",
	"\t\tpause-half\r\n\f  deadlock-freedom 👍🏽👍🏽", "",
}

// checkRows fails unless every row of out fits w columns (at least one),
// or is one character wider than w alone (with what takes no column
// before it), and out keeps every non-space byte of in (an invalid one as U+FFFD), in order, and
// cuts inside no character of a valid in.
func checkRows(t *testing.T, in, out string, w int) {
	t.Helper()
	for _, row := range strings.Split(out, "\n") {
		rw := ansi.StringWidth(row)
		if rw > max(w, 1) && ansi.StringWidth(ansi.Truncate(row, rw-1, "")) > 0 {
			t.Errorf("width %d, %q: row %q is %d columns", w, in, row, rw)
		}
	}
	if utf8.ValidString(in) && !utf8.ValidString(out) {
		t.Errorf("width %d, %q: cut inside a character: %q", w, in, out)
	}
	if got, want := strings.Join(strings.Fields(out), ""), strings.Join(strings.Fields(strings.ToValidUTF8(in, "\uFFFD")), ""); got != want {
		t.Errorf("width %d, %q: kept %q, want %q", w, in, got, want)
	}
}

// TestWrapWordsNarrow: wrapWords ends at every width, 1 and below
// included, on every narrow text, and its rows fit. At width 1 a
// double-width character was cut to nothing, left where it was, and the
// loop never ended (the test then stops at go test's -timeout).
func TestWrapWordsNarrow(t *testing.T) {
	for _, s := range narrowTexts {
		for w := -2; w <= 6; w++ {
			checkRows(t, s, wrapWords(s, w), w)
		}
	}
	if got, want := wrapWords("a漢b", 1), "a\n漢\nb"; got != want {
		t.Errorf("wrapWords(a漢b, 1) = %q, want %q", got, want)
	}
	if got, want := wrapWords("ab漢cd", 3), "ab\n漢c\nd"; got != want {
		t.Errorf("wrapWords(ab漢cd, 3) = %q, want %q (the 漢 kept)", got, want)
	}
}

// FuzzWrapWords: wrapWords ends on any text at any width from -1 to 9,
// its rows fit, and it keeps every word.
func FuzzWrapWords(f *testing.F) {
	for i, s := range narrowTexts {
		f.Add(s, i%4)
	}
	f.Add("漢", 1)
	f.Fuzz(func(t *testing.T, s string, w int) {
		w = w%11 - 1
		checkRows(t, s, wrapWords(s, w), w)
	})
}
