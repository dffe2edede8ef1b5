package sim_test

import (
	"context"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// TestBackMeansAdminAnswers: once the heartbeat finds the server back after
// an outage, the backend's own connection answers at once. The screen says
// "the server is back" on the heartbeat's word and replays the story, whose
// reset and key reads run on admin. go-redis keeps a refused dial's error on
// a pool and answers every command with it, without dialing, until a probe
// of its own (once a second) gets through: a heartbeat on a connection of
// its own came back while admin still refused, and the replay's reset
// failed with "connection refused" right after "the server is back".
func TestBackMeansAdminAnswers(t *testing.T) {
	t.Parallel()
	srv := simtest.StartServer(t)
	ctx := context.Background()
	// beats every 100 ms: the heartbeat finds the server back soon after
	// its connection can dial again
	o := simtest.LiveOptions(100)
	o.HeartbeatTTL = 400 * time.Millisecond
	b, err := sim.OpenLive(ctx, srv.URL, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		b.Close(cctx)
	})
	key := b.Key("outage")
	srv.Stop()
	waitHealth(t, b, false)
	// a read during the outage (the screen's refresh of the keys) fails on
	// admin half a second after the heartbeat's first failed beat, just
	// before the server comes back: a pool that is not the heartbeat's
	// would then keep its dial error for about half a second after the
	// heartbeat's could dial again (neither side's outcome depends on
	// this wait; it only gives a wrong program room to show itself)
	time.Sleep(time.Until(b.Health().Since.Add(500 * time.Millisecond)))
	if _, err := sim.ReadKeys(ctx, b, []string{key}); err == nil {
		t.Fatal("a read on a stopped server succeeded")
	}
	if err := b.Delete(ctx, key); err == nil {
		t.Fatal("a delete on a stopped server succeeded")
	}
	srv.Start()
	waitHealth(t, b, true)
	if err := b.Delete(ctx, key); err != nil {
		t.Errorf("the heartbeat says the server is back, but the reset's delete fails: %v", err)
	}
	if _, err := sim.ReadKeys(ctx, b, []string{key}); err != nil {
		t.Errorf("the heartbeat says the server is back, but reading the keys fails: %v", err)
	}
}

// waitHealth waits until the heartbeat's last reading says the server
// answers (up) or not.
func waitHealth(t *testing.T, b *sim.Backend, up bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if (b.Health().Err == nil) == up {
			return
		}
	}
	t.Fatalf("the heartbeat never found the server up=%v: %v", up, b.Health().Err)
}
