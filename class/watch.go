package class

import (
	"context"
	"errors"
	"sync"
)

// ErrClosed is Next's answer once the watch is closed.
var ErrClosed = errors.New("the class watch is closed")

// Watch is one session's subscription to a class's events. Events wait
// in it until Next takes them, the newer replacing the older of the same
// thing (the instructor's place; one member's row), so a slow reader
// never holds up the hub and never reads a stale place after a newer one.
type Watch struct {
	mu      sync.Mutex
	pending []Event
	ready   chan struct{} // holds a token while pending is not empty
	done    chan struct{}
	once    sync.Once
	stop    func() // releases the subscription; nil for none
}

func newWatch(stop func()) *Watch {
	return &Watch{ready: make(chan struct{}, 1), done: make(chan struct{}), stop: stop}
}

// key is what an event replaces: the lead, one member's row, or one
// member's match by hand (two students matched in one flush are two
// pieces of news, and a watcher must hear both).
func (e Event) key() string {
	switch {
	case e.Kind == KindMember && e.Member != nil:
		return "member:" + e.Member.ID
	case e.Kind == KindMatch && e.Match != nil:
		return "match:" + e.Match.ID
	}
	return string(e.Kind)
}

// newer reports that e should replace old, the pending event of the same key.
func (e Event) newer(old Event) bool {
	switch {
	case e.Lead != nil && old.Lead != nil:
		return e.Lead.Seq >= old.Lead.Seq
	case e.Member != nil && old.Member != nil:
		return !e.Member.Seen.Before(old.Member.Seen)
	}
	return true
}

// put queues e, replacing a pending event of the same thing that is not
// newer; a lost move's news stays with the place that replaces it.
func (w *Watch) put(e Event) {
	if e.Member != nil {
		migrate(e.Member) // a row an older locksim put, on another server
	}
	w.mu.Lock()
	replaced := false
	for i, old := range w.pending {
		if old.key() == e.key() {
			if e.newer(old) {
				e.Lost = e.Lost || old.Lost
				w.pending[i] = e
			} else if e.Lost {
				w.pending[i].Lost = true
			}
			replaced = true
			break
		}
	}
	if !replaced {
		w.pending = append(w.pending, e)
	}
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// Next waits for events and returns every one pending, in the order they
// first arrived. It returns ctx's error when ctx ends, and ErrClosed once
// the watch is closed.
func (w *Watch) Next(ctx context.Context) ([]Event, error) {
	for {
		w.mu.Lock()
		if len(w.pending) > 0 {
			out := w.pending
			w.pending = nil
			w.mu.Unlock()
			return out, nil
		}
		w.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-w.done:
			return nil, ErrClosed
		case <-w.ready:
		}
	}
}

// Close ends the watch and its subscription; Next then returns ErrClosed.
func (w *Watch) Close() {
	w.once.Do(func() {
		close(w.done)
		if w.stop != nil {
			w.stop()
		}
	})
}

// Done is closed once the watch is.
func (w *Watch) Done() <-chan struct{} { return w.done }
