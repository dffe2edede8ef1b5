package check_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/check"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
)

// BenchmarkCheckStory: every model on each scene's first story,
// read from its events (the history built and checked, as the transcript
// and the screen do). The target is under 10 ms for any story.
func BenchmarkCheckStory(b *testing.B) {
	be := simtest.Embedded(b)
	for _, sc := range scenes.All() {
		for i, p := range sc.Stories() {
			if i > 0 && sc.ID != "redlock" {
				continue
			}
			st := play(b, be, sc, p, 1, nil)
			name := sc.ID
			if i > 0 {
				name += "/" + scenes.FormatSettings(sc, p)
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					h := check.FromLedger(st.snap.Events, ledger.Fold(st.snap.Events, st.snap.Now, st.snap.Keys), check.Options{})
					check.Check(h, check.DefaultTimeout)
				}
			})
		}
	}
}

// trialEvents are a trial's events as race records them: four workers,
// each a SET NX PX, one OK; or (broken) GET, GET, then two SETs without
// NX, both OK.
func trialEvents(broken bool) []sim.Event {
	var ev []sim.Event
	add := func(w string, kind sim.OpKind, nx bool, val any, err error) {
		var op *sim.Op
		if kind != 0 {
			op = &sim.Op{Kind: kind, Form: sim.FormSET, Lock: "lock", Key: "k", Token: "t" + w, TTL: 30 * time.Second, NX: nx}
		}
		ev = append(ev, sim.Event{Seq: len(ev), At: time.Duration(len(ev)) * time.Microsecond, Kind: sim.Command, Actor: w,
			Node: sim.LockNode, Val: val, Err: err, Op: op})
	}
	if !broken {
		add("w1", sim.OpAcquire, true, "OK", nil)
		for _, w := range []string{"w2", "w3", "w4"} {
			add(w, sim.OpAcquire, true, nil, redis.Nil)
		}
		return ev
	}
	for _, w := range []string{"w1", "w2", "w3", "w4"} {
		add(w, 0, false, nil, redis.Nil)
	}
	add("w1", sim.OpAcquire, false, "OK", nil)
	add("w2", sim.OpAcquire, false, "OK", nil)
	return ev
}

// BenchmarkTrialHistories: one op is 10 000 trial histories folded, read
// and checked with the mutex model (one in ten broken, as a crash rate or a
// race would make them) on 8 goroutines, as the trials' lanes do: quick is
// what the trials run (Quick: a trial's ops do not overlap, so the model is
// stepped in order), porcupine the same through porcupine's search
// (CheckModel). The target is under 2 s on two cores (-cpu 2).
func BenchmarkTrialHistories(b *testing.B) {
	ok, broken := trialEvents(false), trialEvents(true)
	for _, c := range []struct {
		name  string
		check func(check.History, check.Model, time.Duration) check.Finding
	}{{"quick", check.Quick}, {"porcupine", check.CheckModel}} {
		if v := c.check(check.FromEvents(broken, time.Millisecond, check.Options{}), check.Mutex(), 0); v.Result != check.NotLinearizable {
			b.Fatalf("%s: the broken trial reads %s", c.name, v.Short())
		}
		b.Run(c.name, func(b *testing.B) {
			const n, lanes = 10000, 8
			for b.Loop() {
				var wg sync.WaitGroup
				var unknown atomic.Int64
				for l := range lanes {
					wg.Go(func() {
						for i := range n / lanes {
							ev := ok
							if (l*n/lanes+i)%10 == 0 {
								ev = broken
							}
							led := ledger.Fold(ev, time.Millisecond, nil)
							v := c.check(check.FromLedger(ev, led, check.Options{}), check.Mutex(), check.DefaultTimeout)
							check.Classify(led, v)
							if v.Result == check.Unknown {
								unknown.Add(1)
							}
						}
					})
				}
				wg.Wait()
				if unknown.Load() > 0 {
					b.Fatalf("%d trial checks timed out", unknown.Load())
				}
			}
		})
	}
}
