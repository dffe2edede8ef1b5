package sim_test

import (
	"context"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// TestHealthChangedOnlyOnChange: while the server answers, beat after beat,
// HealthChanged stays open (a screen waiting on it wakes for nothing); the
// server's stop closes it; while the server is down each failed beat closes
// the next (the time down counts up on screen); the first beat that
// answers after closes one; Close closes it for good. On the embedded
// server it is nil.
func TestHealthChangedOnlyOnChange(t *testing.T) {
	t.Parallel()
	srv := simtest.StartServer(t)
	ctx := context.Background()
	// beats every 100 ms
	o := simtest.LiveOptions(100)
	o.HeartbeatTTL = 400 * time.Millisecond
	b, err := sim.OpenLive(ctx, srv.URL, o)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			b.Close(ctx)
		}
	})
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(30 * time.Second):
			t.Fatalf("HealthChanged was not closed %s", what)
		}
	}

	ch := b.HealthChanged()
	// three beats, seen as the heartbeat's TTL going back up
	admin := simtest.Client(t, srv.URL)
	last, beats := int64(-1), 0
	for deadline := time.Now().Add(30 * time.Second); beats < 3; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d beats seen", beats)
		}
		ttl, err := admin.PTTL(ctx, b.Prefix+"heartbeat").Result()
		if err != nil {
			t.Fatal(err)
		}
		ms := ttl.Milliseconds()
		if last >= 0 && ms > last {
			beats++
		}
		last = ms
	}
	select {
	case <-ch:
		t.Fatalf("HealthChanged was closed while the server answered: %+v", b.Health())
	default:
	}

	srv.Stop()
	wait(ch, "when the server stopped")
	if b.Health().Err == nil {
		t.Fatal("woken, but the heartbeat says the server answers")
	}
	wait(b.HealthChanged(), "by the next failed beat")
	srv.Start()
	for b.Health().Err != nil {
		wait(b.HealthChanged(), "while the server came back")
	}

	ch = b.HealthChanged()
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	closed = true
	wait(ch, "by Close")
	if !b.Health().Stopped {
		t.Error("after Close the health is not Stopped")
	}
	wait(b.HealthChanged(), "after Close")

	e, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	if e.HealthChanged() != nil {
		t.Error("the embedded server's HealthChanged is not nil")
	}
}
