package scenes

import (
	"testing"

	"locksim/sim"
)

// Keys named after the worker: both SETs answer OK on keys of their own,
// the ledger sees two holders of order 42 and the resource takes both
// writes. Named after the order: the second SET gets (nil) on the same key
// and only one write lands.
func TestKeyNamingReplies(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		for _, c := range []struct {
			setting    int
			keys, sets []string
			writes     int64
			overlaps   int
		}{
			{0, []string{"lock:worker-1", "lock:worker-2"}, []string{"OK", "OK"}, 2, 1},
			{1, []string{"lock:order:42", "lock:order:42"}, []string{"OK", "(nil)"}, 1, 0},
		} {
			pl := playStory(t, b, "key-naming", Params{namingKnob: c.setting}, 1)
			for i, w := range []string{"w1", "w2"} {
				set := sent(pl.run.Events, w, "SET")
				if len(set) != 1 || set[0].Args[1] != b.Key(c.keys[i]) || set[0].Reply != c.sets[i] {
					t.Fatalf("setting %d: %s's SET: %v %v, want %s → %s", c.setting, w, set, replies(set), c.keys[i], c.sets[i])
				}
				if set[0].Op.Lock != namingLock {
					t.Errorf("%s's SET guards %q, want %q", w, set[0].Op.Lock, namingLock)
				}
			}
			if r := pl.snap.Resource; r == nil || r.Accepted != c.writes {
				t.Errorf("setting %d: the resource took %+v, want %d writes", c.setting, pl.snap.Resource, c.writes)
			}
			if len(pl.led.Overlaps) != c.overlaps {
				t.Fatalf("setting %d: %d overlaps, want %d", c.setting, len(pl.led.Overlaps), c.overlaps)
			}
			if c.overlaps > 0 {
				o := pl.led.Overlaps[0]
				if o.Lock != namingLock || o.First.Actor != "w1" || o.Second.Actor != "w2" || o.First.Lease.Key == o.Second.Lease.Key {
					t.Errorf("overlap %+v: want w1 and w2 on two keys of %s", o, namingLock)
				}
			} else if len(pl.led.Refusals) != 1 || pl.led.Refusals[0].Actor != "w2" {
				t.Errorf("refusals %+v: want w2's", pl.led.Refusals)
			}
			for _, k := range pl.snap.Keys {
				if k.Exists() {
					t.Errorf("setting %d: %s left behind: %+v", c.setting, k.Name, k)
				}
			}
		}
	})
}
