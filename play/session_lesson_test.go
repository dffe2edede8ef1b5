package play

import (
	"testing"
	"time"

	"locksim/sim"
)

func TestPosAt(t *testing.T) {
	m, w := sim.Labeled("A", "a"), sim.Advance(time.Second)
	moves := []sim.Move{m, m, w, m, m, m, w, m}
	cases := []struct {
		waits, after int
		end          bool
		want         int
	}{
		{0, 0, false, 0}, {0, 2, false, 2}, {0, 5, false, 2}, // never past the next wait
		{1, 0, false, 3}, {1, 2, false, 5}, {2, 1, false, 8},
		{3, 0, false, 8}, // more waits than the story has: its end
		{0, 1, true, 8},
	}
	for _, c := range cases {
		if got := posAt(moves, c.waits, c.after, c.end); got != c.want {
			t.Errorf("posAt(%d waits, %d after, end %v) = %d, want %d", c.waits, c.after, c.end, got, c.want)
		}
	}
	for pos, want := range [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}, {2, 1}} {
		if w, a := momentOf(moves, pos); w != want[0] || a != want[1] {
			t.Errorf("momentOf(%d) = %d, %d; want %v", pos, w, a, want)
		}
	}
}
