package serve

import (
	"context"
	"sync"
	"testing"
)

// TestLabQueuePlaces: with the server's one search slot taken, each search
// that comes is told its place in the line (1, then 2); when the first
// waiter gives up, the second is told it is next, and it takes the slot
// once the running search lets it go.
func TestLabQueuePlaces(t *testing.T) {
	var q labQueue
	slots := make(chan struct{}, 1)
	release, err := q.take(context.Background(), slots, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	places := map[string][]int{}
	told := make(chan string, 16)
	teller := func(name string) func(int) {
		return func(p int) {
			mu.Lock()
			places[name] = append(places[name], p)
			mu.Unlock()
			told <- name
		}
	}
	ctxA, cancelA := context.WithCancel(context.Background())
	doneA := make(chan error, 1)
	go func() {
		_, err := q.take(ctxA, slots, teller("a"))
		doneA <- err
	}()
	<-told // a is in line
	doneB := make(chan func(), 1)
	go func() {
		rel, err := q.take(context.Background(), slots, teller("b"))
		if err != nil {
			t.Error(err)
		}
		doneB <- rel
	}()
	<-told // b is in line behind a
	cancelA()
	if err := <-doneA; err == nil {
		t.Fatal("a gave up: it should have its context's error")
	}
	<-told // b is told it is next
	release()
	(<-doneB)()
	mu.Lock()
	defer mu.Unlock()
	if got := places["a"]; len(got) != 1 || got[0] != 1 {
		t.Errorf("a was told %v, want [1]", got)
	}
	if got := places["b"]; len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("b was told %v, want [2 1]", got)
	}
}
