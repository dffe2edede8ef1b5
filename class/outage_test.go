package class

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locksim/play"
)

// errRefused is what a store that went away answers (go-redis's dial
// error, as a Redis hub wraps it).
var errRefused = errors.New("dial tcp 127.0.0.1:6390: connect: connection refused")

// flaky is one server's link to a class store that fails while down:
// every call the seats make answers errRefused, as a Redis whose server
// stopped does. Its watch goes on, as go-redis's subscription reconnects.
type flaky struct {
	Hub
	down atomic.Bool
	// swapFailed and putFailed get a token for each move and row refused
	swapFailed, putFailed chan struct{}
}

func newFlaky(h Hub) *flaky {
	return &flaky{Hub: h, swapFailed: make(chan struct{}, 1), putFailed: make(chan struct{}, 1)}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (f *flaky) fail(code string) error {
	if f.down.Load() {
		return fmt.Errorf("class %s: %w", code, errRefused)
	}
	return nil
}

func (f *flaky) Put(ctx context.Context, code string, m Member) error {
	if err := f.fail(code); err != nil {
		signal(f.putFailed)
		return err
	}
	return f.Hub.Put(ctx, code, m)
}

func (f *flaky) SwapLead(ctx context.Context, code string, prev int64, l Lead) (Lead, bool, error) {
	if err := f.fail(code); err != nil {
		signal(f.swapFailed)
		return Lead{}, false, err
	}
	return f.Hub.SwapLead(ctx, code, prev, l)
}

func (f *flaky) Beat(ctx context.Context, code, id string, role Role, at time.Time) error {
	if err := f.fail(code); err != nil {
		return err
	}
	return f.Hub.Beat(ctx, code, id, role, at)
}

func (f *flaky) Roster(ctx context.Context, code string) ([]Member, error) {
	if err := f.fail(code); err != nil {
		return nil, err
	}
	return f.Hub.Roster(ctx, code)
}

func (f *flaky) LeadOf(ctx context.Context, code string) (Lead, bool, error) {
	if err := f.fail(code); err != nil {
		return Lead{}, false, err
	}
	return f.Hub.LeadOf(ctx, code)
}

// serverLog is one server's log.
type serverLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *serverLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *serverLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// waitToken waits for a token on c: an event, never a time.
func waitToken(t *testing.T, c chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-within(t).Done():
		t.Fatalf("waiting for %s", what)
	}
}

func told(s *session, note string) bool { return slices.Contains(s.notes, note) }

// TestOutageKeepsTheStep stops the class store under two servers of a
// class while the instructor steps and the students answer: the step is
// kept and tried again, the instructor and the students are told, each
// server logs the outage once with its cause, and when the store returns
// every follower comes to the leader's place with no key pressed, with
// every answer in the store.
func TestOutageKeepsTheStep(t *testing.T) {
	// owns its store, links and logs; its seats beat when it ticks them
	t.Parallel()
	ctx := context.Background()
	store := NewMemory(nil)
	linkA, linkB := newFlaky(store), newFlaky(store)
	var logA, logB serverLog
	a, b := OutageLog(linkA, logA.logf), OutageLog(linkB, logB.logf)
	info, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	teacher := joinBeating(t, a, code, Instructor, "teacher", "teacher", 1)
	teacher.goTo(play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1})
	teacher.do(teacher.p.AskFollow())
	teacher.report()
	s1 := joinBeating(t, a, code, Student, "k-1", "s1", 11)
	s2 := joinBeating(t, b, code, Student, "k-2", "s2", 12)
	at := questionStep(teacher.pos)
	q, _ := QuestionOf(teacher.pos)
	pos := teacher.pos
	pos.Step = at
	teacher.goTo(pos)
	for _, s := range []*session{s1, s2} {
		s.hear("the ask to follow", func(s *session) bool { return s.p.Asked() })
		s.do(s.p.Follow())
		s.hear("the question", leadAtStep(at))
	}

	// the store stops answering both servers: each seat's next beat finds it
	linkA.down.Store(true)
	linkB.down.Store(true)
	for _, s := range []*session{teacher, s1, s2} {
		s.tick()
		s.hear("the store's outage", func(s *session) bool { return s.p.OutOfTouch() })
	}
	if !told(teacher, OutNote) {
		t.Fatalf("the instructor was told %q", teacher.notes)
	}
	for _, s := range []*session{s1, s2} {
		if !told(s, OutStudentNote) {
			t.Fatalf("%s was told %q", s.name, s.notes)
		}
	}
	// answers and the reveal's step, all refused
	s1.answer(0)
	s2.answer(1)
	waitToken(t, linkB.putFailed, "s2's answer refused")
	pos.Step = at + 1
	teacher.goTo(pos)
	waitToken(t, linkA.swapFailed, "the instructor's step refused")
	if l, _, _ := store.LeadOf(ctx, code); l.Pos.Step != at {
		t.Fatalf("the store's place is at step %d during the outage, want %d", l.Pos.Step, at)
	}
	if s1.p.Lead().Pos.Step != at || s2.p.Lead().Pos.Step != at {
		t.Fatal("a follower moved while the store was down")
	}

	// the store returns: no key is pressed, the seats try again at their
	// next beat
	linkA.down.Store(false)
	linkB.down.Store(false)
	for _, s := range []*session{teacher, s1, s2} {
		s.tick()
	}
	for _, s := range []*session{s1, s2} {
		s.hear("the step kept", leadAtStep(at+1))
		if s.pos.Step != at+1 || !s.revealed {
			t.Fatalf("%s is at step %d (revealed %v), want the leader's %d", s.name, s.pos.Step, s.revealed, at+1)
		}
		s.hear("the store back", func(s *session) bool { return !s.p.OutOfTouch() })
		if !told(s, BackNote) {
			t.Fatalf("%s was told %q", s.name, s.notes)
		}
	}
	teacher.hear("the store back", func(s *session) bool { return !s.p.OutOfTouch() })
	if told(teacher, KeptLostNote) {
		t.Fatalf("the instructor's kept step was said to have lost: %q", teacher.notes)
	}
	// the answers given during the outage are in the store
	teacher.hear("both answers", answered(q, 2))
	rows, err := store.Roster(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Role != Student {
			continue
		}
		if _, ok := r.Answers[q.Key()]; !ok {
			t.Fatalf("%s's answer given during the outage is not in the store: %+v", r.Name, r.Answers)
		}
	}
	// one line per server per outage, with its cause
	for name, l := range map[string]*serverLog{"A": &logA, "B": &logB} {
		lines := l.all()
		if len(lines) != 1 || !strings.Contains(lines[0], "connection refused") || !strings.Contains(lines[0], "class store unreachable") {
			t.Fatalf("server %s logged %q, want one line with the cause", name, lines)
		}
	}
}

// TestKeptStepLosesToANewer cuts one server off the class store while
// the instructor steps in a session there and then in a session on the
// other server: when the link returns, the kept step loses the
// compare-and-set to the newer one, is dropped, and its session is told
// and shows the class's place, where every follower is.
func TestKeptStepLosesToANewer(t *testing.T) {
	// owns its store, links and logs; its seats beat when it ticks them
	t.Parallel()
	ctx := context.Background()
	store := NewMemory(nil)
	linkA := newFlaky(store)
	var logA serverLog
	a := OutageLog(linkA, logA.logf)
	b := Hub(store)
	info, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	t1 := joinBeating(t, a, code, Instructor, "teacher", "teacher", 1)
	t1.goTo(play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1})
	t1.do(t1.p.AskFollow())
	t1.report()
	t2 := joinAs(t, b, code, Instructor, "teacher", "teacher", 1)
	t2.hear("the class's place", func(s *session) bool { return s.p.Lead() != nil && s.p.Asked() })
	s1 := joinAs(t, b, code, Student, "k-1", "s1", 11)
	s1.hear("the ask to follow", func(s *session) bool { return s.p.Asked() })
	s1.do(s1.p.Follow())

	linkA.down.Store(true)
	t1.tick()
	t1.hear("the store's outage", func(s *session) bool { return s.p.OutOfTouch() })
	kept := t1.pos
	kept.Step = 1
	t1.goTo(kept)
	waitToken(t, linkA.swapFailed, "the kept step refused")
	newer := t2.pos
	newer.Step = 2
	t2.goTo(newer)
	s1.hear("the newer step", leadAtStep(2))

	linkA.down.Store(false)
	t1.tick()
	t1.hear("its kept step's fate", func(s *session) bool { return told(s, KeptLostNote) })
	if t1.pos.Step != 2 {
		t1.hear("the class's place", leadAtStep(2))
	}
	if t1.pos.Step != 2 {
		t.Fatalf("the session whose step lost shows step %d, want the class's 2", t1.pos.Step)
	}
	if l, _, _ := store.LeadOf(ctx, code); l.Pos.Step != 2 {
		t.Fatalf("the class's place is step %d, want the newer move's 2", l.Pos.Step)
	}
	if s1.pos.Step != 2 {
		t.Fatalf("the follower is at step %d", s1.pos.Step)
	}
	if lines := logA.all(); len(lines) != 1 {
		t.Fatalf("server A logged %q", lines)
	}
}

// TestFlushOfNothingSaysNothingOfTheStore: a seat whose beat found the
// class store unreachable stays out of touch through a flush with nothing
// to write (a kick after the row went, a refresh with no change): only a
// write tried tells whether the store answers, so its session is never
// told the class is back in touch during the outage. The test calls the
// seat's beat and flush as its own loop does, so no ticker decides it.
func TestFlushOfNothingSaysNothingOfTheStore(t *testing.T) {
	ctx := context.Background()
	store := NewMemory(nil)
	link := newFlaky(store)
	info, err := link.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	beats := make(chan time.Time)
	seat, err := sit(ctx, link, info.Code, Member{ID: "k-1", Name: "s1", Role: Student}, nil, beats)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { seat.Leave(ctx) })
	w, err := seat.Watch()
	if err != nil {
		t.Fatal(err)
	}
	link.down.Store(true)
	seat.beat()
	if !seat.Down() {
		t.Fatal("a beat the store refused should leave the seat out of touch")
	}
	seat.mu.Lock()
	// the row went as the seat sat; its refresh is Refresh away
	due := seat.lead != nil || seat.rowDue || len(seat.matches) > 0
	seat.mu.Unlock()
	if due {
		t.Fatal("the seat has something to put: its flush would try a write")
	}
	seat.flush()
	if !seat.Down() {
		t.Fatal("a flush that wrote nothing said the store was back during the outage")
	}
	// the watch heard the outage and nothing after it (a watch keeps the
	// newest state of the store only, so it is read before the store
	// returns)
	var heard []Store
	for len(heard) == 0 {
		for _, e := range next(t, w) {
			if e.Kind == KindStore {
				heard = append(heard, *e.Store)
			}
		}
	}
	// the store returns: the next write that goes through (a beat, every
	// Beat) says so, and only then
	link.down.Store(false)
	select {
	case beats <- time.Now():
	case <-within(t).Done():
		t.Fatal("the seat took no beat")
	}
	for heard[len(heard)-1].Down {
		for _, e := range next(t, w) {
			if e.Kind == KindStore {
				heard = append(heard, *e.Store)
			}
		}
	}
	if len(heard) != 2 || !heard[0].Down {
		t.Fatalf("the seat's watch heard %+v, want the outage, then the store back", heard)
	}
}

// gate is a hub whose Put waits for its release, then answers ok.
type gate struct {
	*flaky
	putting chan struct{} // a token as a gated Put starts
	release chan struct{}
}

func (g *gate) Put(ctx context.Context, code string, m Member) error {
	if m.Name != "slow" {
		return g.flaky.Put(ctx, code, m)
	}
	g.putting <- struct{}{}
	<-g.release
	return nil // answered before the store went away
}

// TestOutageLogIgnoresAnAnswerFromBefore: a call answered before the
// store went away but noted after a failure (another goroutine's, on a
// busy machine) does not end the outage in the log: the outage is one
// line, however its calls' answers interleave.
func TestOutageLogIgnoresAnAnswerFromBefore(t *testing.T) {
	ctx := context.Background()
	store := NewMemory(nil)
	g := &gate{flaky: newFlaky(store), putting: make(chan struct{}), release: make(chan struct{})}
	var log serverLog
	h := OutageLog(g, log.logf)
	info, err := h.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Put(ctx, info.Code, Member{ID: "k-1", Name: "slow", Role: Student}) }()
	<-g.putting // the slow call has begun
	g.down.Store(true)
	if err := h.Put(ctx, info.Code, Member{ID: "k-2", Name: "s2", Role: Student}); err == nil {
		t.Fatal("a Put went through the outage")
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := h.Put(ctx, info.Code, Member{ID: "k-2", Name: "s2", Role: Student}); err == nil {
		t.Fatal("a Put went through the outage")
	}
	if lines := log.all(); len(lines) != 1 {
		t.Fatalf("one outage logged %d lines: %q", len(lines), lines)
	}
	// the store back, a call begun after says so: the next outage is news
	g.down.Store(false)
	if err := h.Put(ctx, info.Code, Member{ID: "k-2", Name: "s2", Role: Student}); err != nil {
		t.Fatal(err)
	}
	g.down.Store(true)
	_ = h.Put(ctx, info.Code, Member{ID: "k-2", Name: "s2", Role: Student})
	if lines := log.all(); len(lines) != 2 {
		t.Fatalf("two outages logged %d lines: %q", len(lines), lines)
	}
}
