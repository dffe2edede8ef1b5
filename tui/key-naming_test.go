package tui

import (
	"locksim/sim/simtest"
	"testing"
)

func TestGoldensKeyNaming(t *testing.T) {
	cases := []struct{ name, presses string }{
		{"key-naming-worker", "nnnnn"},
		{"key-naming-order", "knn"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openScene(t, embedded(t), "key-naming", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
