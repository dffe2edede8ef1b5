// Package views draws locksim's screens: lipgloss styles, the key map and
// pure render functions of plain data. It never talks to Redis.
package views

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Styles are the colours and borders every render function shares, all
// from one renderer (R): one session's terminal, never the process's.
type Styles struct {
	Title, Dim, Bold, Good, Bad, Warn, Accent, Key lipgloss.Style
	Card, CardSel                                  lipgloss.Style
	Rule                                           lipgloss.Style
	// Plain is R's unstyled style: text wrapped and measured by it.
	Plain lipgloss.Style
	R     *lipgloss.Renderer
}

// ASCII returns the palette on a renderer of its own that draws no colour
// and writes nowhere: for tests, and for text with no terminal behind it.
func ASCII() Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	r.SetHasDarkBackground(true)
	return NewStyles(r, false)
}

// NewStyles returns the palette drawn by r, which knows its own output's
// colour profile (NO_COLOR included) and background; a second screen (a
// session served over SSH) passes its own. Colours adapt to light and dark
// backgrounds; highContrast trades the soft tones for the strongest ones,
// for a washed-out projector. Every state is also said in words or glyphs,
// so nothing rests on colour alone.
func NewStyles(r *lipgloss.Renderer, highContrast bool) Styles {
	c := func(light, dark string) lipgloss.TerminalColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	pink, dim, good, bad, warn, accent, border := c("#8B008B", "213"), c("#555555", "245"), c("#006400", "42"),
		c("#B00000", "203"), c("#8A4B00", "214"), c("#005F87", "81"), c("#777777", "240")
	if highContrast {
		pink, dim, good, bad, warn, accent, border = c("#000000", "15"), c("#000000", "252"), c("#004000", "10"),
			c("#800000", "9"), c("#603000", "11"), c("#00005F", "14"), c("#000000", "15")
	}
	s := r.NewStyle
	return Styles{
		Title:   s().Bold(true).Foreground(pink),
		Dim:     s().Foreground(dim),
		Bold:    s().Bold(true),
		Good:    s().Foreground(good).Bold(true),
		Bad:     s().Foreground(bad).Bold(true),
		Warn:    s().Foreground(warn).Bold(highContrast),
		Accent:  s().Foreground(accent),
		Key:     s().Foreground(accent).Bold(true),
		Card:    s().Border(lipgloss.RoundedBorder()).BorderForeground(border).Padding(0, 1),
		CardSel: s().Border(lipgloss.ThickBorder()).BorderForeground(pink).Padding(0, 1),
		Rule:    s().Foreground(border),
		Plain:   s(),
		R:       r,
	}
}
