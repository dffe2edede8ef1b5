// Package shown makes text from outside the program (a learner's lock,
// a student's name, a roster file) safe to draw on a terminal: every
// control character is shown, not obeyed. It imports nothing of the
// program's, so the class's store and the screen share it.
//
// Which of two ways shows a control character: free text (a name, a
// script's source, a path, an error's message, a sentence) is drawn with
// control pictures (ESC as ␛), its \n and \t kept for the layout; a
// Redis reply's text (a bulk string, an error reply, its code) is quoted
// as redis-cli quotes a bulk string (\x1b, \u202e: sim.Escape), where it
// is read beside what redis-cli prints. sim.Escape's output holds no
// character this package shows, so text that holds an escaped reply may
// pass through Text too, unchanged.
package shown

import (
	"strings"
	"unicode/utf8"
)

// Text is text as a terminal may be sent it: invalid UTF-8 as U+FFFD,
// and every control character shown, not obeyed: a C0 one as its Unicode
// control picture (ESC as ␛), DEL as ␡, a C1 one (U+0080-U+009F, CSI
// among them) as U+FFFD, and so is every bidirectional formatting
// character (Bidi), and the line and paragraph separators U+2028 and
// U+2029. \n, \t, \f and \r are kept (a wrapper breaks rows at \n and
// takes the others as spaces between words); Line shows them too. A
// stray ESC was taken for an escape sequence's start, and a right-to-left
// override (U+202E) in a student's name reversed the rest of the
// instructor's roster row on the projector: a learner's bytes must never
// reach the terminal as commands.
func Text(text string) string { return show(text, false) }

// Line is Text for a text drawn on one row (a name): \n, \t, \f and \r
// are shown as their control pictures too.
func Line(text string) string { return show(text, true) }

func show(text string, line bool) string {
	if plain(text, line) {
		return text
	}
	return strings.Map(func(r rune) rune {
		switch {
		case !line && (r == '\n' || r == '\t' || r == '\f' || r == '\r'):
			return r
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return '\u2421'
		case r >= 0x80 && r <= 0x9f, Bidi(r), r == 0x2028, r == 0x2029:
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(text, "\uFFFD"))
}

// Bidi reports the Unicode bidirectional formatting characters (the
// Bidi_Control property, UAX #9 section 2): the embeddings and overrides
// U+202A-U+202E, the isolates U+2066-U+2069, the marks U+200E and U+200F
// and the Arabic letter mark U+061C.
func Bidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// plain reports whether text is valid UTF-8 with no character show
// replaces, as nearly every text is: it is then shown as it is, without
// a copy.
func plain(text string, line bool) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 0x20 && c < 0x7f:
		case c == '\n' || c == '\t' || c == '\f' || c == '\r':
			if line {
				return false
			}
		case c < 0x80:
			return false // another C0 control or DEL
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 || r <= 0x9f || Bidi(r) || r == 0x2028 || r == 0x2029 {
				return false // invalid UTF-8, a C1 control, a bidi control or a separator
			}
			i += size - 1
		}
	}
	return true
}
