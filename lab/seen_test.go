package lab

import (
	"context"
	"testing"

	"locksim/sim"
	"locksim/sim/ledger"
)

// TestStoryReadsHashLock: a lock kept in a hash of one field (the table's
// reentrant lock, its holder's token counting its acquires) is read before
// and after each release as that field: A alone takes, enters again,
// leaves twice and is done. Its nested release leaves the key A's (read
// as kept, not as a release that left the key: A still holds its outer
// acquire), its outer release deletes it, and A acts as holder until that
// outer release and no longer.
func TestStoryReadsHashLock(t *testing.T) {
	l, err := Load("testdata/table/reentrant")
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Cleanup(func() { _ = b.Close(ctx) })
	r := sim.NewRun(b, HandScene(l, 2).Script(nil), 3)
	t.Cleanup(r.Close)
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if err := r.Insert(ctx, sim.StepOf("A")); err != nil {
			t.Fatal(err)
		}
	}
	snap := r.Snapshot(ctx)
	led := ledger.Fold(snap.Events, snap.Now, nil)
	var got []string
	var releases []sim.Event
	for _, e := range snap.Events {
		if e.Actor == "A" && e.Kind == sim.Command {
			w := led.Reads[e.Seq].What
			got = append(got, e.Reply+" · "+string(w))
			if e.Op != nil && e.Op.Kind == sim.OpRelease {
				releases = append(releases, e)
			}
			if w == ledger.RelLeft || w == ledger.RetimedOwn || w == ledger.ExtGaveUp {
				t.Errorf("%s read as %s", e.Reply, w)
			}
		}
	}
	if len(releases) != 2 {
		t.Fatalf("A's commands: %q", got)
	}
	nested, outer := releases[0], releases[1]
	if !nested.Op.Nested || outer.Op.Nested || nested.Op.Seen == nil || outer.Op.Seen == nil {
		t.Errorf("the releases: nested %v, %v; read before and after: %v, %v", nested.Op.Nested, outer.Op.Nested, nested.Op.Seen, outer.Op.Seen)
	}
	if a, b := led.Reads[nested.Seq].What, led.Reads[outer.Seq].What; a != ledger.RelKept || b != ledger.ReleasedOwn {
		t.Errorf("the nested release read as %s, the outer as %s: %q", a, b, got)
	}
	// the nested acquire reads as a grant of its own, which takes over
	// from the first: A's last hold ends at the outer release, none at the
	// nested one
	last := -1
	for _, h := range led.Holds {
		if h.Actor != "A" {
			continue
		}
		if h.To == nested.Seq {
			t.Errorf("A's hold from event %d ended at its nested release", h.From)
		}
		last = h.To
	}
	if last != outer.Seq {
		t.Errorf("A's last hold ended at event %d, not at its outer release %d", last, outer.Seq)
	}
}
