package scenes

import (
	"context"
	"strings"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

// TestRenewalReadoutsSayTheReply: a renewal in one command is read as a
// renewal and its readout quotes the reply the server sent. SET … IFEQ PX
// answers OK (the watchdog's renewal in extend with r on SET IFEQ); SET …
// IFEQ … GET PX answers the old value, here A's own token, which says the
// SET happened. Neither answers the script's (integer) 1, which the readout
// once said for both.
func TestRenewalReadoutsSayTheReply(t *testing.T) {
	sc := Find("extend")
	p := Params{"story": knobAt(t, sc, "story", extShort), "renewal": knobAt(t, sc, "renewal", extSetIfeq)}
	readout, v := readoutAfter(t, "extend", p, "A acquires")
	if e, _, ok := v.L.LastOp("A", sim.OpExtend); ok {
		t.Fatalf("A renewed before its work began: %+v\n%s", e, readout)
	}
	// through the work: the watchdog renews at 10, 20, 30 and 40 s
	_, v = readoutAfter(t, "extend", p, "B acquires")
	e, rd, ok := v.L.LastOp("A", sim.OpExtend)
	if !ok || e.Reply != "OK" || e.Op.Form != sim.FormSetIfeq || rd.What != ledger.Extended {
		t.Fatalf("A's last renewal: %+v read as %+v", e, rd)
	}
	// A's card explains its last command, the renewal at 40 s
	v.Sel = 0
	got := strings.Join(strings.Fields(Explain(sc, v).Readout), " ")
	if !strings.Contains(got, "got OK") || strings.Contains(got, "(integer) 1") {
		t.Errorf("the watchdog's SET … IFEQ renewal answered OK; its readout says:\n%s", got)
	}

	// SET … IFEQ … GET renewing A's own lease, played by hand
	b := embedded(t)
	script := sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{extAcquire, {Label: "renew", Run: func(x *sim.Exec) {
			x.ExtendSetIfeqGet("", sim.CourseKey, x.Actor().Value, sim.CourseTTL)
		}}}}},
		Keys:  []string{sim.CourseKey},
		Watch: []string{sim.CourseKey},
		Moves: []sim.Move{sim.StepOf("A"), sim.Advance(10 * time.Second), sim.StepOf("A")},
	}
	run := sim.NewRun(b, script, 1)
	t.Cleanup(run.Close)
	ctx := context.Background()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 3); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	led := Fold(snap)
	renew := sent(snap.Events, "A", "SET")
	if len(renew) != 2 || renew[1].Val != renew[0].Op.Token || led.Reads[renew[1].Seq].What != ledger.Extended {
		t.Fatalf("A's SETs %+v", renew)
	}
	f := Frame{Snap: snap, L: led, P: Params{}, Sel: 0, Text: v.Text}
	got = strings.Join(strings.Fields(Explain(sc, f).Readout), " ")
	short := `"` + ShortToken(renew[0].Op.Token)
	if !strings.Contains(got, "answered "+short) || !strings.Contains(got, "its own token, so the SET happened") ||
		strings.Contains(got, "(integer) 1") {
		t.Errorf("the SET … IFEQ … GET renewal answered A's token; its readout says:\n%s", got)
	}
}
