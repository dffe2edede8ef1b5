package serve

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

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
		noLeaks(t, Config{Redis: url})
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
	before := len(serverGoroutines())
	const sessions, together = 100, 10
	for batch := 0; batch < sessions/together; batch++ {
		// each session is a parallel subtest of its batch, so a failure
		// ends it on its own goroutine; the batch returns when all ten do
		t.Run(fmt.Sprintf("batch %d", batch), func(t *testing.T) {
			for i := range together {
				t.Run(fmt.Sprintf("s%d", batch*together+i), func(t *testing.T) {
					t.Parallel()
					c := dial(t, addr, fmt.Sprintf("s%d", batch*together+i), newKey(t))
					defer c.Close()
					tm := openTerm(t, c, "xterm", 80, 24)
					tm.waitFor("1  race")
					if i == 0 {
						// one in ten plays the race: its racers, its keys
						tm.send("\r")
						tm.waitFor("1-3 your prediction")
						tm.send("2")
						tm.waitFor("holders 1")
					}
					tm.send("q")
					if code := tm.waitEnd(); code != 0 {
						t.Fatalf("a session ended with status %d (stderr %q)", code, tm.stderr())
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
	// sockets close: wait for both, with a bound that only guards against
	// a hang
	deadline := time.Now().Add(hang)
	for s.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still counted after all ended", s.Sessions())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for {
		runtime.GC()
		now := serverGoroutines()
		if len(now) <= before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines before, %d after:\n%s", before, len(now), strings.Join(now, "\n\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverGoroutines are the stacks of every goroutine but the test's own:
// the test runner's and the test client's terminals (whose emulator's
// answers are copied by a goroutine that only ends with the process).
func serverGoroutines() []string {
	buf := make([]byte, 4<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var keep []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "testing.(*T).Run") && !strings.Contains(g, "testing.tRunner") &&
			!strings.Contains(g, "testing.(*M)") && !strings.Contains(g, "serve.openTerm") {
			keep = append(keep, g)
		}
	}
	return keep
}
