package tui

import (
	"locksim/sim/simtest"
	"strings"
	"testing"
)

// TestClaimLeaseDeadlines: the active set shows each member's deadline as
// time left on the server's clock, not as a 13-digit score.
func TestClaimLeaseDeadlines(t *testing.T) {
	a := openScene(t, embedded(t), "claim-lease", 1, 80, 24, "nn")
	if v := a.View(); !strings.Contains(v, "j1 deadline in 30 s, j2 deadline in 30 s") || strings.Contains(v, "17672") {
		t.Errorf("the active set as shown:\n%s", v)
	}
	a = openScene(t, embedded(t), "claim-lease", 1, 80, 24, "nnnnn")
	if v := a.View(); !strings.Contains(v, "j1 deadline passed 5 s ago") {
		t.Errorf("the active set past the deadline:\n%s", v)
	}
}

// TestGoldensClaimLease: the two claims, the crash past the deadline, and
// the frozen worker's refused completion, at 80x24 and 120x40.
func TestGoldensClaimLease(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, presses string }{
		{"claim-lease", "nn"},
		{"claim-lease-overdue", "nnnnn"},
		{"claim-lease-refused", "fnnnnnnnnn"},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		for _, c := range cases {
			a := openScene(t, embedded(t), "claim-lease", 1, size.w, size.h, c.presses)
			golden(t, c.name+"-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
		}
	}
}
