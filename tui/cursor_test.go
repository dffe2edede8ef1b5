package tui

import (
	"io"
	"strings"
	"testing"

	"locksim/views"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestCursorMarkedWithoutColour: the lab's cursor is reverse video where
// the screen has colour, and without it (-no-color, NO_COLOR: the ASCII
// profile, which draws no attribute) its cell is marked instead, one
// cell wide: a block on a blank, a low line under a character.
func TestCursorMarkedWithoutColour(t *testing.T) {
	for _, c := range []struct {
		profile     termenv.Profile
		blank, char string
	}{
		{termenv.Ascii, "█", "x\u0332"},
		{termenv.ANSI, "\x1b[7m \x1b[0m", "\x1b[7mx\x1b[0m"},
	} {
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(c.profile)
		s := cursorStyle(views.NewStyles(r, false)).Inline(true).Reverse(true)
		if got := s.Render(" "); got != c.blank {
			t.Errorf("profile %v: the cursor on a blank is %q, want %q", c.profile, got, c.blank)
		}
		if got := s.Render("x"); got != c.char {
			t.Errorf("profile %v: the cursor on x is %q, want %q", c.profile, got, c.char)
		}
		if c.profile == termenv.Ascii && strings.Contains(s.Render("x"), "\x1b") {
			t.Errorf("the ASCII profile sent an escape")
		}
	}
}
