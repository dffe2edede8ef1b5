package sim_test

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// slowReplies is a proxy to the server at url whose every reply reaches
// the client at least delay after the server sent it (its requests go
// straight through); its URL, closed when the test ends.
func slowReplies(t *testing.T, url string, delay time.Duration) string {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				continue
			}
			go func() { _, _ = io.Copy(s, c); s.Close() }()
			go func() {
				defer c.Close()
				buf := make([]byte, 64<<10)
				for {
					n, err := s.Read(buf)
					if n > 0 {
						time.Sleep(delay)
						if _, werr := c.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return "redis://" + l.Addr().String() + "/0"
}

// TestHoldCountsTheTripsAsStoryTime: a live hold stops the story's clock
// for the server's own span of the hold (from the hold script's TIME to
// the resume script's), not for the client's: the keys' TTLs run while
// the resume script's reply travels back, so the story's clock runs then
// too. Every reply here takes at least delay to come back, so across a
// hold and its end the story's clock moves on by at least that much. A
// hold timed on the client's clock (before fe8ed3c) stopped it for the
// trips as well and moved it on by nothing, a drift that added up, step
// after step, to a lease lapsing before its moment. The bound is a
// floor the proxy guarantees, whatever the machine's load.
func TestHoldCountsTheTripsAsStoryTime(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	const delay = 200 * time.Millisecond
	ctx := context.Background()
	url := slowReplies(t, simtest.StartRedis(t), delay)
	b, err := sim.OpenLive(ctx, url, simtest.LiveOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	r := sim.NewRun(b, sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{acquire}}},
		Keys:   []string{"resource:lock"}, Watch: []string{"resource:lock"},
		Moves: []sim.Move{sim.StepOf("A")},
	}, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, 1); err != nil { // A's lock, with a TTL to hold
		t.Fatal(err)
	}
	before := r.Now()
	if err := r.Hold(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	ran := r.Now() - before
	t.Logf("the story's clock ran %v across the hold", ran)
	if ran < delay/2 {
		t.Errorf("the story's clock ran %v across a hold whose resume reply took at least %v to come back: it stood still for the trip, the keys' TTLs did not", ran, delay)
	}
}
