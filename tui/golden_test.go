package tui

import (
	"locksim/sim/simtest"
	"testing"
)

// TestGoldens draws every story scene at fixed points, at 80x24 and at
// 120x40, and compares the screens with testdata/*.golden. The race has
// its own (its winner is a real race). go test ./tui -update rewrites them
// (with -tags slow, the 120x40 ones: the quick tier draws the 80x24
// goldens here and in the scenes' and lab's golden tests, the slow tier
// the 120x40).
func TestGoldens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, id, presses string
	}{
		{"options", "options", "nnnnn"},
		{"options-lapsed", "options", "nnnnnnn"},
		{"options-constant", "options", "Tnnnnnnnnn"},
		{"crash-gap", "crash-gap", "nnnnnnnn"},
		{"crash-gap-s1", "crash-gap", "nnnnnnnn3"},
		{"crash-gap-after", "crash-gap", "cnnnnnnnn"},
		{"crash-gap-before-end", "crash-gap", "ccnnnnnnnnnnnn"},
		{"release", "release", "nnnnn"},
		{"release-script", "release", "mmnnnn1"},
		{"gc-pause-frozen", "gc-pause", "nnn"},
		{"gc-pause", "gc-pause", "nnnnnnnn"},
		{"fencing", "fencing", "nnnnnn"},
		{"fencing-rejected", "fencing", "nnnnnnnn"},
		{"fencing-end", "fencing", "nnnnnnnnnn"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openScene(t, embedded(t), c.id, 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
