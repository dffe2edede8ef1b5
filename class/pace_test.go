package class

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/sim/simtest"

	"github.com/alicebob/miniredis/v2"
)

// eachHub runs f on one instructor hub and one student hub that share a
// class, with the test's clock: one memory hub twice, two clients of one
// miniredis, and (slow tier) two clients of one redis-server.
func eachHub(t *testing.T, f func(t *testing.T, c *clock, a, b Hub)) {
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		c := &clock{t: t0}
		h := NewMemory(c.now)
		f(t, c, h, h)
	})
	redisPair := func(t *testing.T, url string) {
		c := &clock{t: t0}
		var hs [2]Hub
		for i := range hs {
			h, err := NewRedis(context.Background(), url, c.now)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = h.Close() })
			hs[i] = h
		}
		f(t, c, hs[0], hs[1])
	}
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		redisPair(t, "redis://"+miniredis.RunT(t).Addr())
	})
	t.Run("redis-server", func(t *testing.T) {
		redisPair(t, simtest.StartRedis(t))
	})
}

// TestTimeSignals: a student's row says when their place last changed
// and when their last key came, by the seat's clock; a report at the same
// step keeps the step's time; leaving puts their time in the class, and a
// second session adds to it.
func TestTimeSignals(t *testing.T) {
	eachHub(t, timeSignals)
}

func timeSignals(t *testing.T, c *clock, a, b Hub) {
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher-key")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := Sit(ctx, a, info.Code, Member{ID: "teacher-key", Name: "teacher", Role: Instructor}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Leave(ctx)
	iw, err := teacher.Watch()
	if err != nil {
		t.Fatal(err)
	}
	defer iw.Close()
	ann, err := Sit(ctx, b, info.Code, Member{ID: "k1", Name: "ann", Role: Student, OnContents: true}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	seen := rows{}
	m := seen.waitRow(t, iw, "k1", "ann joining", func(m Member) bool { return true })
	if !m.StepAt.Equal(t0) || !m.KeyAt.Equal(t0) {
		t.Fatalf("a student who joins at %v: step at %v, key at %v", t0, m.StepAt, m.KeyAt)
	}

	c.advance(30 * time.Second)
	ann.Report(Member{Pos: gcPause(2), Actual: -1})
	m = seen.waitRow(t, iw, "k1", "ann at step 2", func(m Member) bool { return m.Pos.Step == 2 })
	if want := t0.Add(30 * time.Second); !m.StepAt.Equal(want) {
		t.Fatalf("step 2 reached at %v, the row says %v", want, m.StepAt)
	}

	// a key KeyGrain after the last put goes to the class at once
	c.advance(KeyGrain)
	ann.Key()
	keyAt := t0.Add(30*time.Second + KeyGrain)
	m = seen.waitRow(t, iw, "k1", "ann's key", func(m Member) bool { return m.KeyAt.Equal(keyAt) })
	if want := t0.Add(30 * time.Second); !m.StepAt.Equal(want) {
		t.Errorf("a key that moved nothing moved the step's time to %v", m.StepAt)
	}

	// an answer at the same step is no new step
	c.advance(time.Minute)
	ann.Report(Member{Pos: guessed(gcPause(2), 1), Actual: -1})
	m = seen.waitRow(t, iw, "k1", "ann's answer", func(m Member) bool { return m.Pos.Prediction != nil })
	if want := t0.Add(30 * time.Second); !m.StepAt.Equal(want) || !m.KeyAt.Equal(keyAt) {
		t.Errorf("after an answer at the same step: step at %v (want %v), key at %v (want %v)", m.StepAt, want, m.KeyAt, keyAt)
	}
	ann.Leave(ctx)
	m = seen.waitRow(t, iw, "k1", "ann leaving", func(m Member) bool { return !m.Online })
	first := 30*time.Second + KeyGrain + time.Minute
	if m.Spent != first {
		t.Errorf("ann's time in the class is %v, want %v", m.Spent, first)
	}

	// she comes back: her time adds up
	ann2, err := Sit(ctx, a, info.Code, Member{ID: "k1", Name: "ann", Role: Student}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	c.advance(2 * time.Minute)
	ann2.Leave(ctx)
	roster, err := b.Roster(ctx, info.Code)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roster {
		if r.ID == "k1" && r.Spent != first+2*time.Minute {
			t.Errorf("after two sessions ann's time is %v, want %v", r.Spent, first+2*time.Minute)
		}
	}
}

// TestHoldIsClassState: the instructor's hold is in the hub beside the
// place: a student on another server hears it, a watch begun later
// starts with it, and the release is heard alike.
func TestHoldIsClassState(t *testing.T) {
	eachHub(t, func(t *testing.T, c *clock, a, b Hub) {
		ctx := context.Background()
		info, err := a.Open(ctx, "teacher-key")
		if err != nil {
			t.Fatal(err)
		}
		teacher, err := Sit(ctx, a, info.Code, Member{ID: "teacher-key", Name: "teacher", Role: Instructor}, c.now)
		if err != nil {
			t.Fatal(err)
		}
		defer teacher.Leave(ctx)
		ann, err := Sit(ctx, b, info.Code, Member{ID: "k1", Name: "ann", Role: Student}, c.now)
		if err != nil {
			t.Fatal(err)
		}
		defer ann.Leave(ctx)
		w, err := ann.Watch()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		teacher.Lead(Lead{Pos: gcPause(3), Follow: true, Hold: true})
		waitFor(t, w, "the hold", func(e Event) bool { return e.Kind == KindLead && e.Lead.Hold && e.Lead.Pos.Step == 3 })
		if l, ok, err := b.LeadOf(ctx, info.Code); err != nil || !ok || !l.Hold {
			t.Fatalf("the other server's place: %+v %v %v, want it held", l, ok, err)
		}
		late, err := b.Watch(ctx, info.Code)
		if err != nil {
			t.Fatal(err)
		}
		defer late.Close()
		if evs := next(t, late); evs[0].Kind != KindLead || !evs[0].Lead.Hold {
			t.Fatalf("a watch begun while held starts with %+v", evs[0])
		}
		l, _, _ := a.LeadOf(ctx, info.Code)
		teacher.Lead(Lead{Pos: play.Position(gcPause(3)), Follow: true, Version: l.Version})
		waitFor(t, w, "the release", func(e Event) bool { return e.Kind == KindLead && !e.Lead.Hold })
		if l, _, _ := b.LeadOf(ctx, info.Code); l.Hold {
			t.Fatalf("the place after the release is still held: %+v", l)
		}
	})
}

// TestQuestions: the class's answers to each question some student
// answered, in the course's order, a scene's lesson in its order, each
// with its own text and how many came true; an instructor's own answers
// are not the class's.
func TestQuestions(t *testing.T) {
	race := Question{Scene: "race", Name: PredictQuestion}
	first := Question{Scene: "gc-pause", Name: PredictQuestion}
	second := Question{Scene: "gc-pause", Settings: map[string]int{"pause": 2}, Name: PredictQuestion}
	ans := func(q Question, chosen, actual int) Answer {
		return Answer{Q: q, Chosen: chosen, Ran: actual >= 0, Actual: actual}
	}
	with := func(id string, role Role, as ...Answer) Member {
		m := Member{V: RowVersion, ID: id, Name: id, Role: role, Answers: map[string]Answer{}}
		for _, a := range as {
			m.Answers[a.Q.Key()] = a
		}
		return m
	}
	qs := AskedOf([]Member{
		with("ann", Student, ans(race, 1, 1), ans(second, 0, 0), ans(first, 0, 1)),
		with("bob", Student, ans(race, 2, 1), ans(second, 1, -1)),
		with("cy", Student, ans(race, 1, 1)),
		with("teacher", Instructor, ans(race, 0, 0)),
	})
	var got []string
	for _, q := range qs {
		got = append(got, fmt.Sprintf("%s %v %d/%d", q.Q.Label(), q.Chosen, q.Right, q.Answered))
	}
	if want := []string{"race [0 2 1] 2/3", "gc-pause [1 0 0] 0/1", "gc-pause, pause 20 s [1 1 0] 1/2"}; !slices.Equal(got, want) {
		t.Fatalf("the class's answers %q, want %q", got, want)
	}
	if !strings.Contains(qs[0].Question, "How many of them get OK?") || len(qs[0].Choices) != 3 {
		t.Errorf("the race's question %q, choices %q", qs[0].Question, qs[0].Choices)
	}
	if !strings.Contains(qs[1].Question, "it wakes at 35 s") || !strings.Contains(qs[2].Question, "it wakes at 20 s") {
		t.Errorf("each of gc-pause's questions has its own text: %q, %q", qs[1].Question, qs[2].Question)
	}
}
