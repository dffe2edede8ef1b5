// Package wraptest holds the checks the narrow-width wrap tests of tui,
// views and transcript share: a wrapper's rows fit the width, and it
// keeps every word of its text. Only test files import it.
package wraptest

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Fits fails t unless every row of out, a wrapping of in at width w,
// fits w columns (at least one), or is one character wider than w alone
// (with what takes no column before it).
func Fits(t testing.TB, in, out string, w int) {
	t.Helper()
	for _, row := range strings.Split(out, "\n") {
		rw := ansi.StringWidth(row)
		if rw > max(w, 1) && ansi.StringWidth(ansi.Truncate(row, rw-1, "")) > 0 {
			t.Errorf("width %d, %q: row %q is %d columns", w, in, row, rw)
		}
	}
}

// Keeps fails t unless out, a wrapping of in at width w, keeps every
// non-space byte of shown (in as the wrapper shows it), in order, and
// cuts inside no character of a valid in.
func Keeps(t testing.TB, in, shown, out string, w int) {
	t.Helper()
	if utf8.ValidString(in) && !utf8.ValidString(out) {
		t.Errorf("width %d, %q: cut inside a character: %q", w, in, out)
	}
	if got, want := strings.Join(strings.Fields(out), ""), strings.Join(strings.Fields(shown), ""); got != want {
		t.Errorf("width %d, %q: kept %q, want %q", w, in, got, want)
	}
}
