package class

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/sim/simtest"

	"github.com/alicebob/miniredis/v2"
)

// t0 is the tests' clock: rows are put at it, so they are online at it.
var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func at0() time.Time { return t0 }

// within is a hang guard for events that come from another goroutine, or
// another server: generous, never a timing the test measures.
func within(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// next waits for the watch's next events and fails the test on an error.
func next(t *testing.T, w *Watch) []Event {
	t.Helper()
	evs, err := w.Next(within(t))
	if err != nil {
		t.Fatalf("waiting for the class's events: %v", err)
	}
	return evs
}

// waitFor takes events from w until one satisfies ok, and returns it.
func waitFor(t *testing.T, w *Watch, what string, ok func(Event) bool) Event {
	t.Helper()
	ctx := within(t)
	for {
		evs, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		for _, e := range evs {
			if ok(e) {
				return e
			}
		}
	}
}

func gcPause(step int) play.Position {
	return play.Position{Version: play.PositionVersion, Scene: "gc-pause", Step: step, Seed: 3}
}

// testHubs runs the hub contract on one instructor hub and one student
// hub that share a class: the same memory hub twice, two clients of one
// miniredis, and (slow tier) two clients of one redis-server.
func TestHubs(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		h := NewMemory(at0)
		hubContract(t, h, h)
	})
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		s := miniredis.RunT(t)
		hubContract(t, redisHub(t, "redis://"+s.Addr()), redisHub(t, "redis://"+s.Addr()))
	})
	t.Run("redis-server", func(t *testing.T) {
		url := simtest.StartRedis(t)
		hubContract(t, redisHub(t, url), redisHub(t, url))
		// every key the class left is under the prefix and will expire
		c := simtest.Client(t, url)
		for _, k := range simtest.Keys(t, url) {
			if !strings.HasPrefix(k, Prefix) {
				t.Errorf("key %s is outside %s", k, Prefix)
			}
			if ttl := c.PTTL(context.Background(), k).Val(); ttl <= 0 || ttl > TTL {
				t.Errorf("key %s has TTL %v, want one up to %v", k, ttl, TTL)
			}
		}
	})
}

func redisHub(t *testing.T, url string) *Redis {
	t.Helper()
	h, err := NewRedis(context.Background(), url, at0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func hubContract(t *testing.T, a, b Hub) {
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher-key")
	if err != nil {
		t.Fatal(err)
	}
	if !ValidCode(info.Code) || info.Lead != "teacher-key" {
		t.Fatalf("opened %+v", info)
	}
	if again, err := b.Open(ctx, "teacher-key"); err != nil || again.Code != info.Code {
		t.Fatalf("the instructor opening again, on the other server, got %+v, %v; want class %s", again, err, info.Code)
	}
	if other, err := b.Open(ctx, "another-teacher"); err != nil || other.Code == info.Code {
		t.Fatalf("another instructor got %+v, %v", other, err)
	}
	if got, err := b.Find(ctx, info.Code); err != nil || got.Lead != "teacher-key" {
		t.Fatalf("the other server finds %+v, %v", got, err)
	}
	if _, err := b.Find(ctx, "zzzzz"); !errors.Is(err, ErrNoClass) {
		t.Fatalf("an unknown code: %v, want ErrNoClass", err)
	}
	if _, err := b.Find(ctx, "not a code"); !errors.Is(err, ErrNoClass) {
		t.Fatalf("a name that is no code: %v, want ErrNoClass", err)
	}

	// a student on server b watches; the instructor on server a leads
	student, err := Sit(ctx, b, info.Code, Member{ID: "k1", Name: "ann", Role: Student}, at0)
	if err != nil {
		t.Fatal(err)
	}
	defer student.Leave(ctx)
	w, err := student.Watch()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	teacher, err := Sit(ctx, a, info.Code, Member{ID: "teacher-key", Name: "teacher", Role: Instructor}, at0)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Leave(ctx)
	teacher.Lead(Lead{Pos: gcPause(4), Follow: true})
	e := waitFor(t, w, "the instructor's place", func(e Event) bool { return e.Kind == KindLead })
	if e.Lead.Pos.Scene != "gc-pause" || e.Lead.Pos.Step != 4 || !e.Lead.Follow {
		t.Fatalf("the follower got %+v", e.Lead)
	}
	teacher.Lead(Lead{Pos: gcPause(5), Follow: true})
	e = waitFor(t, w, "the instructor's next step", func(e Event) bool { return e.Kind == KindLead && e.Lead.Pos.Step == 5 })

	// the instructor sees the student's prediction arrive
	iw, err := teacher.Watch()
	if err != nil {
		t.Fatal(err)
	}
	defer iw.Close()
	// a watch begins with the current place
	if evs := next(t, iw); evs[0].Kind != KindLead || evs[0].Lead.Pos.Step != 5 {
		t.Fatalf("a new watch began with %+v", evs[0])
	}
	pos := gcPause(5)
	pos.Prediction = &play.Prediction{Chosen: 1}
	prog := progress.Progress{Done: map[string]bool{"race": true}}
	student.Report(Member{Pos: pos, Actual: -1, Following: true, Prog: prog})
	prog.Done["fencing"] = true // the caller's progress goes on changing
	e = waitFor(t, iw, "the student's row", func(e Event) bool { return e.Kind == KindMember && e.Member.ID == "k1" })
	if m := e.Member; m.Name != "ann" || m.Role != Student || !m.Online || !m.Following || m.Pos.Prediction == nil || m.Pos.Prediction.Chosen != 1 {
		t.Fatalf("the instructor got the row %+v", m)
	}
	roster, err := a.Roster(ctx, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range roster {
		names = append(names, m.Name)
	}
	if !slices.Equal(names, []string{"ann", "teacher"}) {
		t.Fatalf("roster %v", names)
	}
	if roster[0].Prog.Done["fencing"] {
		t.Errorf("the roster kept the caller's progress map, changed after the report")
	}
	l, ok, err := b.LeadOf(ctx, info.Code)
	if err != nil || !ok || l.Pos.Step != 5 {
		t.Fatalf("LeadOf: %+v %v %v", l, ok, err)
	}

	// two watches of one class on one server: closing one leaves the other
	w2, err := b.Watch(ctx, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	w.Close()
	teacher.Lead(Lead{Pos: gcPause(6), Follow: true})
	waitFor(t, w2, "the next step on the second watch", func(e Event) bool { return e.Kind == KindLead && e.Lead.Pos.Step == 6 })

	// leaving puts the row offline
	student.Leave(ctx)
	e = waitFor(t, iw, "the student leaving", func(e Event) bool { return e.Kind == KindMember && e.Member.ID == "k1" && !e.Member.Online })
}

// TestWatchKeepsTheNewest: events wait in a watch, one per thing, the
// newest kept, in the order they first came.
func TestWatchKeepsTheNewest(t *testing.T) {
	w := newWatch(nil)
	w.put(Event{Kind: KindLead, Lead: &Lead{Seq: 2}})
	w.put(Event{Kind: KindMember, Member: &Member{ID: "a", Seen: t0}})
	w.put(Event{Kind: KindLead, Lead: &Lead{Seq: 1}}) // late: older than the one waiting
	w.put(Event{Kind: KindMember, Member: &Member{ID: "b", Seen: t0}})
	w.put(Event{Kind: KindMember, Member: &Member{ID: "a", Seen: t0.Add(time.Second), Name: "ann"}})
	evs := next(t, w)
	if len(evs) != 3 || evs[0].Lead.Seq != 2 || evs[1].Member.Name != "ann" || evs[2].Member.ID != "b" {
		t.Fatalf("got %+v", evs)
	}
	w.Close()
	if _, err := w.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// TestOneLeader: two sessions of one instructor key, on two servers of
// one class, lead one place: a move is a compare-and-set on the version
// its session saw; the one made from a place already moved loses, is
// dropped, and its session hears the winning place with Lost set.
func TestOneLeader(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		h := NewMemory(at0)
		oneLeader(t, h, h)
	})
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		s := miniredis.RunT(t)
		oneLeader(t, redisHub(t, "redis://"+s.Addr()), redisHub(t, "redis://"+s.Addr()))
	})
	t.Run("redis-server", func(t *testing.T) {
		url := simtest.StartRedis(t)
		oneLeader(t, redisHub(t, url), redisHub(t, url))
	})
}

func oneLeader(t *testing.T, a, b Hub) {
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher-key")
	if err != nil {
		t.Fatal(err)
	}
	sit := func(h Hub) (*Seat, *Watch) {
		s, err := Sit(ctx, h, info.Code, Member{ID: "teacher-key", Name: "teacher", Role: Instructor}, at0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Leave(ctx) })
		w, err := s.Watch()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Close)
		return s, w
	}
	one, w1 := sit(a)
	two, w2 := sit(b)
	if one.ID() == two.ID() {
		t.Fatal("two seats share an id")
	}
	one.Lead(Lead{Pos: gcPause(4)})
	e := waitFor(t, w2, "the first place", func(e Event) bool { return e.Kind == KindLead && e.Lead.Pos.Step == 4 })
	if e.Lead.Version != 1 || e.Lead.By != one.ID() || e.Lost {
		t.Fatalf("the first place: %+v, lost %v", e.Lead, e.Lost)
	}
	waitFor(t, w1, "the first place's echo", func(e Event) bool { return e.Kind == KindLead && e.Lead.Version == 1 })
	// both saw version 1; the second session moves first
	two.Lead(Lead{Pos: gcPause(6), Version: 1})
	waitFor(t, w1, "the second session's move", func(e Event) bool { return e.Kind == KindLead && e.Lead.Version == 2 })
	// the first session's move, made from version 1, comes too late
	one.Lead(Lead{Pos: gcPause(5), Follow: true, Version: 1})
	e = waitFor(t, w1, "the news of the lost move", func(e Event) bool { return e.Kind == KindLead && e.Lost })
	if e.Lead.Pos.Step != 6 || e.Lead.Version != 2 || e.Lead.By != two.ID() || e.Lead.Follow {
		t.Fatalf("the lost move was told %+v", e.Lead)
	}
	l, ok, err := b.LeadOf(ctx, info.Code)
	if err != nil || !ok || l.Pos.Step != 6 || l.Version != 2 {
		t.Fatalf("the class's place after the race: %+v %v %v", l, ok, err)
	}
	// the first session, having seen version 2, moves again and wins; its
	// own next move goes in before its echo is heard
	one.Lead(Lead{Pos: gcPause(7), Version: 2})
	one.Lead(Lead{Pos: gcPause(8), Version: 2})
	waitFor(t, w2, "the first session's later move", func(e Event) bool { return e.Kind == KindLead && e.Lead.Pos.Step == 8 })
	if l, _, _ := a.LeadOf(ctx, info.Code); l.Pos.Step != 8 {
		t.Fatalf("the class's place is %+v", l)
	}
}

// TestLostStaysWithTheNewer: the news that a session's move lost stays
// with the place that replaces the winner's in the watch.
func TestLostStaysWithTheNewer(t *testing.T) {
	w := newWatch(nil)
	w.put(Event{Kind: KindLead, Lead: &Lead{Seq: 2}, Lost: true})
	w.put(Event{Kind: KindLead, Lead: &Lead{Seq: 3}})
	evs := next(t, w)
	if len(evs) != 1 || evs[0].Lead.Seq != 3 || !evs[0].Lost {
		t.Fatalf("got %+v", evs)
	}
	w.put(Event{Kind: KindLead, Lead: &Lead{Seq: 5}})
	w.put(Event{Kind: KindLead, Lead: &Lead{Seq: 4}, Lost: true}) // older, but its news counts
	evs = next(t, w)
	if len(evs) != 1 || evs[0].Lead.Seq != 5 || !evs[0].Lost {
		t.Fatalf("got %+v", evs)
	}
}

// TestNamesCloseClear: an instructor's class of one name is the same
// class each time it is opened, until it is closed; a closed class takes
// no one but keeps its roster for the report until cleared; a Redis hub's
// keys live for its retention.
func TestNamesCloseClear(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		namesCloseClear(t, NewMemory(at0))
	})
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		s := miniredis.RunT(t)
		h := redisHub(t, "redis://"+s.Addr())
		h.Retention = 48 * time.Hour
		info := namesCloseClear(t, h)
		if ttl := s.TTL(Prefix + info.Code); ttl <= 12*time.Hour || ttl > 48*time.Hour {
			t.Errorf("the class's record lives %v, want its retention of 48 h", ttl)
		}
	})
}

func namesCloseClear(t *testing.T, h Hub) Info {
	ctx := context.Background()
	mon, err := h.OpenNamed(ctx, "teacher-key", "monday")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := h.OpenNamed(ctx, "teacher-key", "monday"); err != nil || again.Code != mon.Code || again.Name != "monday" {
		t.Fatalf("monday opened again: %+v, %v; want %s", again, err, mon.Code)
	}
	if tue, err := h.OpenNamed(ctx, "teacher-key", "tuesday"); err != nil || tue.Code == mon.Code {
		t.Fatalf("tuesday: %+v, %v", tue, err)
	}
	ann, err := Sit(ctx, h, mon.Code, Member{ID: "k1", Name: "ann", Role: Student}, at0)
	if err != nil {
		t.Fatal(err)
	}
	ann.Leave(ctx)
	if err := h.CloseClass(ctx, mon.Code); err != nil {
		t.Fatal(err)
	}
	if got, err := h.Find(ctx, mon.Code); err != nil || got.Closed.IsZero() {
		t.Fatalf("the closed class: %+v, %v", got, err)
	}
	if _, err := Sit(ctx, h, mon.Code, Member{ID: "k2", Name: "bob", Role: Student}, at0); !errors.Is(err, ErrClassClosed) {
		t.Fatalf("sitting in a closed class: %v", err)
	}
	if roster, err := h.Roster(ctx, mon.Code); err != nil || len(roster) != 1 || roster[0].Name != "ann" {
		t.Fatalf("the closed class's roster: %+v, %v", roster, err)
	}
	if next, err := h.OpenNamed(ctx, "teacher-key", "monday"); err != nil || next.Code == mon.Code {
		t.Fatalf("monday after closing: %+v, %v", next, err)
	}
	if err := h.ClearRoster(ctx, mon.Code); err != nil {
		t.Fatal(err)
	}
	if roster, err := h.Roster(ctx, mon.Code); err != nil || len(roster) != 0 {
		t.Fatalf("the cleared roster: %+v, %v", roster, err)
	}
	return mon
}

// TestDiskKeepsTheClass: a hub kept in a directory gives its classes back
// after a restart (the same code, roster, answers and place), removes one
// whose retention is over, and leaves files that are no class's alone.
func TestDiskKeepsTheClass(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	h, err := OpenDir(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	info, err := h.OpenNamed(ctx, "teacher-key", "monday")
	if err != nil {
		t.Fatal(err)
	}
	old, err := h.Open(ctx, "old-teacher")
	if err != nil {
		t.Fatal(err)
	}
	ann, err := Sit(ctx, h, info.Code, Member{ID: "k1", Name: "ann", Role: Student}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pos := gcPause(3)
	pos.Prediction = &play.Prediction{Chosen: 2}
	ann.Report(Member{Pos: pos, Actual: -1, Prog: progress.Progress{Answers: map[string]progress.Answer{"gc-pause": {Chosen: 2}}}})
	if _, won, err := h.SwapLead(ctx, info.Code, 0, Lead{Pos: gcPause(3), Follow: true}); err != nil || !won {
		t.Fatalf("the place: %v, %v", won, err)
	}
	// the row reaches the hub from the seat's goroutine: wait for it
	for deadline := time.Now().Add(10 * time.Second); ; {
		if r, _ := h.Roster(ctx, info.Code); len(r) == 1 && r[0].Pos.Prediction != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ann's answer never reached the hub")
		}
		time.Sleep(5 * time.Millisecond)
	}
	ann.Leave(ctx)
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	// the other class's file is older than a retention of a day
	long := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, old.Code+".json"), long, long); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}

	again, err := OpenDir(dir, 24*time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, err := again.OpenNamed(ctx, "teacher-key", "monday"); err != nil || got.Code != info.Code {
		t.Fatalf("monday after the restart: %+v, %v; want %s", got, err, info.Code)
	}
	roster, err := again.Roster(ctx, info.Code)
	if err != nil || len(roster) != 1 || roster[0].Name != "ann" || roster[0].Pos.Prediction == nil || roster[0].Prog.Answers["gc-pause"].Chosen != 2 {
		t.Fatalf("the roster after the restart: %+v, %v", roster, err)
	}
	if l, ok, err := again.LeadOf(ctx, info.Code); err != nil || !ok || l.Pos.Step != 3 || l.Version != 1 || !l.Follow {
		t.Fatalf("the place after the restart: %+v, %v, %v", l, ok, err)
	}
	if _, err := again.Find(ctx, old.Code); !errors.Is(err, ErrNoClass) {
		t.Fatalf("the class past its retention: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, old.Code+".json")); !os.IsNotExist(err) {
		t.Fatalf("its file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatalf("a file no class's: %v", err)
	}
}

// TestAnswersFollowTheKey: a student who sits again, on another server of
// the class, with a progress of their own that lacks their earlier
// answers, keeps those answers in their row; their own entries win.
func TestAnswersFollowTheKey(t *testing.T) {
	simtest.QuickOnly(t)
	s := miniredis.RunT(t)
	a, b := redisHub(t, "redis://"+s.Addr()), redisHub(t, "redis://"+s.Addr())
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher-key")
	if err != nil {
		t.Fatal(err)
	}
	first, err := Sit(ctx, a, info.Code, Member{ID: "k1", Name: "ann", Role: Student,
		Prog: progress.Progress{Done: map[string]bool{"race": true}, Answers: map[string]progress.Answer{"gc-pause": {Chosen: 2, Right: true}}}}, at0)
	if err != nil {
		t.Fatal(err)
	}
	first.Leave(ctx)
	own := progress.Progress{Answers: map[string]progress.Answer{"fencing": {Chosen: 1}}}
	second, err := Sit(ctx, b, info.Code, Member{ID: "k1", Name: "ann", Role: Student, Prog: own}, at0)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Leave(ctx)
	second.Report(Member{Pos: gcPause(1), Actual: -1, Prog: own})
	if len(own.Answers) != 1 {
		t.Fatalf("the caller's progress was changed: %+v", own)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		roster, err := a.Roster(ctx, info.Code)
		if err != nil {
			t.Fatal(err)
		}
		if len(roster) == 1 && roster[0].Pos.Step == 1 {
			p := roster[0].Prog
			if !p.Done["race"] || p.Answers["gc-pause"].Chosen != 2 || !p.Answers["gc-pause"].Right || p.Answers["fencing"].Chosen != 1 {
				t.Fatalf("ann's row on the second server: %+v", p)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second server's row never reached the hub")
		}
	}
}

// TestSweepKnowsTheClasses: a sweep of the namespace (-cleanup) leaves the
// classes' keys alone and reports them as the classroom's, never as keys
// locksim did not write; with their registration taken by another value,
// they are not locksim's.
func TestSweepKnowsTheClasses(t *testing.T) {
	simtest.QuickOnly(t)
	s := miniredis.RunT(t)
	h := redisHub(t, "redis://"+s.Addr())
	ctx := context.Background()
	info, err := h.Open(ctx, "teacher-key")
	if err != nil {
		t.Fatal(err)
	}
	seat, err := Sit(ctx, h, info.Code, Member{ID: "k1", Name: "ann", Role: Student}, at0)
	if err != nil {
		t.Fatal(err)
	}
	seat.Leave(ctx)
	c := simtest.Client(t, "redis://"+s.Addr())
	r, err := sim.Sweep(ctx, c, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Foreign) > 0 || len(r.Removed) > 0 || len(r.Classes) < 3 || !slices.Contains(r.Classes, Prefix+info.Code) {
		t.Fatalf("the sweep: %+v", r)
	}
	if lines := r.Lines(); len(lines) != 1 || !strings.HasPrefix(lines[0], "classes: ") {
		t.Fatalf("the sweep says %q", lines)
	}
	for _, k := range s.Keys() {
		if ttl := s.TTL(k); ttl <= 0 || ttl > TTL {
			t.Errorf("key %s has TTL %v", k, ttl)
		}
	}
	key, _ := sim.ClassRegistration("")
	if err := c.Set(ctx, key, "someone else's", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if r, err := sim.Sweep(ctx, c, true); err != nil || len(r.Classes) > 0 || len(r.Foreign) < 3 {
		t.Fatalf("the sweep with another registration: %+v, %v", r, err)
	}
}
