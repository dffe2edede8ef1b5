// Package race fires several clients' commands at the same instant: every
// connection is opened and warmed first, then one start barrier releases all
// of them, and the replies are collected in the order they arrived.
package race

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// Shot is one client's command in a race.
type Shot struct {
	Client *redis.Client
	Args   []any
}

// Result is one shot's raw reply. Order is 1 for the first reply to come
// back, 2 for the next, and so on.
type Result struct {
	Val   any
	Err   error
	Order int
}

// Fire sends every shot at once and waits for all replies. Each client is
// PINGed before the barrier so that no shot pays for a TCP dial the others
// do not; a PING error is returned as that shot's result and it does not fire.
func Fire(ctx context.Context, shots []Shot) []Result {
	results := make([]Result, len(shots))
	ready := make([]bool, len(shots))
	for i, s := range shots {
		if err := s.Client.Ping(ctx).Err(); err != nil {
			results[i].Err = err
			continue
		}
		ready[i] = true
	}

	var order atomic.Int64
	var fired []int
	for i := range shots {
		if ready[i] {
			fired = append(fired, i)
		}
	}
	Together(len(fired), func(k int) {
		i := fired[k]
		val, err := shots[i].Client.Do(ctx, shots[i].Args...).Result()
		results[i] = Result{Val: val, Err: err, Order: int(order.Add(1))}
	})
	return results
}

// Tally counts outcomes over many races: how many races ended with each
// number of OK replies, and how often each shot won.
type Tally struct {
	Races   int
	ByCount map[int]int // number of OK replies in a race -> races
	Wins    []int       // per shot index: races it got OK
}

// Add counts one race's results; ok says which replies count as a win.
func (t *Tally) Add(results []Result, ok func(Result) bool) {
	if t.ByCount == nil {
		t.ByCount = map[int]int{}
	}
	if len(t.Wins) < len(results) {
		t.Wins = append(t.Wins, make([]int, len(results)-len(t.Wins))...)
	}
	n := 0
	for i, r := range results {
		if ok(r) {
			n++
			t.Wins[i]++
		}
	}
	t.ByCount[n]++
	t.Races++
}

// Together runs f(0) … f(n-1) in goroutines released by one barrier, and
// waits for all of them. Go tends to run the goroutine started last first,
// which would hand every race to the same worker: they are started in a
// fresh random order, as real clients arrive. Each grows its stack before
// the barrier (growStack), so that none pays for copying it past the
// barrier while the others send.
//
// A panic in f ends its goroutine only; once all are done, Together panics
// with the first of them in the caller's goroutine, where a program's
// recover (Bubble Tea's around a command, a server's around a session)
// can end that session alone.
func Together(n int, f func(i int)) {
	var (
		wg, armed sync.WaitGroup
		mu        sync.Mutex
		fault     any
	)
	start := make(chan struct{})
	for _, i := range rand.Perm(n) {
		wg.Add(1)
		armed.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if fault == nil {
						fault = r
					}
					mu.Unlock()
				}
			}()
			growStack()
			armed.Done()
			<-start
			f(i)
		}()
	}
	armed.Wait()
	close(start)
	wg.Wait()
	if fault != nil {
		panic(fmt.Sprintf("a racer failed: %v", fault))
	}
}

// growStack grows the calling goroutine's stack to the size a command
// through go-redis takes, in one step while the goroutine is shallow: a
// goroutine starts with a small stack, and a command grew it twice deep
// inside the client, each time copying every frame on it (a tenth of
// what a race's transcript does beyond its process floor).
//
//go:noinline
func growStack() {
	var pad [stackNeed]byte
	keep(pad[:])
}

// stackNeed is about the stack a command through go-redis uses.
const stackNeed = 16 << 10

// keep keeps pad, so the compiler neither drops it nor shrinks its frame.
//
//go:noinline
func keep(pad []byte) { _ = pad }
