package tui

import (
	"strings"
	"unicode/utf8"

	"locksim/shown"
)

// A stood is one character of a part's file that the editor holds as a
// sign (signOf): the sign, and the file's bytes it stands for.
type stood struct {
	sign rune
	orig string
}

// substitute is the sign of a character with no control picture of its
// own: a C1 control, a bidirectional control, a line or paragraph
// separator, U+FFFD, a byte that is not UTF-8. (The editor drops U+FFFD,
// so it cannot be the sign, as it is shown.Text's.)
const substitute = '\u2426' // ␦

// signOf is the sign the editor shows for r, and whether it needs one: a
// C0 control but \n and \t as its control picture (ESC as ␛), DEL as ␡,
// and those substitute names as ␦. A raw U+202E in the editor reversed
// the rest of its row on the learner's terminal, on the projector and on
// an instructor's watch, and the editor dropped ESC and BEL, which a save
// then took out of the file.
func signOf(r rune) (rune, bool) {
	switch {
	case r == '\n' || r == '\t':
		return r, false // the editor's own: a row, spaces
	case r < 0x20:
		return 0x2400 + r, true
	case r == 0x7f:
		return '\u2421', true
	case r >= 0x80 && r <= 0x9f, shown.Bidi(r), r == 0x2028, r == 0x2029, r == utf8.RuneError:
		return substitute, true
	}
	return r, false
}

// isSign reports the runes signOf gives: a file's own one is kept in the
// list too, so each sign in the editor is matched with its bytes in order.
func isSign(r rune) bool { return r >= 0x2400 && r <= 0x241f || r == '\u2421' || r == substitute }

// editorText is a part's file as the editor holds it: every character
// signOf names as its sign, each byte that is not UTF-8 as ␦, and the
// list of the signs with what they stand for, in order (a sign the file
// itself holds included), to put the bytes back (fileText). n counts the
// characters replaced.
func editorText(src string) (text string, signs []stood, n int) {
	var b strings.Builder
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		orig := src[i : i+size]
		i += size
		sign, ok := signOf(r)
		switch {
		case ok:
			n++
			signs = append(signs, stood{sign, orig})
		case isSign(r):
			signs = append(signs, stood{r, orig})
		}
		if signs == nil {
			continue // nothing replaced yet: the text is src's prefix
		}
		if b.Len() == 0 {
			b.WriteString(src[:i-size])
		}
		b.WriteRune(sign)
	}
	if signs == nil {
		return src, nil, 0
	}
	return b.String(), signs, n
}

// fileText is the editor's text v with each sign put back as the bytes it
// stands for, when v holds the same signs in the same order as the file
// did (the learner typed around them); ok is false when they differ (a
// sign deleted or typed), and v is then returned as it is, signs and all.
func fileText(v string, signs []stood) (string, bool) {
	if len(signs) == 0 {
		return v, true
	}
	var b strings.Builder
	k := 0
	for _, r := range v {
		if !isSign(r) {
			b.WriteRune(r)
			continue
		}
		if k == len(signs) || signs[k].sign != r {
			return v, false
		}
		b.WriteString(signs[k].orig)
		k++
	}
	if k != len(signs) {
		return v, false
	}
	return b.String(), true
}

// typedRunes is what a key typed or pasted into the editor puts there: a
// bidirectional control or a line separator is left out, as the editor
// leaves out the other controls (it would reach the terminal as it is).
func typedRunes(rs []rune) []rune {
	out := rs[:0:0]
	for _, r := range rs {
		if shown.Bidi(r) || r == 0x2028 || r == 0x2029 {
			continue
		}
		out = append(out, r)
	}
	return out
}

// signsNote is the line under the editor for a part whose file holds
// control characters (n of them), "" for none; kept says whether the
// editor's text still holds their signs as they came.
func signsNote(part string, n int, kept bool) string {
	if n == 0 {
		return ""
	}
	what := itoa(int64(n)) + " control " + plural(n, "character", "characters")
	if !kept {
		return part + "'s file had " + what + ": a sign of them was changed, so they are saved as the signs shown (␛, ␦)"
	}
	return part + "'s file holds " + what + ", shown as signs (␛ is ESC, ␦ a bidi or other control): run and save keep the bytes"
}

// partFile is a part as it came to the editor (see Lab.files).
type partFile struct {
	src, text string
	signs     []stood
	controls  int
}

// source is the part's source for the editor's text v: the file's own
// bytes while v is the text it was opened with (a tab the editor shows as
// spaces stays a tab), else v with the signs put back (fileText).
func (f partFile) source(v string) string {
	if v == f.text {
		return f.src
	}
	src, _ := fileText(v, f.signs)
	return src
}

// loadPart puts src in part p's editor, its control characters as signs.
func (l *Lab) loadPart(p int, src string) {
	text, signs, n := editorText(src)
	l.parts[p].SetValue(text)
	l.files[p] = partFile{src: src, text: l.parts[p].Value(), signs: signs, controls: n}
}

// noteControls says, once, that a part's file holds control characters
// (the line under its editor says it while it is in view).
func (l *Lab) noteControls() {
	for p, f := range l.files {
		if f.controls > 0 {
			l.note = signsNote(labPartNames[p], f.controls, true)
			return
		}
	}
}
