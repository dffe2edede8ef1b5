package serve

import (
	"fmt"
	"sync"
	"time"
)

// Clock is the time a session's limits are counted on: the real one in a
// server, a fake one in tests.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed; stop
	// cancels it, reporting whether it had not run yet.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// limits closes a session after Idle without a key (warning IdleWarning
// before) and after MaxTime in all. Keys are the only activity: a screen
// that animates is not a student at work.
type limits struct {
	clock         Clock
	idle, maxTime time.Duration
	// warn and end are called outside the lock, from the clock's goroutine
	warn func(left time.Duration)
	end  func(line string)

	mu      sync.Mutex
	started time.Time
	lastKey time.Time
	warned  bool
	done    bool
	stop    func() bool
}

// start counts from now.
func (l *limits) start() {
	l.mu.Lock()
	l.started = l.clock.Now()
	l.lastKey = l.started
	l.mu.Unlock()
	l.check()
}

// key counts a key typed now: the idle time starts again. It reports
// whether the idle warning had been given, so that a caller that is not
// a key knows whether there is a warning on screen to clear.
func (l *limits) key() (warned bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastKey = l.clock.Now()
	warned, l.warned = l.warned, false
	return warned
}

// close stops the timer; the session is ending.
func (l *limits) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = true
	if l.stop != nil {
		l.stop()
	}
}

// check warns or ends the session when its time has come, and sets the
// timer for the next moment that could.
func (l *limits) check() {
	l.mu.Lock()
	if l.done {
		l.mu.Unlock()
		return
	}
	now := l.clock.Now()
	var warn, end func()
	next := time.Duration(-1)
	soonest := func(at time.Time) {
		if d := at.Sub(now); next < 0 || d < next {
			next = d
		}
	}
	idleFor := now.Sub(l.lastKey)
	switch {
	case l.maxTime > 0 && now.Sub(l.started) >= l.maxTime:
		end = func() {
			l.end(fmt.Sprintf("locksim: the session reached its limit of %s and was closed", span(l.maxTime)))
		}
	case l.idle > 0 && idleFor >= l.idle:
		end = func() { l.end(fmt.Sprintf("locksim: closed after %s without a key", span(l.idle))) }
	}
	if end != nil {
		l.done = true
		l.mu.Unlock()
		end()
		return
	}
	if l.maxTime > 0 {
		soonest(l.started.Add(l.maxTime))
	}
	if l.idle > 0 {
		warnAt := l.lastKey.Add(l.idle - min(IdleWarning, l.idle/2))
		if !l.warned && !now.Before(warnAt) {
			l.warned = true
			left := l.lastKey.Add(l.idle).Sub(now)
			warn = func() { l.warn(left) }
		}
		if l.warned {
			soonest(l.lastKey.Add(l.idle))
		} else {
			soonest(warnAt)
		}
	}
	if next >= 0 {
		l.stop = l.clock.AfterFunc(next, l.check)
	}
	l.mu.Unlock()
	if warn != nil {
		warn()
	}
}

// span says a limit in words: "15 min", "3 h", "90 s".
func span(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return fmt.Sprintf("%d s", (d+time.Second/2)/time.Second)
}
