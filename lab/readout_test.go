package lab

import (
	"context"
	"slices"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// TestHandReadoutNamesTheGET: in "An acquire in two commands" the learner
// steps A then B; each sends its GET and reads (nil). Selecting either
// client, the readout says what its GET found, never that it sends nothing.
func TestHandReadoutNamesTheGET(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	text, err := content.Load(SceneID)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"get-then-set", "setnx-expire"} {
		lv, _ := FindLevel(id)
		sc := HandScene(&lv.Lock, 2)
		r := sim.NewRun(b, sc.Script(nil), 3)
		if err := r.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		for _, m := range []sim.Move{sim.StepOf("A"), sim.StepOf("B")} {
			if err := r.Insert(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		snap := r.Snapshot(ctx)
		for sel, name := range []string{"A", "B"} {
			got := scenes.Explain(sc, scenes.Frame{Snap: snap, L: scenes.Fold(snap), Sel: sel, Text: text}).Readout
			if strings.Contains(got, "sends nothing") || !strings.HasPrefix(got, name) {
				t.Errorf("%s, %s selected after its first command: %q", id, name, got)
			}
			if id == "get-then-set" && !strings.Contains(got, "GET answered (nil)") {
				t.Errorf("%s, %s selected: %q, want its GET's (nil)", id, name, got)
			}
		}
		r.Close()
	}
}

// TestBreakVerdictTrueAtItsStep: a deadlock-freedom break's ledger shows
// the property broken before its probe comes; the verdict line then says
// what is true at that step, and "every client is done" only at the end.
// The probe's name follows the clients' (C after A and B, no gap).
func TestBreakVerdictTrueAtItsStep(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	rep, err := levelReport("setnx-expire")
	if err != nil {
		t.Fatal(err)
	}
	brk := rep.First()
	if brk == nil || !brk.Probe {
		t.Fatalf("want a deadlock-freedom break with its probe, got %v", brk)
	}
	sc := brk.Scene()
	script := sc.Script(nil)
	var names []string
	for _, a := range script.Actors {
		names = append(names, a.Name)
	}
	if want := []string{"A", "B", "C", "D"}[:brk.Clients+1]; !slices.Equal(names, want) {
		t.Errorf("a break of %d clients and its probe: cards %v, want %v", brk.Clients, names, want)
	}
	r := sim.NewRun(b, script, 7)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	early := 0
	for k := 1; k <= len(script.Moves); k++ {
		if err := r.Seek(ctx, k); err != nil {
			t.Fatal(err)
		}
		snap := r.Snapshot(ctx)
		said := &scenes.Said{Vars: map[string]string{}}
		sc.Say(scenes.Frame{Snap: snap, L: scenes.Fold(snap)}, said)
		end := k == len(script.Moves)
		if said.Verdict != "" && !end {
			early++
		}
		if done := strings.Contains(said.Verdict, "every client is done"); done != end {
			t.Errorf("at move %d of %d the verdict reads %q", k, len(script.Moves), said.Verdict)
		}
	}
	if early == 0 {
		t.Errorf("the ledger should show the break before the probe comes")
	}
}
