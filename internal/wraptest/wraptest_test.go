package wraptest

import (
	"fmt"
	"testing"
)

// record is a testing.TB that keeps what it is told to report.
type record struct {
	testing.TB
	got []string
}

func (e *record) Helper() {}

func (e *record) Errorf(format string, args ...any) {
	e.got = append(e.got, fmt.Sprintf(format, args...))
}

// TestFits: Fits passes rows within the width, and one character wider
// alone, and fails a row wider than that.
func TestFits(t *testing.T) {
	for _, c := range []struct {
		out  string
		w    int
		errs int
	}{
		{"ab\ncd", 2, 0},
		{"漢\nx", 1, 0},    // one double-width character alone
		{"\u200b漢", 1, 0}, // behind what takes no column
		{"abc\nd", 2, 1},
		{"a漢", 1, 1},
		{"ab\nab\nab", -1, 3},
	} {
		e := &record{TB: t}
		Fits(e, c.out, c.out, c.w)
		if len(e.got) != c.errs {
			t.Errorf("Fits(%q, %d): %d record %q, want %d", c.out, c.w, len(e.got), e.got, c.errs)
		}
	}
}

// TestKeeps: Keeps passes a wrapping that keeps every word, and fails one
// that loses or reorders a byte, or cuts inside a character.
func TestKeeps(t *testing.T) {
	for _, c := range []struct {
		in, shown, out string
		errs           int
	}{
		{"ab cd", "ab cd", "ab\ncd", 0},
		{"a\x00", "a␀", "a\n␀", 0},
		{"ab cd", "ab cd", "ab\nc", 1},
		{"ab cd", "ab cd", "cd\nab", 1},
		{"漢", "漢", "\xe6\xbc", 2},
	} {
		e := &record{TB: t}
		Keeps(e, c.in, c.shown, c.out, 3)
		if len(e.got) != c.errs {
			t.Errorf("Keeps(%q, %q, %q): %d record %q, want %d", c.in, c.shown, c.out, len(e.got), e.got, c.errs)
		}
	}
}
