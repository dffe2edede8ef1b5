package storycode

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"locksim/lab"
	"locksim/scenes"
	"locksim/sim"
)

// TestLabPlayedAsPlayed: a lab story comes with its story as the play
// that found its question ended (lab.Break.VetStory), and its fingerprint
// hashes that instead of playing the story again: the same events, move labels
// and fingerprint as the story played from its start as the fingerprint
// plays it, for each break of the lab's levels within a small bound (a
// foreign release, a deadlock-freedom break with its probe, two clients
// acting as holder at once ...).
func TestLabPlayedAsPlayed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	seen, probes := 0, 0
	for _, lv := range lab.Levels() {
		l := lv.Lock
		l.Policy.Bound = lab.Bound{Clients: 2, Faults: 1, Depth: 8, MaxSchedules: 10_000}
		rep, err := lab.Check(ctx, &l, lab.Options{})
		if err != nil {
			t.Fatalf("%s: %v", lv.ID, err)
		}
		for _, v := range rep.Judgements {
			if v.Break == nil {
				continue
			}
			sc, played, err := v.Break.VetStory(ctx)
			if err != nil {
				t.Fatalf("%s %s: %v", lv.ID, v.Property, err)
			}
			if played == nil {
				t.Fatalf("%s %s: the scene comes with no played story", lv.ID, v.Property)
			}
			seen++
			if v.Break.Probe {
				probes++
			}
			b, err := sim.OpenEmbedded()
			if err != nil {
				t.Fatal(err)
			}
			events, moves, err := playStory(ctx, b, sc, storyPosition(sc, scenes.Params{}))
			_ = b.Close(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(moves, played.Moves) || lines(events) != lines(played.Events) {
				t.Errorf("%s %s: the story as its question's play ended:\n%q\n%s\nas the fingerprint plays it:\n%q\n%s",
					lv.ID, v.Property, played.Moves, lines(played.Events), moves, lines(events))
			}
			got, err := computeFingerprint(sc, played)
			if err != nil {
				t.Fatal(err)
			}
			want, err := computeFingerprint(sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s %s: fingerprint %x of the played story, %x played again", lv.ID, v.Property, got, want)
			}
		}
	}
	t.Logf("%d breaks, %d with a probe", seen, probes)
	if seen < 6 || probes == 0 {
		t.Errorf("%d breaks, %d with a probe: the levels should give six or more, one with a probe", seen, probes)
	}
}

// lines is eventLine of each event, with its times to the nanosecond.
func lines(es []sim.Event) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s %d %d\n", eventLine(e), e.At, e.Due)
	}
	return b.String()
}
