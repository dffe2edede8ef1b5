package play

import (
	"context"
	"fmt"
	"sync"
	"time"

	"locksim/race"
	"locksim/sim"
)

// TrialsConfig is how the trials run (race.Config); TrialCounts one
// variant's counts (race.Counts): what a screen draws of them.
type (
	TrialsConfig = race.Config
	TrialCounts  = race.Counts
)

// DefaultTrials is the trials' configuration with tokens drawn from seed.
func DefaultTrials(seed uint64) TrialsConfig { return race.DefaultConfig(seed) }

// TrialVariants is how many variants a run of trials under cfg goes
// through (race.VariantsFor).
func TrialVariants(cfg TrialsConfig) int { return len(race.VariantsFor(cfg)) }

// Trials is a run of trials of every variant of the race, in the
// background, on a server and connections of their own (race.OnBackend):
// StartTrials prepares it, Stop ends it early (the counts so far still
// come), Close lets go of it. Its messages name it, so a screen drops
// those of a run it has closed.
type Trials struct {
	b    *sim.Backend
	n    int
	cfg  race.Config
	ctx  context.Context
	stop context.CancelFunc
	// quit is closed by Close: nobody reads the messages any more
	quit    chan struct{}
	updates chan Msg
	// gone is closed once the run has let go of its server and
	// connections
	gone   chan struct{}
	begin  sync.Once
	closed sync.Once
}

// TrialsOpened says the trials' server and connections are open, or
// (Err) that they did not open and nothing runs; Next waits for the next
// message.
type TrialsOpened struct {
	T    *Trials
	Err  error
	Next Cmd
}

// TrialsCounted is one variant's counts so far, or at its end (Final),
// with the error that ended the run, if any (a cancelled run's is
// context.Canceled; a fault in locksim ends the run, never the process).
type TrialsCounted struct {
	T      *Trials
	Counts TrialCounts
	Final  bool
	Err    error
	Next   Cmd
}

// TrialsOver says the run has ended: run to its end, stopped, failed or
// closed.
type TrialsOver struct{ T *Trials }

// StartTrials prepares n trials of every variant on b (on an embedded
// server, one of their own whose keys expire on the real clock) and
// returns them with the command that opens their server, starts them and
// reports the first message (TrialsOpened); each message carries the
// command for the next, until TrialsOver. Progress comes at most every
// 50 ms, and a count the receiver is not ready for is dropped for the
// next.
func StartTrials(b *sim.Backend, n int, cfg TrialsConfig) (*Trials, Cmd) {
	ctx, stop := context.WithCancel(context.Background())
	t := &Trials{b: b, n: n, cfg: cfg, ctx: ctx, stop: stop, quit: make(chan struct{}), updates: make(chan Msg, 1),
		gone: make(chan struct{})}
	return t, func() Msg {
		t.begin.Do(func() { go t.run() })
		return t.next()
	}
}

// Stop ends the trials still running; the counts so far still come.
func (t *Trials) Stop() { t.stop() }

// Close stops the trials and lets go of their server and connections, in
// the background (a stalled server must not freeze the screen); Wait
// waits for that.
func (t *Trials) Close() {
	t.closed.Do(func() {
		t.stop()
		close(t.quit)
		t.begin.Do(func() {
			// never started: nothing to let go of
			close(t.updates)
			close(t.gone)
		})
	})
}

// Wait waits, at most until ctx is done, for closed trials to let go of
// their server and connections.
func (t *Trials) Wait(ctx context.Context) {
	select {
	case <-t.gone:
	case <-ctx.Done():
	}
}

// send hands m to the receiver, unless the trials were closed; it
// reports whether m went.
func (t *Trials) send(m Msg) bool {
	select {
	case t.updates <- m:
		return true
	case <-t.quit:
		return false
	}
}

// run opens the trials' server, runs every variant and lets go of it, on
// its own goroutine.
func (t *Trials) run() {
	defer close(t.gone)
	defer close(t.updates)
	// a screen's runtime recovers its own commands, not this goroutine: a
	// panic here ends the trials with an error, never the process (which,
	// served over SSH, every other session is in)
	defer func() {
		if r := recover(); r != nil {
			// waits for the receiver as every final message does: one in
			// the buffer must not push the fault out
			t.send(TrialsCounted{T: t, Final: true, Err: fmt.Errorf("the trials stopped on a fault in locksim: %v", r)})
		}
	}()
	tr, _, done, err := race.OnBackend(t.b, t.cfg)
	if err != nil {
		t.send(TrialsOpened{T: t, Err: err})
		return
	}
	defer done()
	if !t.send(TrialsOpened{T: t}) {
		return
	}
	last := time.Now()
	for _, v := range race.VariantsFor(t.cfg) {
		c, err := tr.Run(t.ctx, v, t.n, func(c race.Counts) {
			if time.Since(last) > 50*time.Millisecond {
				last = time.Now()
				select {
				case t.updates <- TrialsCounted{T: t, Counts: c}:
				default: // the receiver is behind: it gets the next one
				}
			}
		})
		if !t.send(TrialsCounted{T: t, Counts: c, Final: true, Err: err}) || err != nil {
			return
		}
	}
}

// next waits for the trials' next message, TrialsOver once they ended.
func (t *Trials) next() Msg {
	m, ok := <-t.updates
	if !ok {
		return TrialsOver{T: t}
	}
	switch m := m.(type) {
	case TrialsOpened:
		if m.Err == nil {
			m.Next = t.next
		}
		return m
	case TrialsCounted:
		m.Next = t.next
		return m
	}
	return m
}
