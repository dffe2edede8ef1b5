package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2/server"
)

// TestEmbeddedPanicIsAnError: a command that panics inside the embedded
// server is an error reply to its client, the process goes on, the other
// commands still run, and Close returns.
func TestEmbeddedPanicIsAnError(t *testing.T) {
	b, err := OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.srv.Register("LOCKSIMFAULT", func(*server.Peer, string, []string) { panic("injected") }); err != nil {
		t.Fatal(err)
	}
	c := b.NewConn()
	defer c.Close()
	err = c.Do(ctx, "LOCKSIMFAULT").Err()
	if err == nil || !strings.Contains(err.Error(), "the embedded server failed on LOCKSIMFAULT: injected") {
		t.Fatalf("the faulty command replied %v", err)
	}
	other := b.NewConn()
	defer other.Close()
	if got, err := other.Do(ctx, "SET", "k", "v", "NX", "PX", 30000).Text(); err != nil || got != "OK" {
		t.Fatalf("after the fault SET NX PX replied %q, %v", got, err)
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestHeartbeatPanicIsAnError: a beat that panics (here on a backend with
// no connection) is the beat's error, which the screen shows as the server
// unreachable, not the process's end.
func TestHeartbeatPanicIsAnError(t *testing.T) {
	err := (&Backend{}).guardedBeat(context.Background())
	if err == nil || !strings.Contains(err.Error(), "the heartbeat failed") {
		t.Fatalf("a beat with no connection: %v", err)
	}
}
