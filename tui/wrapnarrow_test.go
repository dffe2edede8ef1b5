package tui

import (
	"testing"
	"unicode/utf8"

	"locksim/internal/wraptest"
	"locksim/shown"
)

// narrowTexts are texts a wrapper has to end on at any width: a double-
// width character (CJK, an emoji with a skin tone), one behind a
// zero-width space, invalid UTF-8, a long word, leading spaces and tabs.
var narrowTexts = []string{
	"漢", "a漢b", "ab漢cd 字", "👍🏽x", "\u200b漢", "  漢字 x",
	"\xff\xfe abc", "\xe6\xbc", "abcdefghijkl", "SET k v PX 30000 漢",
	"\t\tpause-half\r\n\f  deadlock-freedom 👍🏽👍🏽", "",
	"000\x1b", "0000\x1b", "a\x1b[31mred\x1b[0m b", "\x07\v\x7f\u009b2J\x00",
	"ab\u200bcd", // a zero-width character right after a hard break
}

// checkRows fails unless every row of out fits w columns (at least one),
// or is one character wider than w alone (with what takes no column
// before it), and out keeps every non-space byte of in (an invalid one as U+FFFD, a
// control as shown.Text shows it), in order, cuts inside no character of a valid in, and
// holds no control character but \n.
func checkRows(t *testing.T, in, out string, w int) {
	t.Helper()
	wraptest.Fits(t, in, out, w)
	wraptest.Keeps(t, in, shown.Text(in), out, w)
	if !utf8.ValidString(out) {
		t.Errorf("width %d, %q: invalid UTF-8 out: %q", w, in, out)
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			t.Errorf("width %d, %q: control %U sent to the terminal: %q", w, in, r, out)
			break
		}
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
	// the rest of a row broken hard is the text after its head, byte for
	// byte: cut again by columns (ansi.TruncateLeft) it lost the
	// zero-width space after the cut, as it once doubled a stray byte
	if got, want := wrapWords("ab\u200bcd", 2), "ab\n\u200bcd"; got != want {
		t.Errorf("wrapWords(ab\u200bcd, 2) = %q, want %q (the zero-width space kept)", got, want)
	}
	// a stray ESC was taken for an escape sequence's start: "000\x1b" at
	// width 1 came out as "0\x1b\n0\x1b\n0\x1b", "0000\x1b" at 3 as
	// "000\x1b\n0\x1b" (FuzzWrapWords)
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"000\x1b", 1, "0\n0\n0\n␛"},
		{"000\x1b", 34, "000␛"},
		{"0000\x1b", 3, "000\n0␛"},
		{"0000\x1b", 2, "00\n00\n␛"},
		{"a\x1b[31mred b", 40, "a␛[31mred b"},
		{"x\x7f\u009b\x00 y\r\nz\tw", 40, "x␡\uFFFD␀ y\nz w"},
		// a learner's lock named with a right-to-left override, an
		// isolate and a line separator: shown, so the rest of its row
		// (and the page after it) is not reordered
		{"lock:\u202ekcol note\u2067 x\u2028y", 40, "lock:\uFFFDkcol note\uFFFD x\uFFFDy"},
	} {
		if got := wrapWords(c.in, c.w); got != c.want {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

// TestShownText: shown.Text shows every control character but \n, \t, \f
// and \r (C0 as its control picture, DEL as ␡, C1 and the bidi controls
// as U+FFFD) and invalid UTF-8 as U+FFFD, and keeps every other text as it is.
func TestShownText(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"plain 漢 👍🏽 \uFFFD":        "plain 漢 👍🏽 \uFFFD",
		"a\n\tb\f\rc":              "a\n\tb\f\rc",
		"\x1b[2J":                  "␛[2J",
		"\x00\x07\x08\v\x1f\x7f":   "␀␇␈␋␟␡",
		"\u0080\u009b\u009f\u00a0": "\uFFFD\uFFFD\uFFFD\u00a0",
		"\xff\xfe x \xc2":          "\uFFFD x \uFFFD",
		"a\u202eb\u200fc\u2066d":   "a\uFFFDb\uFFFDc\uFFFDd",
	} {
		if got := shown.Text(in); got != want {
			t.Errorf("shown.Text(%q) = %q, want %q", in, got, want)
		}
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
