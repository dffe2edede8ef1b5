package tui

import (
	"strings"
	"unicode/utf8"
)

// shownText is text as a terminal may be sent it: invalid UTF-8 as
// U+FFFD (ansi.Truncate's cut of a stray byte was not always a prefix
// of it, the byte came out twice), and every control character shown,
// not obeyed: a C0 one as its Unicode control picture (ESC as ␛), DEL as
// ␡, a C1 one (U+0080-U+009F, CSI among them) as U+FFFD. \n, \t, \f and
// \r are kept: wrapWords breaks rows at \n and takes the others as the
// spaces between words (\f and \r dropped there). The lab's texts come
// partly from the learner's own files (a lock's scripts, its name): a
// stray ESC was taken by the wrapper for an escape sequence's start and
// a word came out twice, and the learner's bytes must never reach the
// terminal as commands anyway.
func shownText(text string) string {
	if plainText(text) {
		return text
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\f' || r == '\r':
			return r
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return '\u2421'
		case r >= 0x80 && r <= 0x9f:
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(text, "\uFFFD"))
}

// plainText reports whether text is valid UTF-8 with no control
// character shownText replaces, as nearly every text is: it is then
// shown as it is, without a copy.
func plainText(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 0x20 && c < 0x7f, c == '\n', c == '\t', c == '\f', c == '\r':
		case c < 0x80:
			return false // another C0 control or DEL
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 || r <= 0x9f {
				return false // invalid UTF-8 or a C1 control
			}
			i += size - 1
		}
	}
	return true
}
