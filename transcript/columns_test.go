package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestNarrowColumns: a line of printable ASCII and the signs narrow
// names, in any mix, is wider than a width when ansi.StringWidth says
// so, and so is a line with another sign (the fallback), or a narrow one
// joined by a mark that extends it.
func TestNarrowColumns(t *testing.T) {
	for _, s := range []string{
		"t=+0.000s w1> SET resource:lock 6ae6 NX PX 30000 → OK",
		"resource:lock = \"6ae6\" · PTTL 30000",
		"→←·×…§", "a→b", "§ 3", "x…", "·→", "÷ 20 × 3", "é · e\u0301", "→\u0301 ·", "→\u200d→", "日本 · x", "日 · x", "→本",
	} {
		for width := range len(s) + 2 {
			if got, want := wider(s, width), ansi.StringWidth(s) > width; got != want {
				t.Errorf("wider(%q, %d) = %t, ansi.StringWidth %d", s, width, got, ansi.StringWidth(s))
			}
		}
	}
	for _, r := range "→←·×…§" {
		if !narrow(r) {
			t.Fatalf("%q is not narrow", r)
		}
		for _, s := range []string{string(r), "a" + string(r) + "b", string(r) + string(r)} {
			for width := range 4 {
				if got, want := wider(s, width), ansi.StringWidth(s) > width; got != want {
					t.Errorf("wider(%q, %d) = %t, ansi.StringWidth %d", s, width, got, ansi.StringWidth(s))
				}
			}
		}
	}
	// breakAt counts a narrow sign's column as it counts a letter's: it
	// breaks where it would if each were measured by ansi.StringWidth
	line := "t=+0.000s w1> SET resource:lock 6ae6… NX PX 30000 → OK · §1 × 2 ← ok"
	for width := 1; width <= len(line); width++ {
		if got, want := breakAt(line, width), breakAtMeasured(line, width); got != want {
			t.Errorf("breakAt(%q, %d) = %d, measured %d", line, width, got, want)
		}
	}
}

// breakAtMeasured is breakAt with every rune measured by ansi.StringWidth.
func breakAtMeasured(line string, width int) int {
	cols, last, hard := 0, -1, len(line)
	blank := true
	for i, r := range line {
		cols += ansi.StringWidth(string(r))
		if cols > width {
			hard = i
			break
		}
		if r == ' ' && !blank {
			last = i
		}
		blank = blank && r == ' '
	}
	if last > 0 {
		return last
	}
	return max(hard, 1)
}

// TestOneLine: a line handoutLine leaves as it is, strings.Fields and a
// join by one space leave as it is too, and one they change is not left.
func TestOneLine(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", "a b · c → d", " a", "a ", "a  b", "a\nb", "a\tb", "a\u00a0b", "a\u2003b", "a\u0085b",
		"→ x", "x →", "a \u3000", "§ 1 × 2", "a\r\nb",
	} {
		want := strings.Join(strings.Fields(s), " ")
		if got := handoutLine(s); got != want {
			t.Errorf("handoutLine(%q) = %q, want %q", s, got, want)
		}
		if oneLine(s) != (s == want) {
			t.Errorf("oneLine(%q) = %t, Fields makes %q of it", s, oneLine(s), want)
		}
	}
}
