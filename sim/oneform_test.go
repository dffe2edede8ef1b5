package sim_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

// TestOneCommandLock: a lock of today's Redis on the embedded server (the
// patched miniredis): A takes it, renews it with SET IFEQ PX and releases
// it with DELEX IFEQ; then A stops past its lease, B takes the lock, and
// A's late renewal (nil) and release (0) leave B's key as it was. The
// replies are Redis 8.4's (t_string.c setGenericCommand, db.c
// delexCommand); the ledger says whose lease the key held, which the
// replies do not. DELIFEQ (Valkey 9.0) answers as DELEX does.
func TestOneCommandLock(t *testing.T) {
	ctx := context.Background()
	for _, release := range []struct {
		form string
		run  func(x *sim.Exec) sim.Reply
	}{
		{sim.FormDelex, func(x *sim.Exec) sim.Reply { return x.ReleaseDelex("", sim.CourseKey) }},
		{sim.FormDelifeq, func(x *sim.Exec) sim.Reply { return x.ReleaseDelifeq("", sim.CourseKey) }},
	} {
		acquire := sim.Step{Label: "acquire", Run: func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}) }}
		extend := sim.Step{Label: "extend", Run: func(x *sim.Exec) {
			x.ExtendSetIfeq("", sim.CourseKey, x.Actor().Value, sim.CourseTTL)
		}}
		rel := sim.Step{Label: "release", Run: func(x *sim.Exec) { release.run(x) }}
		script := sim.Script{
			Actors: []sim.ActorSpec{
				{Name: "A", Program: []sim.Step{acquire, extend, rel, acquire, extend, rel}},
				{Name: "B", Program: []sim.Step{acquire}},
			},
			Keys: []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
			Moves: []sim.Move{sim.StepOf("A"), sim.Advance(20 * time.Second), sim.StepOf("A"), sim.StepOf("A"),
				sim.StepOf("A"), sim.Advance(31 * time.Second), sim.StepOf("B"), sim.StepOf("A"), sim.StepOf("A")},
		}
		r := sim.NewRun(embedded(t), script, 3)
		if err := r.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := r.Seek(ctx, len(script.Moves)); err != nil {
			t.Fatal(err)
		}
		snap := r.Snapshot(ctx)
		led := ledger.Fold(snap.Events, snap.Now, nil)
		var got []string
		for _, e := range snap.Events {
			if e.Kind == sim.Command && e.Op != nil {
				got = append(got, e.Actor+" "+e.Op.Form+" "+e.Reply+" "+string(led.Reads[e.Seq].What)+" "+led.Reads[e.Seq].Other)
			}
		}
		want := []string{
			"A SET OK granted ", "A SET IFEQ OK extended ", "A " + release.form + " (integer) 1 released ",
			"A SET OK granted ", "B SET OK granted A", // A still acts as holder: an overlap
			"A SET IFEQ (nil) ext-not-set B", "A " + release.form + " (integer) 0 rel-not-deleted B",
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", release.form, got, want)
		}
		b := snap.Actors[1]
		if ks := snap.Keys; len(ks) != 1 || ks[0].Value != b.Value {
			t.Errorf("%s: B's key is left as B wrote it: %+v", release.form, ks)
		}
		r.Close()
	}
}
