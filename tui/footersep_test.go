package tui

import (
	"strings"
	"testing"
)

// TestFootersShareOneSeparator: a scene's footer (Bubbles' help model)
// separates its keys as every other page's line does, with " · "
// (views.KeySep), never the help model's own " • ": the contents, the
// race at its question, then answered (the help model's line).
func TestFootersShareOneSeparator(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1}, "")
	for _, presses := range []string{"", "[enter]", "1", "[right][right]"} {
		drive(t, a, keys(presses)...)
		footer := footerOf(a.View())
		if strings.Contains(footer, "•") || !strings.Contains(footer, " · ") {
			t.Errorf("after %q the footer is %q: want its keys separated by \" · \" alone", presses, footer)
		}
	}
}
