package sim

import (
	"fmt"
	"time"
)

// The reasons a client stops trying to acquire, as the Form of its
// OpGiveUp. Giving up is the client's own decision, not a reply: it is
// logged as a note carrying the op, so the ledger can tell one reason from
// another without reading the note's words.
const (
	GiveUpFast     = "fail-fast" // refused, and its policy allows no retry
	GiveUpRetries  = "retries"   // its last allowed retry was refused too
	GiveUpDeadline = "deadline"  // its deadline passed before it got the lock
)

// RetryPolicy is what a client does when its acquire is refused. Durations
// are story time; the timers run on the story's clock, and the random part
// comes from the actor's own seeded source, so a replay is exact.
type RetryPolicy struct {
	Delay  time.Duration // between one attempt and the next
	Jitter time.Duration // up to this much more, at random (0: none)
	// Retries is how many retries follow the first attempt: 0 fails fast,
	// less than 0 means no limit.
	Retries int
	// Deadline is how long after the first attempt the client stops trying
	// (0: never).
	Deadline time.Duration
}

// AcquireRetrying sends SET key token NX PX ttl now and, when it is
// refused, again on a timer as p says, until an attempt is granted or the
// client gives up (its retries used up, or its deadline passed). Every
// attempt of this one acquisition carries the same fresh token, and each
// one is a SET of its own: a grant's lease runs from the attempt the
// server granted. A refused attempt reads no PTTL: the policy, not the
// lock in the way, decides when to try again.
func (x *Exec) AcquireRetrying(spec AcquireSpec, p RetryPolicy) Reply {
	token := x.r.mint(x.actor)
	start := x.scheduled()
	first := x.tryAcquire(spec, token)
	if !first.Nil() {
		return first
	}
	if p.Retries == 0 {
		x.giveUp(spec, GiveUpFast, "it fails fast")
		return first
	}
	used := 0
	next := func(x *Exec) time.Duration {
		d := p.Delay + x.Jitter(p.Jitter)
		if p.Deadline > 0 {
			// the last wait ends at the deadline, where it gives up
			d = min(d, start+p.Deadline-x.scheduled())
		}
		return d
	}
	x.AfterScheduled("retry", next(x), func(x *Exec) time.Duration {
		if p.Deadline > 0 && x.Due()-start >= p.Deadline {
			x.giveUp(spec, GiveUpDeadline, FormatSpan(p.Deadline)+" deadline passed")
			return 0
		}
		used++
		if r := x.tryAcquire(spec, token); !r.Nil() {
			return 0 // granted, or no answer to act on
		}
		if p.Retries > 0 && used >= p.Retries {
			x.giveUp(spec, GiveUpRetries, fmt.Sprintf("%d retries used up", p.Retries))
			return 0
		}
		return next(x)
	})
	return first
}

// tryAcquire is one attempt: SET key token NX PX ttl, believed as Acquire
// believes it.
func (x *Exec) tryAcquire(spec AcquireSpec, token string) Reply {
	key := x.Key(spec.Key)
	args := []any{"SET", key, token, "NX", "PX", x.TTL(spec.TTL)}
	op := &Op{Kind: OpAcquire, Form: FormSET, Lock: spec.lock(), Key: key, Token: token, TTL: spec.TTL, NX: true}
	r := x.send(x.conn(), LockNode, FormatCommand(args), args, op)
	x.r.believe(x.actor, op, r)
	return r
}

// giveUp logs the client's decision to stop trying and report that it
// could not acquire, with its reason.
func (x *Exec) giveUp(spec AcquireSpec, reason, why string) {
	x.r.record(Event{Kind: Info, Actor: x.actor.Name, Step: x.label, Move: x.move,
		Note:  x.actor.Name + " could not acquire: " + why,
		Op:    &Op{Kind: OpGiveUp, Form: reason, Lock: spec.lock(), Key: x.Key(spec.Key)},
		Timed: x.timed, Due: x.due()})
}

// AfterScheduled is After, with d counted from the story time the schedule
// says the step runs at (see scheduled) rather than from the clock, which
// on a live server is a little ahead. Timers of several actors started this
// way fall due in the order the story says, on either server.
func (x *Exec) AfterScheduled(label string, d time.Duration, f func(x *Exec) time.Duration) {
	// due from the schedule alone: going through After read a live clock
	// twice (once here, once in After), and a loaded machine put a
	// millisecond or more between the two readings, so clients refused
	// together no longer retried in the same millisecond
	x.startTimer(label, x.scheduled()+d, f)
}

// scheduled is the story time the step was due by the schedule: a timer's
// due time, or for a move of the schedule the waits before it added up. On
// the embedded server that is the clock; on a live one the clock runs a
// little ahead, since every command takes real time. Retries counted from
// it keep the story's timing on both, so clients that were refused
// together come back in the same millisecond, and a seed repeats a run.
func (x *Exec) scheduled() time.Duration {
	if x.timed {
		return x.dueAt
	}
	var t time.Duration
	for _, m := range x.r.script.Moves[:min(max(x.move, 0), len(x.r.script.Moves))] {
		if m.Kind == MoveAdvance {
			t += m.D
		}
	}
	return t
}
