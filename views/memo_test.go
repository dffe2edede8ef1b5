package views

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestCardMemoRedraws: a CardMemo draws what Cards draws, frame after
// frame, as each thing a card is drawn from changes alone (a name, each
// line, a third line Cards does not show, the tone, the selection, the
// width, the number of cards) and back, and with another palette.
func TestCardMemoRedraws(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	colour := NewStyles(r, false)
	base := []Card{
		{Name: "A", Lines: []string{"token 1", "holds the lock"}, Tone: Good},
		{Name: "B", Lines: []string{"token 2", "waits"}},
	}
	edit := func(f func(c []Card)) []Card {
		c := make([]Card, len(base))
		for i := range base {
			c[i] = base[i]
			c[i].Lines = append([]string(nil), base[i].Lines...)
		}
		f(c)
		return c
	}
	frames := []struct {
		what  string
		cards []Card
		sel   int
		width int
		st    Styles
	}{
		{"first", base, -1, 80, colour},
		{"again", base, -1, 80, colour},
		{"a name", edit(func(c []Card) { c[1].Name = "C" }), -1, 80, colour},
		{"the first line", edit(func(c []Card) { c[0].Lines[0] = "token 3" }), -1, 80, colour},
		{"the second line", edit(func(c []Card) { c[0].Lines[1] = "lost the lock" }), -1, 80, colour},
		{"no lines", edit(func(c []Card) { c[1].Lines = nil }), -1, 80, colour},
		{"a third line", edit(func(c []Card) { c[1].Lines = append(c[1].Lines, "unseen") }), -1, 80, colour},
		{"the tone", edit(func(c []Card) { c[0].Tone = Bad }), -1, 80, colour},
		{"the selection", base, 1, 80, colour},
		{"the width", base, 1, 61, colour},
		{"one card more", append(edit(func([]Card) {}), Card{Name: "D"}), 1, 61, colour},
		{"back", base, -1, 80, colour},
		{"another palette", base, -1, 80, ASCII()},
		{"the palette back", base, 0, 80, colour},
	}
	var m CardMemo
	for _, f := range frames {
		if got, want := m.Draw(f.st, f.cards, f.sel, f.width), Cards(f.st, f.cards, f.sel, f.width); got != want {
			t.Errorf("%s: the memo drew\n%s\nCards draws\n%s", f.what, got, want)
		}
	}
}

// TestLogMemoRedraws: a LogMemo draws what Log draws as each thing a row
// is drawn from changes alone (each field of a line, the width, another
// line picked, which dims the rest) and back, scrolled, and with another
// palette.
func TestLogMemoRedraws(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	colour := NewStyles(r, false)
	base := []LogLine{
		{At: "+0.000s", Actor: "A", Text: "SET lock:res 6ae6783f NX PX 30000", Reply: "OK", Tone: Good},
		{At: "+0.001s", Actor: "B", Text: "SET lock:res 9c1f00aa NX PX 30000", Reply: "(nil)", Tone: Bad},
		{At: "+0.002s", Actor: "B", Reply: "(error) a reply long enough to take a row of its own", Cont: true},
	}
	edit := func(f func(l []LogLine)) []LogLine {
		l := append([]LogLine(nil), base...)
		f(l)
		return l
	}
	frames := []struct {
		what        string
		lines       []LogLine
		width, back int
		st          Styles
	}{
		{"first", base, 80, 0, colour},
		{"again", base, 80, 0, colour},
		{"the time", edit(func(l []LogLine) { l[0].At = "+1.000s" }), 80, 0, colour},
		{"the actor", edit(func(l []LogLine) { l[0].Actor = "C" }), 80, 0, colour},
		{"the command", edit(func(l []LogLine) { l[0].Text = "GET lock:res" }), 80, 0, colour},
		{"the reply", edit(func(l []LogLine) { l[1].Reply = "OK" }), 80, 0, colour},
		{"the tone", edit(func(l []LogLine) { l[1].Tone = Warn }), 80, 0, colour},
		{"picked", edit(func(l []LogLine) { l[0].Hi = true }), 80, 0, colour},
		{"dim", edit(func(l []LogLine) { l[1].Dim = true }), 80, 0, colour},
		{"carried on", edit(func(l []LogLine) { l[1].Cont = true }), 80, 0, colour},
		{"whole", edit(func(l []LogLine) { l[1].Whole = true }), 80, 0, colour},
		{"the width", base, 50, 0, colour},
		{"scrolled", base, 50, 1, colour}, // two rows, one back
		{"back", base, 80, 0, colour},
		{"another palette", base, 80, 0, ASCII()},
		{"the palette back", base, 80, 0, colour},
	}
	var m LogMemo
	for _, f := range frames {
		if got, want := m.Draw(f.st, f.lines, f.width, 3-f.back, f.back), Log(f.st, f.lines, f.width, 3-f.back, f.back); got != want {
			t.Errorf("%s: the memo drew\n%s\nLog draws\n%s", f.what, got, want)
		}
	}
}
