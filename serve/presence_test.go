package serve

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestPresenceCountsMissedProbes drives the probes by a channel of ticks,
// never the wall clock: an answered probe resets the count, one missed
// is not gone, the second in a row is, and gone is called once.
func TestPresenceCountsMissedProbes(t *testing.T) {
	ticks := make(chan time.Time)
	answers := make(chan error)
	var gone atomic.Int32
	goneCh := make(chan struct{}, 4)
	stop := watchPresence(ticks, time.Hour, func(ctx context.Context) error {
		return <-answers
	}, func() {
		gone.Add(1)
		goneCh <- struct{}{}
	})
	defer stop()
	lost := errors.New("no answer")
	probe := func(err error) {
		t.Helper()
		ticks <- time.Time{}
		answers <- err
	}
	for _, err := range []error{nil, lost, nil, lost} {
		probe(err)
	}
	// the loop takes the next tick only once the last answer is counted
	ticks <- time.Time{}
	if gone.Load() != 0 {
		t.Fatal("gone after missed probes that were not in a row")
	}
	answers <- lost // the second missed in a row
	select {
	case <-goneCh:
	case <-time.After(time.Minute): // a hang guard, never a timing
		t.Fatal("two missed probes in a row did not make the client gone")
	}
	select {
	case ticks <- time.Time{}:
		t.Fatal("the watch went on probing after the client was gone")
	default:
	}
	if gone.Load() != 1 {
		t.Fatalf("gone called %d times", gone.Load())
	}
}

// TestPresenceProbeTimesOut: a probe a silent client never answers is
// missed when its timeout ends.
func TestPresenceProbeTimesOut(t *testing.T) {
	ticks := make(chan time.Time, 1)
	goneCh := make(chan struct{})
	stop := watchPresence(ticks, time.Millisecond, func(ctx context.Context) error {
		<-ctx.Done() // the silent client
		return ctx.Err()
	}, func() { close(goneCh) })
	defer stop()
	for range ProbesMissed {
		ticks <- time.Time{}
	}
	select {
	case <-goneCh:
	case <-time.After(time.Minute): // a hang guard, never a timing
		t.Fatal("unanswered probes did not make the client gone")
	}
}
