package scenes

import (
	"context"
	"strings"
	"testing"

	"locksim/sim"
	"locksim/sim/ledger"
)

// hashAt plays the reentrant story to pos moves and reads resource:lock
// back: the hash's fields (holder id → count) and its PTTL in story ms.
func hashAt(t *testing.T, run *sim.Run, pos int) (map[string]string, int64, sim.Snapshot) {
	t.Helper()
	ctx := context.Background()
	if err := run.Seek(ctx, pos); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" || len(snap.Keys) != 1 {
		t.Fatalf("reading back: %q %+v", snap.Err, snap.Keys)
	}
	k := snap.Keys[0]
	fields := map[string]string{}
	for _, f := range k.Fields {
		fields[f.Name] = f.Value
	}
	if k.Exists() && k.Type != "hash" {
		t.Fatalf("%s is a %s, want a hash", k.Name, k.Type)
	}
	return fields, Frame{Snap: snap}.storyMS(k.PTTL), snap
}

// The count goes 1, 2, 1, 0 and the key is gone at 0; B's holder id is
// refused while A's count is above zero, and B's unlock is refused with an
// error reply that leaves A's hash as it was. Each reply is the server's.
func TestReentrantCounts(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		run := sim.NewRun(b, Find("reentrant").Script(Params{}), 1)
		defer run.Close()
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		defer run.Clear(ctx)
		a := run.Actor("A").Token
		labels := run.Snapshot(ctx).Moves
		want := []struct {
			label, count string
			reply        string
		}{
			{"A enters outer()", "1", "(integer) 1"},
			{"A enters inner()", "2", "(integer) 2"},
			{"B tries the lock", "2", "(nil)"},
			{"B unlocks anyway", "2", "(error) NOTHELD"},
			{"A leaves inner()", "1", "(integer) 1"},
			{"A leaves outer()", "", "(integer) 0"},
		}
		for _, w := range want {
			pos := -1
			for i, l := range labels {
				if l == w.label {
					pos = i
				}
			}
			if pos < 0 {
				t.Fatalf("no move %q in %v", w.label, labels)
			}
			fields, pttl, snap := hashAt(t, run, pos+1)
			// the move's own script call, not whatever came last (on a
			// live server a stall note may follow it)
			var call sim.Event
			for _, e := range snap.Events {
				if e.Kind == sim.Command && e.Move == pos && strings.Contains(e.Cmd, "<reentrant-") {
					call = e
				}
			}
			if !strings.HasPrefix(call.Reply, w.reply) {
				t.Errorf("%s: %s → %s, want %s", w.label, call.Cmd, call.Reply, w.reply)
			}
			switch {
			case w.count == "" && (len(fields) != 0 || pttl != -2):
				t.Errorf("%s: the key should be gone, reads %v PTTL %d", w.label, fields, pttl)
			case w.count != "" && (len(fields) != 1 || fields[a] != w.count):
				t.Errorf("%s: hash %v, want only A's id at %s", w.label, fields, w.count)
			}
			// the nested acquire restarted the TTL 10 s into the lease
			if w.label == "A enters inner()" && pttl < 25000 {
				t.Errorf("after the nested acquire PTTL is %d story ms: the TTL did not restart", pttl)
			}
		}
		led := Fold(run.Snapshot(ctx))
		if len(led.Leases) != 1 || led.Leases[0].End != ledger.Released || len(led.Holds) != 1 || len(led.Overlaps) != 0 {
			t.Errorf("ledger: leases %+v holds %d overlaps %d; want one lease, released, one hold", led.Leases, len(led.Holds), len(led.Overlaps))
		}
	})
}

// A release by a client that holds nothing is refused with NOLOCK on both
// servers, and a release by another holder id with NOTHELD: an error the
// client raises, not a quiet 0.
func TestReentrantReleaseRefusals(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		release := sim.Step{Label: "unlock", Run: func(x *sim.Exec) {
			x.ReleaseReentrant("", sim.CourseKey, sim.CourseTTL)
		}}
		acquire := sim.Step{Label: "lock", Run: func(x *sim.Exec) {
			x.AcquireReentrant("", sim.CourseKey, sim.CourseTTL)
		}}
		script := sim.Script{
			Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{acquire}}, {Name: "B", Program: []sim.Step{release, release}}},
			Keys:   []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
			Moves: []sim.Move{sim.StepOf("B"), sim.StepOf("A"), sim.StepOf("B")},
		}
		run := sim.NewRun(b, script, 1)
		defer run.Close()
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		defer run.Clear(ctx)
		if err := run.Seek(ctx, 3); err != nil {
			t.Fatal(err)
		}
		rel := sent(run.Events, "B", "EVAL")
		if len(rel) != 2 || sim.ReleaseRefusal(rel[0].Err) != sim.ErrNoLock || sim.ReleaseRefusal(rel[1].Err) != sim.ErrNotHeld {
			t.Fatalf("B's unlocks: %v, want NOLOCK then NOTHELD", replies(rel))
		}
		led := Fold(run.Snapshot(ctx))
		if led.Reads[rel[0].Seq].What != ledger.RelNoLock || led.Reads[rel[1].Seq].What != ledger.RelNotHeld || led.Reads[rel[1].Seq].Other != "A" {
			t.Errorf("read as %q and %+v", led.Reads[rel[0].Seq].What, led.Reads[rel[1].Seq])
		}
		if k := led.Keys[0]; k.Lease == nil || k.Lease.Actor != "A" {
			t.Errorf("A's hash should be left alone: %+v", k)
		}
	})
}
