package lab

import (
	"context"
	"testing"

	"locksim/sim"
	"locksim/sim/ledger"
)

// TestStoryReadsHashLockByReply: a lock kept in a hash (the table's
// reentrant lock) is not a string the story can read before and after a
// part, so the ledger reads its release by its reply, as before: A alone
// takes, enters again, leaves twice and is done, and no reading says the
// release left the key or re-timed it.
func TestStoryReadsHashLockByReply(t *testing.T) {
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
	for _, e := range snap.Events {
		if e.Actor == "A" && e.Kind == sim.Command {
			w := led.Reads[e.Seq].What
			got = append(got, e.Reply+" · "+string(w))
			if e.Op != nil && e.Op.Seen != nil {
				t.Errorf("%s: read before and after, though the key is a hash", e.Reply)
			}
			if w == ledger.RelLeft || w == ledger.RetimedOwn || w == ledger.ExtGaveUp {
				t.Errorf("%s read as %s", e.Reply, w)
			}
		}
	}
	t.Log(got)
	if len(got) < 4 {
		t.Fatalf("A's commands: %q", got)
	}
}
