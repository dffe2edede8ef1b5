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

// TestStepDuringOutageIsNotMade: with the clock held after a step, the
// next step on a server that has stopped fails before its move is made,
// also when no key of the run had a TTL to hold: a lease that lapsed (here
// released, so the hold finds no key) before the hold, or a key written
// without PX. The resume's script used to be skipped then, so the move ran
// with every command refused and counted; whether it did hung on a lease
// outliving the gap to the hold, and once in CI at load 14 the outage test
// found the extend story a step further on than the learner had gone.
func TestStepDuringOutageIsNotMade(t *testing.T) {
	t.Parallel()
	for name, first := range map[string]func(x *sim.Exec){
		"lapsed": func(x *sim.Exec) {
			x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL})
			x.Release("", sim.CourseKey)
		},
		"no PX": func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, NoPX: true}) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := simtest.StartServer(t)
			ctx := context.Background()
			b, err := sim.OpenLive(ctx, srv.URL, simtest.LiveOptions(100))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				defer cancel()
				b.Close(cctx)
			})
			again := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
				x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL})
			}}
			r := sim.NewRun(b, sim.Script{
				Actors: []sim.ActorSpec{{Name: "W", Program: []sim.Step{{Label: "first", Run: first}, again}}},
				Keys:   []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
				Moves: []sim.Move{sim.StepOf("W"), sim.StepOf("W")},
			}, 1)
			defer r.Close()
			if err := r.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			if err := r.Seek(ctx, 1); err != nil {
				t.Fatal(err)
			}
			if err := r.Hold(ctx); err != nil {
				t.Fatal(err)
			}
			events := len(r.Events)
			srv.Stop()
			if err := r.Seek(ctx, 2); err == nil || r.Pos() != 1 || len(r.Events) != events {
				var made []string
				for _, e := range r.Events[events:] {
					made = append(made, e.Cmd+" → "+e.Reply+e.Note)
				}
				t.Errorf("a step on a stopped server: err %v, at move %d (want 1), events of the move: %q", err, r.Pos(), made)
			}
		})
	}
}
