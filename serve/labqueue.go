package serve

import (
	"context"
	"slices"
	"sync"
)

// labQueue is the line of lab searches waiting for one of the server's
// search slots, so each can tell its learner its place. Go hands a full
// channel's slots to its waiting senders in the order they came, which is
// the order of the line.
type labQueue struct {
	mu      sync.Mutex
	waiting []*func(place int)
}

// take waits for a slot of slots, telling tell (if not nil) its place in
// the line whenever it changes while it waits: 1 is next. It returns the
// slot's release, or ctx's error when ctx ends first.
func (q *labQueue) take(ctx context.Context, slots chan struct{}, tell func(place int)) (func(), error) {
	release := func() { <-slots }
	select {
	case slots <- struct{}{}:
		return release, nil
	default:
	}
	if tell == nil {
		tell = func(int) {}
	}
	me := &tell
	q.mu.Lock()
	q.waiting = append(q.waiting, me)
	tell(len(q.waiting))
	q.mu.Unlock()
	defer q.leave(me)
	select {
	case slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// leave takes w out of the line and tells each one behind it its new
// place.
func (q *labQueue) leave(w *func(int)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := slices.Index(q.waiting, w)
	if i < 0 {
		return
	}
	q.waiting = slices.Delete(q.waiting, i, i+1)
	for j := i; j < len(q.waiting); j++ {
		(*q.waiting[j])(j + 1)
	}
}
