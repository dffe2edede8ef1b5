package sim

import (
	"context"
	"slices"
	"sort"
	"time"
)

// A timer is an actor's step that runs on the story's clock rather than
// on the schedule: a watchdog renewing its lease, a client retrying an
// acquire. Advancing the clock runs every timer at its due time, in order
// of due time and then of when it was started, so a replay is exact.
type timer struct {
	seq   int // order of starting, for ties
	actor string
	label string
	due   time.Duration // story time
	run   func(x *Exec) time.Duration
}

// After starts a timer of the actor taking the step: f runs as a step
// labelled label once d of story time has passed, and again after each
// delay it returns, until it returns 0 or less. A timer only fires while
// its actor can run: a crashed actor's timers are gone; a paused actor's
// wait, and one that fell due during the pause fires once when it wakes
// (a watchdog that wakes after its lease lapsed gets its 0 then). On a live
// server the timers run in scaled story time, as every wait does.
func (x *Exec) After(label string, d time.Duration, f func(x *Exec) time.Duration) {
	x.startTimer(label, x.due()+d, f)
}

// startTimer starts a timer of the actor taking the step, due at story
// time due.
func (x *Exec) startTimer(label string, due time.Duration, f func(x *Exec) time.Duration) {
	r := x.r
	r.timerSeq++
	r.timers = append(r.timers, &timer{seq: r.timerSeq, actor: x.actor.Name, label: label, due: due, run: f})
}

// StopTimers stops every timer of the actor taking the step: a client that
// released its lock stops its watchdog.
func (x *Exec) StopTimers() {
	x.r.timers = slices.DeleteFunc(x.r.timers, func(t *timer) bool { return t.actor == x.actor.Name })
}

// Due is the story time the step was due: the timer's due time for a
// step a timer runs, otherwise the time it ran. Two retries due at the same
// story millisecond collide, whatever their replies' order on the wire.
func (x *Exec) Due() time.Duration { return x.due() }

func (x *Exec) due() time.Duration {
	if x.timed {
		return x.dueAt
	}
	return x.r.Now()
}

// Timers lists the actor's running timers by label, soonest first.
func (r *Run) Timers(actor string) []string {
	var out []string
	for _, t := range r.sortedTimers() {
		if t.actor == actor {
			out = append(out, t.label)
		}
	}
	return out
}

func (r *Run) sortedTimers() []*timer {
	ts := slices.Clone(r.timers)
	// sort.Slice, not slices.SortStableFunc: shared code, not a stable sort
	// compiled for this type (due and seq order every pair: no two are equal)
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].due != ts[j].due {
			return ts[i].due < ts[j].due
		}
		return ts[i].seq < ts[j].seq
	})
	return ts
}

// nextTimer is the timer due soonest, not later than until, whose actor can
// run; nil if none.
func (r *Run) nextTimer(until time.Duration) *timer {
	for _, t := range r.sortedTimers() {
		if t.due > until {
			return nil
		}
		if a := r.Actor(t.actor); a != nil && (a.Status == Ready || a.Status == Done) {
			return t
		}
	}
	return nil
}

// fire runs t as a step of its actor and schedules its next run.
func (r *Run) fire(ctx context.Context, t *timer) {
	a := r.Actor(t.actor)
	x := &Exec{r: r, actor: a, move: r.pos, label: t.label, ctx: ctx, timed: true, dueAt: t.due}
	next := t.run(x)
	if !slices.Contains(r.timers, t) {
		return // the step stopped its own timers
	}
	if next <= 0 {
		r.timers = slices.DeleteFunc(r.timers, func(o *timer) bool { return o == t })
		return
	}
	// the next run is due a period after this one was due (wake sets a
	// late timer's due time to when its actor woke)
	t.due += next
}

// wake fires once each timer of actor that fell due while it was paused.
func (r *Run) wake(ctx context.Context, actor string) {
	now := r.Now()
	for _, t := range r.sortedTimers() {
		if t.actor == actor && t.due <= now && slices.Contains(r.timers, t) {
			t.due = now
			r.fire(ctx, t)
		}
	}
}

// dropTimers removes a crashed actor's timers.
func (r *Run) dropTimers(actor string) {
	r.timers = slices.DeleteFunc(r.timers, func(t *timer) bool { return t.actor == actor })
}

// advance moves the story's clock forward by d, firing every timer that
// falls due on the way at its due time. Each stretch of waiting is logged
// as the clock moving. It returns false if ctx cut the wait short.
func (r *Run) advance(ctx context.Context, d time.Duration) bool {
	end := r.Now() + d
	for {
		t := r.nextTimer(end)
		if t == nil {
			break
		}
		if !r.waitUntil(ctx, t.due) {
			return false
		}
		r.fire(ctx, t)
	}
	return r.waitUntil(ctx, end)
}

// waitUntil moves the clock to story time at (never back) and logs the
// stretch: on the embedded server by setting the clock, on a live one by
// waiting for real, scaled.
func (r *Run) waitUntil(ctx context.Context, at time.Duration) bool {
	d := at - r.Now()
	if d <= 0 {
		return true
	}
	wire := r.Scaled(d)
	ok := true
	if r.b.Live() {
		t := time.NewTimer(wire)
		start := time.Now()
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			wire, ok = time.Since(start).Round(time.Millisecond), false // cut short: say how long it was
		}
	} else {
		r.now += wire
		r.setClock(r.now)
	}
	// story time, as every other time on screen; on a live server the
	// wire's own wait too
	note := FormatSpan(wire) + " pass"
	if r.b.Live() {
		note = FormatSpan(wire*time.Duration(r.Scale())) + " pass (" + FormatSpan(wire) + " on the wire)"
	}
	r.record(Event{Kind: Clock, Note: note})
	return ok
}

// Jitter is a random delay in [0, max), in whole milliseconds of story
// time, from the actor's own seeded source: the same seed gives the same
// delays, so a replay is exact.
func (x *Exec) Jitter(max time.Duration) time.Duration {
	ms := max.Milliseconds()
	if ms <= 0 || x.actor.jitter == nil {
		return 0
	}
	return time.Duration(x.actor.jitter.Int64N(ms)) * time.Millisecond
}
