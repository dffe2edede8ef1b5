package tui

import (
	"locksim/sim/simtest"
	"testing"
)

func TestGoldensReentrant(t *testing.T) {
	cases := []struct{ name, presses string }{
		{"reentrant-nested", "nnn"},
		{"reentrant-foreign", "nnnnn"},
		{"reentrant-end", "nnnnnnnnn"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openScene(t, embedded(t), "reentrant", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
