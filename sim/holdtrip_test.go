package sim_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync/atomic"
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
	var d atomic.Int64
	d.Store(int64(delay))
	return slowRepliesBy(t, url, &d)
}

// slowRepliesBy is slowReplies with a delay that may change as the test
// goes (0: none), read at each reply.
func slowRepliesBy(t *testing.T, url string, delay *atomic.Int64) string {
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
						time.Sleep(time.Duration(delay.Load()))
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

// TestHoldOfNoTTLKeepsTheClock: a hold on a server where no key had a
// TTL to hold (a lock written without PX) still sends the resume script
// there (f467958), and the story's clock stays as it was when no script
// was sent: the wait for that script's answer is held too (93894f9).
// Every reply of the hold and its end takes at least delay to come back
// (the story before them, none: its trips are not what is measured);
// counted as story time (the fix undone), the resume's own trip moved
// the clock on by at least delay across a hold of nothing. The bound,
// delay/2, leaves the few lines between the hold's end and the script's
// sending half of delay, however loaded the machine.
func TestHoldOfNoTTLKeepsTheClock(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	const delay = 400 * time.Millisecond
	ctx := context.Background()
	var slow atomic.Int64
	url := slowRepliesBy(t, simtest.StartRedis(t), &slow)
	b, err := sim.OpenLive(ctx, url, simtest.LiveOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	noPX := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, NoPX: true})
	}}
	r := sim.NewRun(b, sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{noPX}}},
		Keys:   []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
		Moves: []sim.Move{sim.StepOf("A")},
	}, 1)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, 1); err != nil { // A's lock, no TTL to hold
		t.Fatal(err)
	}
	slow.Store(int64(delay))
	before := r.Now()
	if err := r.Hold(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	ran := r.Now() - before
	t.Logf("the story's clock ran %v across a hold of no TTL", ran)
	if ran >= delay/2 {
		t.Errorf("the story's clock ran %v across a hold of no key's TTL, whose resume reply took at least %v to come back: the wait for it counted as story time", ran, delay)
	}
}
