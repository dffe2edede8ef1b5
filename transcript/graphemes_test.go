package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// graphemes are s's grapheme clusters, as ansi.StringWidth reads them.
func graphemes(s string) []string {
	var out []string
	for s != "" {
		c, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		out = append(out, c)
		s = s[len(c):]
	}
	return out
}

// TestBreakAtGraphemes: wrapColumns breaks a line grapheme by grapheme,
// measured as ansi.StringWidth measures it: a skin tone, a joined emoji,
// a flag, a combining mark stay with their character (breakAt measured
// code points: 👍🏽 was cut between its runes), a character made wide by a
// variation selector counts two columns (❤️ counted one and its row
// overflowed), and every row fits width or is one character alone.
func TestBreakAtGraphemes(t *testing.T) {
	for _, c := range []struct {
		line  string
		width int
		want  string
	}{
		{"👍🏽👍🏽", 2, "👍🏽\n👍🏽"},
		{"👩\u200d💻x", 2, "👩\u200d💻\nx"},
		{"ab❤\ufe0f cd", 3, "ab\n❤\ufe0f\ncd"},
		{"🇫🇷🇩🇪", 2, "🇫🇷\n🇩🇪"},
		{"e\u0301e\u0301e\u0301", 2, "e\u0301e\u0301\ne\u0301"},
		{"ab 👍🏽 cd", 4, "ab\n👍🏽\ncd"},
		{"t=+0.000s w1> SET k 👍🏽👍🏽 → OK", 16, "t=+0.000s w1>\n    SET k 👍🏽👍🏽\n    → OK"},
	} {
		got := wrapColumns(c.line, c.width)
		if got != c.want {
			t.Errorf("wrapColumns(%q, %d) = %q, want %q", c.line, c.width, got, c.want)
		}
		for _, row := range strings.Split(got, "\n") {
			if ansi.StringWidth(row) > c.width && len(graphemes(strings.TrimSpace(row))) > 1 {
				t.Errorf("wrapColumns(%q, %d): row %q is %d columns", c.line, c.width, row, ansi.StringWidth(row))
			}
		}
		if g, w := strings.Join(graphemes(strings.Join(strings.Fields(got), "")), "|"), strings.Join(graphemes(strings.Join(strings.Fields(c.line), "")), "|"); g != w {
			t.Errorf("wrapColumns(%q, %d) cut a character: %s, want %s", c.line, c.width, g, w)
		}
	}
}
