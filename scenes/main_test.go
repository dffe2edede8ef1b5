package scenes

import (
	"context"
	"locksim/sim/simtest"
	"locksim/sim/simtest/testmain"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
)

func TestMain(m *testing.M) {
	simtest.ParallelLive()
	testmain.Run(m)
}

// embedded starts an embedded backend for one test.
func embedded(t testing.TB) *sim.Backend { return simtest.Embedded(t) }

// commands returns the command events of the given actor and step label
// ("" matches any).
func commands(events []sim.Event, actor, step string) []sim.Event {
	return simtest.Commands(events, actor, step)
}

// lastOf returns the last event of commands(...), if any.
func lastOf(events []sim.Event, actor, step string) (sim.Event, bool) {
	return simtest.LastOf(events, actor, step)
}

// sent returns the command events of actor whose command is cmd (SET, PTTL,
// EVAL, SETNX...), in order.
func sent(events []sim.Event, actor, cmd string) []sim.Event { return simtest.Sent(events, actor, cmd) }

func replies(es []sim.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Reply)
	}
	return out
}

// played is a whole story run on a backend: its run (for the events), the
// snapshot read back, the ledger's fold of it and the scene's explanation.
type played struct {
	run  *sim.Run
	snap sim.Snapshot
	led  *ledger.Ledger
	ex   Explanation
}

// playStory runs scene id's whole schedule under p on b.
func playStory(t *testing.T, b *sim.Backend, id string, p Params, seed uint64) played {
	t.Helper()
	ctx := context.Background()
	sc := Find(id)
	if sc == nil {
		t.Fatalf("scene %q is not registered", id)
	}
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	run := sim.NewRun(b, sc.Script(p), seed)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, len(run.Moves())); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" {
		t.Fatalf("reading keys back: %s", snap.Err)
	}
	led := Fold(snap)
	return played{run, snap, led, Explain(sc, Frame{Snap: snap, L: led, P: p, Sel: -1, Text: text})}
}
