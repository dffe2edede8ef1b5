package play

import (
	"context"
	"encoding/json"
	"locksim/sim/simtest"
	"math/rand/v2"
	"slices"
	"testing"

	"locksim/scenes"
	"locksim/sim"
)

func embedded(t testing.TB) *sim.Backend { return simtest.Embedded(t) }

// replies are the run's events that carry a command, with their replies
// (on the nodes too), in order.
func replies(s sim.Snapshot) []string {
	var out []string
	for _, e := range s.Events {
		if e.Cmd != "" {
			out = append(out, e.Node+" "+e.Actor+" "+e.Cmd+" → "+e.Reply)
		}
	}
	return out
}

// TestOpenReplaysAWalk: a headless walk through every story (steps, the
// learner's own moves, a setting, an answer when asked) saved as a
// Position and opened on a fresh server gives the same replies, step and
// schedule.
func TestOpenReplaysAWalk(t *testing.T) {
	ctx := context.Background()
	for i, sc := range scenes.All() {
		if sc.Kind != scenes.Story {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			s, err := started(ctx, Position{Version: PositionVersion, Scene: sc.ID, Seed: 5}, embedded(t))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close(ctx)
			d := Driver{S: s}
			rng := rand.New(rand.NewPCG(uint64(i), 2))
			verbs := []Verb{Step, Step, Step, Back, Crash, Pause, Wait, Move}
			for range 12 {
				a := Do(verbs[rng.IntN(len(verbs))])
				switch {
				case s.Asking:
					a = DoN(Select, rng.IntN(max(len(s.Choices()), 1)))
				case a.Verb == Crash || a.Verb == Pause || a.Verb == Move:
					_ = d.Do(DoN(Select, rng.IntN(max(len(s.Snap.Actors), 1))))
				}
				_ = d.Do(a) // an own move on a crashed actor says why it cannot
			}
			data, err := json.Marshal(s.Position())
			if err != nil {
				t.Fatal(err)
			}
			pos, err := ParsePosition(data)
			if err != nil {
				t.Fatal(err)
			}
			o, err := started(ctx, pos, embedded(t))
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close(ctx)
			if o.Snap.Pos != s.Snap.Pos || len(o.Snap.Events) != len(s.Snap.Events) || !slices.Equal(o.Snap.Moves, s.Snap.Moves) || !slices.Equal(replies(o.Snap), replies(s.Snap)) {
				t.Errorf("%s opened at step %d of %v with\n%v\nwant step %d of %v with\n%v", data, o.Snap.Pos, o.Snap.Moves, replies(o.Snap),
					s.Snap.Pos, s.Snap.Moves, replies(s.Snap))
			}
			if len(pos.Own) == 0 && i%3 == 0 {
				t.Logf("%s: no own move in this walk", sc.ID)
			}
		})
	}
}
