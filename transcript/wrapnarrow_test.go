package transcript

import (
	"testing"

	"locksim/internal/wraptest"
)

// narrowTexts are texts wrapColumns has to end on at any width: a
// double-width character (CJK, an emoji with a skin tone), invalid UTF-8,
// a long word, a transcript line (indented by four when it goes on) and
// a line with its own indent, both wider than a narrow width.
var narrowTexts = []string{
	"漢", "a漢b", "ab漢cd 字", "👍🏽x", "\u3000\u3000x", "  漢字 x",
	"\xff\xfe abc", "\xe6\xbc", "abcdefghijkl",
	"t=+40.000s w2> SETNX resource:lock 5be1… → (integer) 0",
	"      an indented paragraph 漢字 goes on", "",
}

// checkColumns fails unless every row of wrapColumns(s, width) fits width
// columns (at least one) or is one character wider alone, and the rows
// keep every non-space byte of s, in order, and cut inside no character
// of a valid s.
func checkColumns(t *testing.T, s string, width int) {
	t.Helper()
	out := wrapColumns(s, width)
	wraptest.Fits(t, s, out, width)
	wraptest.Keeps(t, s, s, out, width)
}

// TestWrapColumnsNarrow: wrapColumns ends at every width, 4 and below
// included, on every narrow text, and its rows fit. A transcript line at
// width 4 or less, or an indented one at its indent's width, was put back
// as it was after each break and never ended (the test then stops at go
// test's -timeout); a double-width character at width 1 was cut inside
// its bytes.
func TestWrapColumnsNarrow(t *testing.T) {
	for _, s := range narrowTexts {
		for w := -2; w <= 8; w++ {
			checkColumns(t, s, w)
		}
	}
}

// FuzzWrapColumns: wrapColumns ends on any text at any width from -1 to
// 9, its rows fit, and it keeps every word.
func FuzzWrapColumns(f *testing.F) {
	for i, s := range narrowTexts {
		f.Add(s, i%6)
	}
	f.Add("t=+1s x", 4)
	f.Fuzz(func(t *testing.T, s string, w int) {
		checkColumns(t, s, w%11-1)
	})
}
