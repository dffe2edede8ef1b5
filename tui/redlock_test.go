package tui

import (
	"locksim/sim/simtest"
	"locksim/views"
	"strings"
	"testing"
)

// TestGoldensRedlock: the clock jump's two holders, and a node picked,
// stopped and its client cut off from the keyboard.
func TestGoldensRedlock(t *testing.T) {
	t.Parallel()
	jump := "kkkk" + strings.Repeat("n", 20)
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range []struct{ name, presses string }{
			{"redlock-jump", jump},
			{"redlock-keys", "nnnnnnCs1Dunnnnn"},
		} {
			a := openScene(t, embedded(t), "redlock", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}

// TestRedlockTwoDownCounts: in "2 down", c1's third OK is read as the
// third vote, not as one node that is not the lock, and once D and E
// have both refused its connection its card names both.
func TestRedlockTwoDownCounts(t *testing.T) {
	a := openScene(t, embedded(t), "redlock", 1, 80, 24, "nnnnnn")
	v := rowsJoined(views.Strip(a.View()))
	if !strings.Contains(v, "c1's SET on node C answered OK at +0.000s (3 OKs so far)") || strings.Contains(v, "One node is not the lock") {
		t.Errorf("c1's third OK should be read as its third vote:\n%s", a.View())
	}
	drive(t, a, keys("nn")...)
	v = views.Strip(a.View())
	if !strings.Contains(v, "│ D and E failed ") {
		t.Errorf("c1's card should name both nodes that failed:\n%s", v)
	}
}
