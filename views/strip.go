package views

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Strip is ansi.Strip(s), s without its escape sequences: a text of
// printable ASCII, newlines and whole UTF-8 characters (a screen drawn
// without colour) is itself, returned without copying it byte by byte
// into a buffer (a thirtieth of the tui's tests under -race).
func Strip(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 || c > 0x7e) && c != '\n' && c < 0x80 {
			return ansi.Strip(s)
		}
	}
	if !utf8.ValidString(s) {
		return ansi.Strip(s)
	}
	return s
}
