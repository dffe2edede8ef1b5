package scenes

import (
	"slices"
	"testing"

	"locksim/sim"
)

// TestCrashGapFutureSaysNothing: the timeline shows, before the
// question, a mark for every move still to come; the moves from the
// question on must be the same wherever the crash falls, or their number
// tells whether s2 got the lock (before SETNX the story once had s2
// release it, a move no other crash point has).
func TestCrashGapFutureSaysNothing(t *testing.T) {
	sc := Find("crash-gap")
	var want []string
	for i, point := range gapPoints {
		moves := sc.Script(Params{gapKnob: i}).Moves
		var labels []string
		for _, m := range moves {
			labels = append(labels, sim.MoveLabel(m))
		}
		at := sc.PredictAt(labels)
		if at < 0 {
			t.Fatalf("%s: no question", point)
		}
		if i == 0 {
			want = labels[at:]
			continue
		}
		if !slices.Equal(labels[at:], want) {
			t.Errorf("the crash %s: the moves from the question on are %q, the crash %s's %q", point, labels[at:], gapPoints[0], want)
		}
	}
}
