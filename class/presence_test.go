package class

import (
	"context"
	"errors"
	"locksim/play"
	"locksim/scenes/progress"
	"locksim/sim/simtest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// clock is a test's clock, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// deadHub is a server's way to a hub that stops answering, as when the
// server dies: nothing it says arrives after.
type deadHub struct {
	Hub
	dead atomic.Bool
}

var errDead = errors.New("the server is dead")

func (h *deadHub) Beat(ctx context.Context, code, id string, role Role, at time.Time) error {
	if h.dead.Load() {
		return errDead
	}
	return h.Hub.Beat(ctx, code, id, role, at)
}

func (h *deadHub) Put(ctx context.Context, code string, m Member) error {
	if h.dead.Load() {
		return errDead
	}
	return h.Hub.Put(ctx, code, m)
}

// TestPresence: a session is online while it beats; one whose server
// dies is offline on the instructor's roster once Gone has passed, its
// answer kept in the roster and the poll; one that leaves is offline at
// once; the instructor's and the projector's beats, one key, are apart.
func TestPresence(t *testing.T) {
	t.Parallel()
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		t.Parallel() // its own hub and clock, beside the package's tests
		c := &clock{t: t0}
		h := NewMemory(c.now)
		presence(t, c, h, h)
	})
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		t.Parallel() // its own server and clock
		s := miniredis.RunT(t)
		c := &clock{t: t0}
		a, err := NewRedis(context.Background(), "redis://"+s.Addr(), c.now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = a.Close() })
		b, err := NewRedis(context.Background(), "redis://"+s.Addr(), c.now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		presence(t, c, a, b)
	})
}

// rows keeps the latest row of each member a watch has told of: events
// coalesce per row, so a test waits for a row's latest state, never for
// an event that may have been replaced.
type rows map[string]Member

// waitRow takes events from w until the latest row of id satisfies ok,
// and returns it.
func (rs rows) waitRow(t *testing.T, w *Watch, id, what string, ok func(Member) bool) Member {
	t.Helper()
	ctx := within(t)
	for {
		if m, seen := rs[id]; seen && ok(m) {
			return m
		}
		evs, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		for _, e := range evs {
			if e.Kind == KindMember {
				rs[e.Member.ID] = *e.Member
			}
		}
	}
}

// send gives ch one tick, blocking until its loop takes it: a roster's
// poll or a seat's beat, so the one before it is over (each loop takes its
// next tick once it has done what the last one asked).
func send(t *testing.T, ch chan time.Time, what string) {
	t.Helper()
	select {
	case ch <- time.Now():
	case <-within(t).Done():
		t.Fatalf("%s took no tick", what)
	}
}

// presence ticks the roster's poll and the seats' beats by hand (sit's
// beats, watchRoster's polls), where a server ticks every Beat: each wait
// is for the rows a poll puts, never for a ticker.
func presence(t *testing.T, c *clock, a, b Hub) {
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher-key")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := sit(ctx, a, info.Code, Member{ID: "teacher-key", Name: "teacher", Role: Instructor}, c.now, make(chan time.Time))
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Leave(ctx)
	polls := make(chan time.Time)
	iw, err := teacher.watchRoster(polls)
	if err != nil {
		t.Fatal(err)
	}
	defer iw.Close()
	// a poll, and one more that starts only once it is over
	poll := func() { send(t, polls, "the roster's poll"); send(t, polls, "the roster's poll") }
	teacher.Lead(Lead{Pos: gcPause(3)})

	dying := &deadHub{Hub: b}
	ann, err := sit(ctx, dying, info.Code, Member{ID: "k1", Name: "ann", Role: Student}, c.now, make(chan time.Time))
	if err != nil {
		t.Fatal(err)
	}
	defer ann.Leave(ctx)
	bobBeats := make(chan time.Time)
	bob, err := sit(ctx, b, info.Code, Member{ID: "k2", Name: "bob", Role: Student}, c.now, bobBeats)
	if err != nil {
		t.Fatal(err)
	}
	pos := gcPause(3)
	pos.Prediction = &play.Prediction{Chosen: 2}
	ann.Report(Member{Pos: pos, Actual: -1, Prog: progress.Progress{Answers: map[string]progress.Answer{"gc-pause": {Chosen: 2}}}})
	seen := rows{}
	seen.waitRow(t, iw, "k1", "ann's answer", func(m Member) bool { return m.Pos.Prediction != nil && m.Here(c.now()) })
	seen.waitRow(t, iw, "k2", "bob online", func(m Member) bool { return m.Here(c.now()) })

	// ann's server dies: no beat, no put from it after
	dying.dead.Store(true)
	c.advance(Gone + Beat)
	poll()
	m := seen.waitRow(t, iw, "k1", "ann offline", func(m Member) bool { return !m.Here(c.now()) })
	if m.Pos.Prediction == nil || m.Pos.Prediction.Chosen != 2 {
		t.Fatalf("ann's row lost her answer: %+v", m)
	}
	roster, err := a.Roster(ctx, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Tally(gcPause(3), roster, c.now())
	if p.Answered != 1 || p.Guesses[2] != 1 {
		t.Fatalf("the poll after ann's server died: %+v", p)
	}
	// bob beats on, as the clock goes: a beat, one more that starts once
	// it is over, then a poll
	send(t, bobBeats, "bob's seat")
	send(t, bobBeats, "bob's seat")
	poll()
	seen.waitRow(t, iw, "k2", "bob online after the clock moved", func(m Member) bool { return m.Here(c.now()) })
	bob.Leave(ctx)
	seen.waitRow(t, iw, "k2", "bob offline at once", func(m Member) bool { return !m.Here(c.now()) })

	// the projector, the instructor's key too, beats apart
	if err := a.Beat(ctx, info.Code, "teacher-key", Projector, c.now()); err != nil {
		t.Fatal(err)
	}
	if at, err := b.LastBeat(ctx, info.Code, "teacher-key", Projector); err != nil || !at.Equal(c.now()) {
		t.Fatalf("the projector's beat: %v, %v", at, err)
	}
	if err := a.Beat(ctx, info.Code, "teacher-key", Projector, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if at, err := b.LastBeat(ctx, info.Code, "teacher-key", Projector); err != nil || !at.IsZero() {
		t.Fatalf("the projector's beat once gone: %v, %v", at, err)
	}
}
