package tui

import (
	"strings"
	"testing"
)

// TestGoldensRedlock: the clock jump's two holders, and a node picked,
// stopped and its client cut off from the keyboard.
func TestGoldensRedlock(t *testing.T) {
	t.Parallel()
	jump := "kkkk" + strings.Repeat("n", 20)
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, c := range []struct{ name, presses string }{
			{"redlock-jump", jump},
			{"redlock-keys", "nnnnnnCs1Dunnnnn"},
		} {
			a := openScene(t, embedded(t), "redlock", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
