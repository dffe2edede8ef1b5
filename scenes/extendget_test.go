package scenes

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
)

// TestExtendGetAfterTakeover: the GET story on the embedded server (Redis
// 8.4's and Valkey 8.1's SET … IFEQ … GET, third_party/miniredis's tests).
// After B took A's lapsed lock, A's SET key tokenA IFEQ tokenA GET PX 30000
// answers B's token, a bulk string, and sets nothing: the key keeps B's
// token and B's TTL. The question's answer is "B's token", the readout says
// only comparing the reply with A's token tells, and A's release script then
// answers 0 while B's own answers 1.
func TestExtendGetAfterTakeover(t *testing.T) {
	b := embedded(t)
	sc := Find("extend")
	p := Params{"story": knobAt(t, sc, "story", extTakenGet)}
	if got := sc.FormsNeeded(p); len(got) != 1 || got[0] != sim.OneSetIfeq {
		t.Fatalf("the GET story needs %v, want SET … IFEQ", got)
	}
	text, err := content.Load("extend")
	if err != nil {
		t.Fatal(err)
	}
	run := sim.NewRun(b, sc.Script(p), 1)
	t.Cleanup(run.Close)
	ctx := context.Background()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 4); err != nil { // A acquires, 35 s, B acquires, A renews
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	led := Fold(snap)
	bSet := sent(snap.Events, "B", "SET")
	aSet := sent(snap.Events, "A", "SET")
	if len(bSet) != 1 || bSet[0].Reply != "OK" || len(aSet) != 2 {
		t.Fatalf("B's SET %+v, A's SETs %+v", bSet, aSet)
	}
	tokA, tokB := aSet[0].Op.Token, bSet[0].Op.Token
	renew := aSet[1]
	want := "SET " + b.Key(sim.CourseKey) + " " + tokA + " IFEQ " + tokA + " GET PX 30000"
	if renew.Cmd != want || renew.Reply != `"`+tokB+`"` || renew.Val != tokB {
		t.Fatalf("A's renewal: %q → %q (%v), want %q → B's token %q", renew.Cmd, renew.Reply, renew.Val, want, tokB)
	}
	if k := snap.Keys[0]; k.Value != tokB || k.PTTL <= 0 || k.PTTL > sim.CourseTTL.Milliseconds() {
		t.Errorf("the key should still hold B's token with B's TTL: %+v", k)
	}
	if rd := led.Reads[len(led.Reads)-1]; rd.What != ledger.ExtNotSet || rd.Other != "B" {
		t.Errorf("the ledger's reading of the renewal: %+v", rd)
	}
	f := Frame{Snap: snap, L: led, P: p, Sel: 0, Text: text}
	if got := sc.Predict.Answer(f); got != 1 {
		t.Errorf("the question's answer is %d, want 1 (B's token)", got)
	}
	q := sc.Question(text, p, "predict")
	if !strings.Contains(q, "IFEQ tokenA GET") || !strings.Contains(sc.Question(text, p, "choices"), "B's token") {
		t.Errorf("the GET story's question: %q", q)
	}
	ex := Explain(sc, f)
	flat := strings.Join(strings.Fields(ex.Readout), " ")
	for _, w := range []string{"B's token", "nothing was renewed", "whether or not the SET happened", "comparing it with its own token"} {
		if !strings.Contains(flat, w) {
			t.Errorf("A's readout lacks %q:\n%s", w, ex.Readout)
		}
	}
	if !strings.Contains(ex.Verdict, "set nothing ×1") || !strings.Contains(ex.Verdict, "key B's") {
		t.Errorf("verdict %q", ex.Verdict)
	}

	pl := playStory(t, b, "extend", p, 1)
	if rel, ok := lastOf(pl.run.Events, "A", "release"); !ok || rel.Reply != "(integer) 0" {
		t.Errorf("A's release after the refused renewal: %+v", rel)
	}
	if rel, ok := lastOf(pl.run.Events, "B", "release"); !ok || rel.Reply != "(integer) 1" {
		t.Errorf("B's release: %+v", rel)
	}
	if pl.snap.Now != 35*time.Second {
		t.Errorf("the story ends at %v", pl.snap.Now)
	}
}

// knobAt is the index of value among the named knob's values.
func knobAt(t *testing.T, sc *Scene, name, value string) int {
	t.Helper()
	for _, k := range sc.Knobs {
		if k.Name != name {
			continue
		}
		for i, v := range k.Values {
			if v == value {
				return i
			}
		}
	}
	t.Fatalf("%s has no %s %q", sc.ID, name, value)
	return 0
}
