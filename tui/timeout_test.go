package tui

import (
	"locksim/sim/simtest"
	"testing"
)

// TestGoldensTimeout draws the scene at 80x24 and 120x40: the herd as H
// lets go, its end, the winner selected, the jittered end, and blocking for
// ever a second longer.
func TestGoldensTimeout(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, presses string }{
		{"timeout-lockstep", "nnnnnn"},
		{"timeout-end", "nnnnnnn"},
		{"timeout-winner", "nnnnnnn2"},
		{"timeout-jitter", "mnnnnnnn"},
		{"timeout-block", "mmnnnnnnnw"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openScene(t, embedded(t), "timeout", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
