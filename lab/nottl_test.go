package lab

import (
	"context"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/sim"
)

// TestNoTTLRestartReadouts: the story of a SET NX lock with no TTL whose
// key a restart forgets says the key had no TTL, never that it was lost
// "before its TTL's end" or "with time left on its TTL" (it said both).
func TestNoTTLRestartReadouts(t *testing.T) {
	ctx := context.Background()
	text, be := storyRig(t)
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

// TestVerdictAndPropertiesLineAgree: at every position of every break of
// a SET NX lock with no TTL, a verdict that names mutual-exclusion or
// deadlock-freedom broken stands next to that property ✗ on the
// properties line (after A's crash the verdict said deadlock-freedom
// broken next to "○ deadlock freedom", not yet tested).
func TestVerdictAndPropertiesLineAgree(t *testing.T) {
	ctx := context.Background()
	text, be := storyRig(t)
	l := &Lock{Acquire: Part{Name: PartAcquire, Lang: Commands, Src: "SET {key} {token} NX\n"},
		Release: Part{Name: PartRelease, Lang: Commands, Src: "DEL {key}\n"}, Extend: Part{Name: PartExtend}, Policy: DefaultPolicy()}
	l.Policy.Bound.Faults, l.Policy.Bound.Depth = 1, 10
	rep, err := Check(ctx, l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range rep.Judgements {
		if v.Break == nil || (v.Property != MutualExclusion && v.Property != DeadlockFreedom) {
			continue
		}
		idx := map[Property]int{MutualExclusion: 0, DeadlockFreedom: 1}[v.Property]
		sc := v.Break.Scene()
		script := sc.Build(nil)
		r := sim.NewRun(be, script, 1)
		if err := r.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= len(script.Moves); k++ {
			if err := r.Seek(ctx, k); err != nil {
				t.Fatal(err)
			}
			snap := r.Snapshot(ctx)
			ex := scenes.Explain(sc, scenes.Frame{Snap: snap, L: scenes.Fold(snap), Text: text})
			if strings.HasPrefix(ex.Verdict, string(v.Property)+" broken") {
				n++
				if ex.Props[idx] != say.Broken {
					t.Errorf("%s, after move %d: the verdict %q stands next to the properties line's %v", v.Break, k, ex.Verdict, ex.Props)
				}
			}
		}
		r.Close()
	}
	if n == 0 {
		t.Error("no position of a break named its property broken")
	}
}
