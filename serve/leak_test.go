package serve

import (
	"fmt"
	"testing"
	"time"

	"locksim/serve/termtest"
	"locksim/sim"
	"locksim/sim/simtest"
)

// TestNoLeaks opens and closes 100 sessions, ten at a time, one in ten
// playing the race: once they have ended, with the server still up, no
// goroutine they started is left, and on a live server no key.
func TestNoLeaks(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	t.Run("embedded", func(t *testing.T) { noLeaks(t, Config{}) })
	t.Run("live", func(t *testing.T) {
		url := simtest.StartRedis(t)
		// the sessions' backends wait for replies as every live-server
		// test does (simtest.LiveTimeout), not the learner's 400 ms: a
		// hundred sessions beside other tests are a loaded machine
		noLeaks(t, Config{Redis: url, Live: simtest.LiveOptions(sim.DefaultLiveScale)})
		if keys := simtest.Keys(t, url); len(keys) > 0 {
			t.Fatalf("keys left on the live server: %v", keys)
		}
	})
}

func noLeaks(t *testing.T, cfg Config) {
	s, addr, stop := startServer(t, cfg)
	defer stop()
	// the server's own goroutines (its listener) are counted in before:
	// what the sessions start must be gone once they end, server or not
	before := len(termtest.Goroutines())
	const sessions, together = 100, 10
	for batch := 0; batch < sessions/together; batch++ {
		// each session is a parallel subtest of its batch, so a failure
		// ends it on its own goroutine; the batch returns when all ten do
		t.Run(fmt.Sprintf("batch %d", batch), func(t *testing.T) {
			for i := range together {
				t.Run(fmt.Sprintf("s%d", batch*together+i), func(t *testing.T) {
					t.Parallel()
					c := termtest.Dial(t, addr, fmt.Sprintf("s%d", batch*together+i), termtest.NewKey(t))
					defer c.Close()
					tm := termtest.Open(t, c, "xterm", 80, 24)
					tm.WaitFor("1  race")
					if i == 0 {
						// one in ten plays the race: its racers, its keys
						tm.Send("\r")
						tm.WaitFor("1-3 your prediction")
						tm.Send("2")
						tm.WaitFor("holders 1")
					}
					tm.Send("q")
					if code := tm.WaitEnd(); code != 0 {
						t.Fatalf("a session ended with status %d (stderr %q)", code, tm.Stderr())
					}
				})
			}
		})
		if t.Failed() {
			t.FailNow()
		}
	}
	// a session's slot is given back as its handler returns, just after
	// the client has its exit status, and its goroutines end as the
	// sockets close: wait for both, with bounds that only guard against a
	// hang
	deadline := time.Now().Add(hang)
	for s.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still counted after all ended", s.Sessions())
		}
		time.Sleep(20 * time.Millisecond)
	}
	termtest.WaitGoroutines(t, before)
}
