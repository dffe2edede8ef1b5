package tui

import (
	"locksim/views"
	"strings"
	"testing"
)

// TestPausedHolderReadoutStatesOnlyTheTTL: in gc-pause, before the question
// (what does B's SET get at 32 s?), the readout of the frozen holder states
// the fact on screen, its key's TTL left, and not the inference the
// question asks for: it said "Its lease keeps running on the server", the
// reasoning that the TTL runs out while A sleeps.
func TestPausedHolderReadoutStatesOnlyTheTTL(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "gc-pause"}, "")
	seen := false
	for i := 0; i < 12 && !a.pl.Asking; i++ {
		drive(t, a, keys("n")...)
		v := strings.Join(strings.Fields(views.Strip(a.View())), " ")
		for _, tells := range []string{"keeps running", "lease runs on", "will expire"} {
			if strings.Contains(v, tells) {
				t.Errorf("step %d, before the question: the screen says %q:\n%s", a.pl.Snap.Pos, tells, a.View())
			}
		}
		seen = seen || strings.Contains(v, "ms of TTL left")
	}
	if !a.pl.Asking || !seen {
		t.Errorf("gc-pause should reach its question (%v) with the frozen holder's TTL left read out (%v):\n%s", a.pl.Asking, seen, a.View())
	}
}
