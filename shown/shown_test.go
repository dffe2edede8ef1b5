package shown

import "testing"

// TestText: Text shows every control character but \n, \t, \f and \r (C0
// as its control picture, DEL as ␡, C1 as U+FFFD), every bidirectional
// control and the separators U+2028 and U+2029 as U+FFFD, and invalid
// UTF-8 as U+FFFD, and keeps every other text as it is (a zero-width
// joiner too: an emoji's sequence needs it).
func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"plain 漢 👍🏽 \uFFFD":        "plain 漢 👍🏽 \uFFFD",
		"👩\u200d💻":                 "👩\u200d💻",
		"a\n\tb\f\rc":              "a\n\tb\f\rc",
		"\x1b[2J":                  "␛[2J",
		"\x00\x07\x08\v\x1f\x7f":   "␀␇␈␋␟␡",
		"\u0080\u009b\u009f\u00a0": "\uFFFD\uFFFD\uFFFD\u00a0",
		"\xff\xfe x \xc2":          "\uFFFD x \uFFFD",
		"ann\u202egnp.exe":         "ann\uFFFDgnp.exe",
		"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c": "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD",
		"a\u2028b\u2029c": "a\uFFFDb\uFFFDc",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLine: Line shows \n, \t, \f and \r as their control pictures too,
// and everything else as Text does.
func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"ann":              "ann",
		"a\n\tb\f\rc":      "a␊␉b␌␍c",
		"bob\u2067x\u2069": "bob\uFFFDx\uFFFD",
		"\x1b[2J\xff":      "␛[2J\uFFFD",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}
