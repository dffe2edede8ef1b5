package tui

import (
	"locksim/sim/simtest"
	"strings"
	"testing"
)

// TestExtendReadouts: the readout after the wake says the watchdog
// stopped while A still acts as holder; a running watchdog is on the card.
func TestExtendReadouts(t *testing.T) {
	a := openScene(t, embedded(t), "extend", 1, 80, 24, "nnnn")
	if v := a.View(); !strings.Contains(v, "watchdog frozen") || !strings.Contains(v, "FROZEN") {
		t.Errorf("the frozen holder's card should show its watchdog frozen:\n%s", v)
	}
	drive(t, a, keys("nnn")...)
	v := strings.Join(strings.Fields(a.View()), " ")
	for _, want := range []string{"got (integer) 0", "stops for good", "still acts as holder", "thinks holder ✗", "watchdog stopped"} {
		if !strings.Contains(v, want) {
			t.Errorf("after the wake the screen should say %q:\n%s", want, a.View())
		}
	}
}

// TestGoldensExtend draws the extend scene at its turning points.
func TestGoldensExtend(t *testing.T) {
	cases := []struct{ name, presses string }{
		{"extend-renewed", "nn"},
		{"extend-frozen", "nnnn"},
		{"extend-woke", "nnnnnnn"},
		{"extend-stale", "ssnnnnnnn"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openScene(t, embedded(t), "extend", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
