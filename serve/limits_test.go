package serve

import (
	"strings"
	"testing"
	"time"

	"locksim/serve/termtest"
	"locksim/sim/simtest"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
)

// TestIdle warns a minute before the idle close, forgets the warning on a
// key, and closes the session after the idle time with one line. Time is
// the fake clock's: keys are the only activity.
func TestIdle(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	onBoth(t, Config{Clock: clock, Idle: 10 * time.Minute, MaxTime: -1}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		tm := d.New(t).Open(t, termtest.At{}, 80, 24)
		tm.WaitFor("1  race")
		warning := "this session closes in 1 min unless a key is pressed"
		clock.Advance(9*time.Minute - time.Second)
		clock.Advance(time.Second) // the warning is sent as this returns: the program has it
		tm.WaitFor(warning)
		tm.Send("\x1b[B") // ↓: a key
		tm.WaitUntil("the warning gone", func(s string) bool { return !strings.Contains(s, warning) && strings.Contains(s, "2  options") })
		clock.Advance(time.Minute) // the old close time: a key came since
		clock.Advance(8 * time.Minute)
		tm.WaitFor(warning)
		clock.Advance(time.Minute)
		endsWith(t, d, tm, false, "locksim: closed after 10 min without a key")
	})
}

// TestMaxTime closes a session at its time limit, keys or not.
func TestMaxTime(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	onBoth(t, Config{Clock: clock, Idle: -1, MaxTime: time.Hour}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		tm := d.New(t).Open(t, termtest.At{}, 80, 24)
		tm.WaitFor("1  race")
		clock.Advance(59 * time.Minute)
		tm.Send("\x1b[B")
		tm.WaitFor("2  options")
		clock.Advance(time.Minute)
		endsWith(t, d, tm, false, "locksim: the session reached its limit of 1 h and was closed")
	})
}

func TestSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Hour: "1 h", 15 * time.Minute: "15 min", 90 * time.Second: "90 s", 59 * time.Second: "59 s"} {
		if got := span(d); got != want {
			t.Errorf("span(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestIdleIsQuiet: a session nobody types in calls no View and sends no
// byte: nothing on screen ticks. It watches a second of real time after
// the screen has settled, so it is in the slow tier.
func TestIdleIsQuiet(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	s, addr := testServer(t, Config{})
	tm := termtest.Open(t, termtest.Dial(t, addr, "student", termtest.NewKey(t)), "xterm-256color", 100, 30)
	tm.WaitFor("1  race")
	tm.Send("\r")
	tm.WaitFor("1-3 your prediction")
	tm.Send("2")
	tm.WaitFor("verdict holders 1")
	// settled: no byte for a quarter of a second
	for n := -1; n != tm.BytesSeen(); {
		n = tm.BytesSeen()
		time.Sleep(250 * time.Millisecond)
	}
	views, sent := s.viewCalls.Load(), tm.BytesSeen()
	time.Sleep(time.Second)
	if v := s.viewCalls.Load() - views; v != 0 {
		t.Errorf("%d View calls in an idle second", v)
	}
	if got := tm.RawSince(sent); got != "" {
		t.Errorf("an idle second sent %q", got)
	}
}

// touchingClass hands each joined session to the test, which touches it
// as a class's hook does when the instructor moves.
type touchingClass struct{ joined chan *Session }

func (c touchingClass) Model(s *Session, app *tui.App) tea.Model { return app }
func (c touchingClass) Join(s *Session)                          { c.joined <- s }
func (c touchingClass) Leave(s *Session)                         {}

// TestTouchKeepsALessonOpen: a session that follows a lesson without a
// key (a projector, a student watching) is touched by its class at each
// of the instructor's moves: the warning goes, and the idle close waits
// from the touch.
func TestTouchKeepsALessonOpen(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	c := touchingClass{joined: make(chan *Session, 1)}
	onBoth(t, Config{Clock: clock, Idle: 10 * time.Minute, MaxTime: -1, Class: c}, func(t *testing.T, _ *Server, d termtest.Dialer, _ string) {
		tm := d.New(t).Open(t, termtest.At{}, 80, 24)
		tm.WaitFor("1  race")
		var ses *Session
		select {
		case ses = <-c.joined:
		case <-time.After(hang):
			t.Fatal("the session never joined its class")
		}
		warning := "this session closes in 1 min unless a key is pressed"
		clock.Advance(9 * time.Minute)
		tm.WaitFor(warning)
		ses.Touch()
		tm.WaitUntil("the warning gone", func(s string) bool { return !strings.Contains(s, warning) && strings.Contains(s, "1  race") })
		clock.Advance(time.Minute) // the old close time: a touch came since
		clock.Advance(8 * time.Minute)
		tm.WaitFor(warning)
		clock.Advance(time.Minute)
		endsWith(t, d, tm, false, "locksim: closed after 10 min without a key")
	})
}

// TestKeyReportsTheWarning: a key (or a class's touch) reports whether
// the idle warning had been given, once: a touch sends the screen a
// message only to clear a warning on it, as each message costs a view.
func TestKeyReportsTheWarning(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	var warned []time.Duration
	l := &limits{clock: clock, idle: 10 * time.Minute, warn: func(left time.Duration) { warned = append(warned, left) }, end: func(string) {}}
	l.start()
	defer l.close()
	if l.key() {
		t.Error("a key with no warning given reports one")
	}
	clock.Advance(9 * time.Minute)
	if len(warned) != 1 || warned[0] != time.Minute {
		t.Fatalf("after 9 min of a 10 min idle limit: warnings %v, want one of 1 min", warned)
	}
	if !l.key() {
		t.Error("the key after the warning does not report it")
	}
	if l.key() {
		t.Error("a second key reports the warning again")
	}
}
