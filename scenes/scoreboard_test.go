package scenes

import (
	"testing"

	"locksim/scenes/say"
	"locksim/sim/ledger"
)

// TestPropOfEveryVerdict: each of the ledger's verdicts shows as its own
// mark on the scoreboard, whatever order either enum lists its values in.
func TestPropOfEveryVerdict(t *testing.T) {
	cases := []struct {
		v    ledger.Verdict
		want say.Prop
	}{
		{ledger.Untested, say.Untested},
		{ledger.Held, say.Held},
		{ledger.Broken, say.Broken},
		{ledger.Absent, say.Absent},
	}
	seen := map[say.Prop]ledger.Verdict{}
	for _, c := range cases {
		got := propOf(c.v)
		if got != c.want {
			t.Errorf("propOf(%d) = %d, want %d", c.v, got, c.want)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("verdicts %d and %d both show as %d", prev, c.v, got)
		}
		seen[got] = c.v
	}
	// the ledger's verdicts run from Untested to Absent: one past the last
	// is no verdict, and shows as untested rather than as some other mark
	if got := propOf(ledger.Absent + 1); got != say.Untested {
		t.Errorf("an unknown verdict shows as %d, want untested", got)
	}
}
