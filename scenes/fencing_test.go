package scenes

import (
	"strings"
	"testing"

	"locksim/sim"
)

// Correction 1: the fencing token comes from the grant's own script, so tokens rise in
// grant order; no separate INCR is sent.
func TestFenceTokenWithTheGrant(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		pl := playStory(t, b, "fencing", Params{}, 1)
		a, bb := sent(pl.run.Events, "A", "EVAL"), sent(pl.run.Events, "B", "EVAL")
		if len(a) == 0 || a[0].Reply != "(integer) 33" || !strings.Contains(a[0].Cmd, "<acquire-fenced>") {
			t.Fatalf("A's acquire: %v", replies(a))
		}
		if len(bb) == 0 || bb[0].Reply != "(integer) 34" {
			t.Fatalf("B's acquire: %v", replies(bb))
		}
		for _, e := range pl.run.Events {
			if len(e.Args) > 0 && e.Args[0] == "INCR" {
				t.Errorf("a separate INCR was sent: %s", e.Cmd)
			}
		}
		if pl.led.Leases[0].Fence != 33 || pl.led.Leases[1].Fence != 34 {
			t.Errorf("fences in grant order: %d, %d", pl.led.Leases[0].Fence, pl.led.Leases[1].Fence)
		}
	})
}
