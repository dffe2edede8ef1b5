package lab

import (
	"context"
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
