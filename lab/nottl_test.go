package lab

import (
	"context"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// TestNoTTLRestartReadouts: the story of a SET NX lock with no TTL whose
// key a restart forgets says the key had no TTL, never that it was lost
// "before its TTL's end" or "with time left on its TTL" (it said both).
func TestNoTTLRestartReadouts(t *testing.T) {
	ctx := context.Background()
	text, err := content.Load(SceneID)
	if err != nil {
		t.Fatal(err)
	}
	be, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = be.Close(ctx) })
	l := &Lock{Acquire: Part{Name: PartAcquire, Lang: Commands, Src: "SET {key} {token} NX\n"},
		Release: Part{Name: PartRelease, Lang: Commands, Src: "DEL {key}\n"}, Extend: Part{Name: PartExtend}, Policy: DefaultPolicy()}
	l.Policy.Faults = []Fault{Restart}
	l.Policy.Properties = []Property{MutualExclusion}
	l.Policy.Bound.Faults, l.Policy.Bound.Depth = 1, 10
	rep, err := Check(ctx, l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rep.Judgement(MutualExclusion)
	if v.Status != Fail || v.Break == nil {
		t.Fatalf("no-TTL lock with restarts: mutual-exclusion %+v", v)
	}
	sc := v.Break.Scene()
	script := sc.Build(nil)
	r := sim.NewRun(be, script, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	said := false
	for k := 1; k <= len(script.Moves); k++ {
		if err := r.Seek(ctx, k); err != nil {
			t.Fatal(err)
		}
		snap := r.Snapshot(ctx)
		for sel := range script.Actors {
			got := scenes.Explain(sc, scenes.Frame{Snap: snap, L: scenes.Fold(snap), Sel: sel, Text: text}).Readout
			got = strings.Join(strings.Fields(got), " ")
			for _, bad := range []string{"TTL's end", "time left on its TTL"} {
				if strings.Contains(got, bad) {
					t.Errorf("after move %d, %s's readout says %q of a key with no TTL: %q", k, script.Actors[sel].Name, bad, got)
				}
			}
			said = said || strings.Contains(got, "which had no TTL, was lost at")
		}
	}
	if !said {
		t.Errorf("no readout of %s says the key with no TTL was lost in the restart", v.Break)
	}
}
