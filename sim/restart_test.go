package sim

import (
	"context"
	"net"
	"testing"
)

// TestRestartWhilePortTaken: a stopped embedded node comes back even when
// another socket has taken the port it listened on before it stopped. On a
// loaded machine that happened between the stop and the restart, the
// restart failed, and one process played "C restarts" with C down for
// good: its redlock fingerprint differed from every other process's.
func TestRestartWhilePortTaken(t *testing.T) {
	ctx := context.Background()
	b, err := OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	script := Script{
		Actors: []ActorSpec{{Name: "c1"}},
		Nodes:  []string{"C"},
		Keys:   []string{"k"},
		Moves:  []Move{NodeStop("C"), NodeRestart("C", false), NodeStop("C"), NodeRestart("C", false)},
	}
	r := NewRun(b, script, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	n := r.node("C")
	if err := n.b.Admin().Set(ctx, "k", "kept", 0).Err(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(script.Moves); i += 2 {
		if err := r.Seek(ctx, i+1); err != nil {
			t.Fatal(err)
		}
		// the port the node listened on, if it still has one, is free now:
		// take it, as another process on a busy machine may
		if l, err := net.Listen("tcp", n.b.Addr()); err == nil {
			defer l.Close()
		}
		if err := r.Seek(ctx, i+2); err != nil {
			t.Fatal(err)
		}
		// the restart move's own events: a node-up fault, never the Info a
		// failed restart logs
		up := false
		for _, e := range r.Events {
			if e.Move != i+1 {
				continue
			}
			if e.Kind == Info {
				t.Fatalf("restart %d with the node's old port taken: %s", i/2+1, e.Note)
			}
			up = up || e.Kind == Fault && e.Fault == FaultNodeUp
		}
		if !up {
			t.Fatalf("restart %d with the node's old port taken: no node-up event at move %d", i/2+1, i+1)
		}
		if v, err := n.b.Admin().Get(ctx, "k").Result(); err != nil || v != "kept" {
			t.Fatalf("after restart %d, GET k = %q, %v; want the key kept", i/2+1, v, err)
		}
		if v, err := n.conns["c1"].Get(ctx, "k").Result(); err != nil || v != "kept" {
			t.Fatalf("after restart %d, c1's GET k = %q, %v; want the key kept", i/2+1, v, err)
		}
	}
}
