package tui

import (
	"io"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"locksim/views"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// TestOneLineIsRender: views.OneLine draws what Render draws, with every
// style of the palette (a card's frame, a width and a padding too), on
// every colour profile and background, for texts of one line and more,
// with tabs, marks and wide characters.
func TestOneLineIsRender(t *testing.T) {
	texts := []string{"", " ", "a", "verdict ", "── readout ───────", "a\tb", "a\nb", "a\r\nb", "\n", "é wide 日本 ✓",
		"  two  spaces  ", "\x1b[1mbold\x1b[0m x", "trailing\n"}
	// each profile draws colours its own way; the backgrounds and the
	// contrast pick other colours of one way
	for _, c := range []struct {
		p          termenv.Profile
		dark, high bool
	}{{termenv.Ascii, true, false}, {termenv.ANSI, true, false}, {termenv.ANSI256, false, true}, {termenv.TrueColor, true, false}, {termenv.TrueColor, false, true}} {
		p, dark, high := c.p, c.dark, c.high
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(p)
		r.SetHasDarkBackground(dark)
		st := views.NewStyles(r, high)
		v := reflect.ValueOf(st)
		styles := []lipgloss.Style{st.Plain.Width(12), st.Bold.Padding(0, 1), st.Dim.Margin(1), st.Plain.Underline(true), st.Plain.Reverse(true),
			st.Warn.MaxWidth(5), st.Plain.Inline(true), st.Plain.Border(lipgloss.NormalBorder()), st.Bold.BorderTop(true), st.Plain.MarginBackground(lipgloss.Color("1"))}
		for i := range v.NumField() {
			if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
				styles = append(styles, s)
			}
		}
		for i, s := range styles {
			for _, text := range texts {
				if got, want := views.OneLine(s, text), s.Render(text); got != want {
					t.Errorf("profile %v, dark %v, style %d: OneLine(%q) = %q, Render gives %q", p, dark, i, text, got, want)
				}
			}
		}
	}
}

// TestJoinIsTheRegexp: views.Join replaces what its regexp finds, as
// the regexp's ReplaceAllStringFunc did, on strings of up to eight characters drawn
// at random from those the regexp reads.
func TestJoinIsTheRegexp(t *testing.T) {
	unbroken := regexp.MustCompile(`(^|[\s(])-([0-9])|\b(PX|EX|PXAT|EXAT) ([0-9])`)
	want := func(text string) string {
		return unbroken.ReplaceAllStringFunc(text, func(m string) string {
			if strings.HasSuffix(m[:len(m)-1], "-") {
				return m[:len(m)-2] + "\u2011" + m[len(m)-1:]
			}
			return strings.Replace(m, " ", "\u00a0", 1)
		})
	}
	alphabet := []string{"-", "1", "P", "X", "E", "A", "T", " ", "(", "a", "\t", "\n", "_", "é", "PX ", "EXAT "}
	r := rand.New(rand.NewPCG(5, 6))
	texts := []string{"SET k v PX 30000", "PTTL -2 and (-1 ms)", "-5 x", "EXAT 17 PXAT 1 aPX 1", "x -- -7", "é-1 _PX 1"}
	for range 4000 {
		s := ""
		for range r.IntN(9) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, s)
	}
	for _, s := range texts {
		if got, w := views.Join(s), want(s); got != w {
			t.Fatalf("Join(%q) = %q, the regexp gives %q", s, got, w)
		}
	}
}

// TestStripIsAnsiStrip: views.Strip is ansi.Strip, on strings drawn from
// printable ASCII, newlines, tabs, controls, DEL, escape sequences, wide
// and combining characters, a C1 control as UTF-8 and bytes that are no
// UTF-8.
func TestStripIsAnsiStrip(t *testing.T) {
	alphabet := []string{"a", " ", "~", "\n", "\t", "\r", "\x00", "\x7f", "\x1b[1m", "\x1b[0m", "\x1b]8;;x\x07", "\x1b",
		"é", "日", "e\u0301", "\u0085", "\xc2", "\x9b", "\xff", "─", "✓"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		s := ""
		for range r.IntN(9) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		if got, want := views.Strip(s), ansi.Strip(s); got != want {
			t.Fatalf("Strip(%q) = %q, ansi.Strip gives %q", s, got, want)
		}
	}
}
