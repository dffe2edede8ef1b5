package scenes

import (
	"context"
	"strings"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
)

// TestOptionsIfneTakesAFreeKey: with IFNE in NX's place on the embedded
// server (Redis 8.4's SET; third_party/miniredis's tests: IFNE "creates a
// missing key"), w1's SET key token IFNE maintenance PX 30000 on the
// missing key answers OK and makes the key, w1's token in it with a TTL;
// the question, asked before w1's SET, is answered "OK". w2's SET then
// answers OK too and overwrites w1's token: two holders, as without NX.
func TestOptionsIfneTakesAFreeKey(t *testing.T) {
	b := embedded(t)
	sc := Find("options")
	p := Params{"NX": knobAt(t, sc, "NX", optIfne)}
	if got := sc.FormsNeeded(p); len(got) != 1 || got[0] != sim.OneSetIfne {
		t.Fatalf("the IFNE story needs %v, want SET … IFNE", got)
	}
	text, err := content.Load("options")
	if err != nil {
		t.Fatal(err)
	}
	run := sim.NewRun(b, sc.Script(p), 1)
	t.Cleanup(run.Close)
	ctx := context.Background()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, m := range run.Moves() {
		labels = append(labels, m.Label)
	}
	if at := sc.PredictAt(labels); at != 0 || labels[0] != "w1 SET IFNE" {
		t.Fatalf("the question should come before w1's SET: at move %d", at)
	}
	if err := run.Seek(ctx, 1); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	w1 := sent(snap.Events, "w1", "SET")
	want := "SET " + b.Key(sim.CourseKey) + " "
	if len(w1) != 1 || !strings.HasPrefix(w1[0].Cmd, want) || !strings.HasSuffix(w1[0].Cmd, " IFNE maintenance PX 30000") || w1[0].Reply != "OK" {
		t.Fatalf("w1's SET: %+v", w1)
	}
	if k := snap.Keys[0]; k.Value != w1[0].Op.Token || k.PTTL <= 0 {
		t.Errorf("the key should now exist with w1's token and a TTL: %+v", k)
	}
	led := Fold(snap)
	f := Frame{Snap: snap, L: led, P: p, Sel: 0, Text: text}
	if got := sc.Predict.Answer(f); got != 1 {
		t.Errorf("the question's answer is %d, want 1 (OK)", got)
	}
	if q := sc.Question(text, p, "predict"); !strings.Contains(q, "IFNE maintenance") {
		t.Errorf("the IFNE question: %q", q)
	}

	if err := run.Seek(ctx, 2); err != nil {
		t.Fatal(err)
	}
	snap = run.Snapshot(ctx)
	w2 := sent(snap.Events, "w2", "SET")
	if len(w2) != 1 || w2[0].Reply != "OK" || snap.Keys[0].Value != w2[0].Op.Token {
		t.Fatalf("w2's SET IFNE should overwrite w1's token: %+v, key %+v", w2, snap.Keys[0])
	}
	led = Fold(snap)
	if len(led.Overlaps) != 1 || led.Overlaps[0].Cause != ledger.Overwritten {
		t.Errorf("w2's overwrite should make two holders: %+v", led.Overlaps)
	}
}

// TestOptionsIfneReadoutGivesIfnesReason: in the IFNE story, the readout at
// w2's OK and the ⚠ line explain the overwrite by what IFNE does (it looks
// at the key and compares its value), not by NX's absence ("SET does not
// look at the key"), which is false of IFNE.
func TestOptionsIfneReadoutGivesIfnesReason(t *testing.T) {
	sc := Find("options")
	p := Params{"NX": knobAt(t, sc, "NX", optIfne)}
	got, v := readoutAfter(t, "options", p, "w2 SET")
	f := flat(got)
	if strings.Contains(f, "without NX") || strings.Contains(f, "does not look at the key") ||
		!strings.Contains(f, "IFNE does look at the key") {
		t.Errorf("readout at w2's SET IFNE:\n%s", got)
	}
	_, v = readoutAfter(t, "options", p, "w2 SET again")
	alarm := Explain(sc, v).Alarm
	if strings.Contains(alarm, "without NX") || !strings.Contains(alarm, "a SET IFNE") {
		t.Errorf("the ⚠ line: %q", alarm)
	}
}

// TestOptionsIfneWhyNamesIfne: with IFNE and PX off, w3's late release
// says how its lease ended: w4's SET IFNE replaced its value, not a "SET
// without NX", which the story never sends.
func TestOptionsIfneWhyNamesIfne(t *testing.T) {
	sc := Find("options")
	for tok := range 2 {
		p := Params{"NX": knobAt(t, sc, "NX", optIfne), "PX": 1, "token": tok}
		got, _ := readoutAfter(t, "options", p, "w3 releases")
		if f := flat(got); strings.Contains(f, "without NX") || !strings.Contains(f, "w4's SET IFNE") {
			t.Errorf("%v: readout at w3's release:\n%s", p, got)
		}
	}
}
