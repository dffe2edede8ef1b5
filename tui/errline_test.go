package tui

import (
	"strings"
	"testing"
)

// TestPlayerErrorLineShowsControls: the player's error line draws a
// control or bidi character of its text shown, not obeyed (shown.Text):
// the text may be a live server's own words (the keys' read-back error,
// sim.Snapshot.Err), which an ESC in would have the terminal obey.
func TestPlayerErrorLineShowsControls(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "")
	a.pl.SetErr("ERR \x1b]0;PWNED\a\x1b[31mred \u202erev")
	v := a.View()
	if !strings.Contains(v, "error: ERR ") {
		t.Fatalf("the error line is not on screen:\n%s", v)
	}
	for _, bad := range []string{"\x1b]0;", "PWNED\a", "\x1b[31mred", "\u202e"} {
		if strings.Contains(v, bad) {
			t.Errorf("the error line sends %q:\n%s", bad, v)
		}
	}
}
