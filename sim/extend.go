package sim

import "time"

// WatchdogLabel is the label of a watchdog's timer: its renewals carry it
// as their step, and Snapshot.Timers lists it while the watchdog runs.
const WatchdogLabel = "watchdog"

// Watchdog starts the actor's watchdog for the lock it has just acquired:
// every third of ttl it sends the compare-and-PEXPIRE script (Extend) with
// the token of that acquisition, giving the lease a fresh ttl. A reply of
// (integer) 0 (the key holds another token) or -1 (no such key) stops it
// for good: the lease is lost and a renewal never recreates a lock. An
// error or a missing answer is tried again at the next period. The
// watchdog is a timer of the actor, so it freezes when the actor is paused
// and dies when it crashes; StopTimers stops it (a release).
func (x *Exec) Watchdog(lock, name string, ttl time.Duration) {
	token := x.actor.Value
	every := ttl / 3
	x.After(WatchdogLabel, every, func(x *Exec) time.Duration {
		n, ok := x.Extend(lock, name, token, ttl).Int()
		if ok && n != 1 {
			return 0
		}
		return every
	})
}

// WatchdogSetIfeq is Watchdog renewing in one command of Redis 8.4 or
// Valkey 8.1 (ExtendSetIfeq: SET key token IFEQ token PX ttl): it stops
// at the first nil, which says the key no longer held its token; an error
// or no reply is tried again at the next period, as Watchdog does.
func (x *Exec) WatchdogSetIfeq(lock, name string, ttl time.Duration) {
	token := x.actor.Value
	every := ttl / 3
	x.After(WatchdogLabel, every, func(x *Exec) time.Duration {
		if r := x.ExtendSetIfeq(lock, name, token, ttl); r.Nil() {
			return 0
		}
		return every
	})
}

// Handle is the token of the actor's n-th granted acquisition in this run
// (1 for the first), as a client library's lock handle keeps it; "" if
// the actor was granted fewer. An old handle's token names an acquisition
// that is over even when the same actor holds the lock again.
func (x *Exec) Handle(n int) string {
	seen := 0
	for _, e := range x.r.Events {
		if e.Actor != x.actor.Name || e.Op == nil || e.Op.Kind != OpAcquire {
			continue
		}
		if granted(e) {
			seen++
			if seen == n {
				return e.Op.Token
			}
		}
	}
	return ""
}

// granted reports whether an acquire's reply granted the lock, by its form.
func granted(e Event) bool {
	switch e.Op.Form {
	case FormSETNX:
		n, ok := e.Int()
		return ok && n == 1
	case FormFenced:
		n, ok := e.Int()
		return ok && n > 0
	}
	return e.IsOK()
}
