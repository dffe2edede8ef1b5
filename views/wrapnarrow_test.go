package views

import (
	"strings"
	"testing"

	"locksim/internal/wraptest"
)

// narrowTexts are texts Wrap has to end on at any width: a double-width
// character (CJK, an emoji with a skin tone), one behind a zero-width
// space, invalid UTF-8, a long word, a negative number, leading spaces.
var narrowTexts = []string{
	"漢", "a漢b", "ab漢cd 字", "👍🏽x", "\u200b漢", "  漢字 x",
	"\xff\xfe abc", "\xe6\xbc", "abcdefghijkl", "SET k v PX 30000 -1 漢",
	"\t\tpause-half\n  deadlock-freedom 👍🏽👍🏽", "",
}

// checkNarrowWrap fails unless Wrap of s gives rows rows, each within width
// columns (at least one) or one character wider than width alone.
func checkNarrowWrap(t *testing.T, s string, width, rows int) {
	t.Helper()
	out := ASCII().Wrap(s, width, rows)
	got := strings.Split(out, "\n")
	if len(got) != max(rows, 1) {
		t.Errorf("width %d, %q: %d rows, want %d", width, s, len(got), max(rows, 1))
	}
	wraptest.Fits(t, s, out, width)
}

// TestWrapNarrow: Styles.Wrap ends at every width, 1 and below included,
// on every narrow text, and its rows fit (wrapWords in the lab looped
// forever at width 1 on a double-width character).
func TestWrapNarrow(t *testing.T) {
	for _, s := range narrowTexts {
		for w := -2; w <= 6; w++ {
			checkNarrowWrap(t, s, w, 3)
			checkNarrowWrap(t, s, w, 12)
		}
	}
}

// FuzzWrap: Styles.Wrap ends on any text at any width from -1 to 9, and
// its rows fit.
func FuzzWrap(f *testing.F) {
	for i, s := range narrowTexts {
		f.Add(s, i%4, 3)
	}
	f.Fuzz(func(t *testing.T, s string, w, rows int) {
		checkNarrowWrap(t, s, w%11-1, 1+(rows%8+8)%8)
	})
}

// TestWrapEdges: Styles.Wrap at no rows draws nothing (it panicked on
// rows < 1), and at width 1 (or less) puts no empty row before a
// double-width character that starts a line (it drew "\n漢"), styled
// or not, nor anywhere else.
func TestWrapEdges(t *testing.T) {
	for _, c := range []struct {
		text        string
		width, rows int
		want        string
	}{
		{"a long sentence", 10, 0, ""},
		{"a long sentence", 10, -1, ""},
		{"", 1, 0, ""},
		{"漢", 1, 1, "漢"},
		{"漢", 1, 3, "漢\n\n"},
		{"漢字", 1, 2, "漢\n字"},
		{"漢字", 0, 2, "漢\n字"},
		{"漢字", -3, 2, "漢\n字"},
		{"漢漢漢", 1, 2, "漢\n…"},
		{"👍🏽x", 1, 2, "👍🏽\nx"},
		{"a\n漢", 1, 2, "a\n漢"},
		{"a\n\n漢b", 1, 4, "a\n\n漢\nb"},
		{" 漢", 1, 1, "漢"},
		{"a 漢", 1, 2, "a\n漢"},
		{"漢字x", 2, 3, "漢\n字\nx"},
		{"\x1b[31m漢\x1b[0m", 1, 1, "\x1b[31m漢\x1b[0m"},
	} {
		if got := ASCII().Wrap(c.text, c.width, c.rows); got != c.want {
			t.Errorf("Wrap(%q, %d, %d) = %q, want %q", c.text, c.width, c.rows, got, c.want)
		}
	}
}
