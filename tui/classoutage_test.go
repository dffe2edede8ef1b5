package tui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locksim/class"
)

// refusing is a class store whose writes and beats are refused while
// down, as a Redis whose server stopped.
type refusing struct {
	class.Hub
	down atomic.Bool
}

var errStoreGone = errors.New("dial tcp 127.0.0.1:6390: connect: connection refused")

func (r *refusing) Put(ctx context.Context, code string, m class.Member) error {
	if r.down.Load() {
		return errStoreGone
	}
	return r.Hub.Put(ctx, code, m)
}

func (r *refusing) SwapLead(ctx context.Context, code string, prev int64, l class.Lead) (class.Lead, bool, error) {
	if r.down.Load() {
		return class.Lead{}, false, errStoreGone
	}
	return r.Hub.SwapLead(ctx, code, prev, l)
}

func (r *refusing) Beat(ctx context.Context, code, id string, role class.Role, at time.Time) error {
	if r.down.Load() {
		return errStoreGone
	}
	return r.Hub.Beat(ctx, code, id, role, at)
}

// storeIs is an event of the class store's state as a seat found it.
func storeIs(down bool) func(class.Event) bool {
	return func(e class.Event) bool { return e.Kind == class.KindStore && e.Store.Down == down }
}

// TestOutageTellsTheRoom: while the class store refuses, the instructor's
// class line says their step is kept and the follower's that the class
// is out of touch; the instructor steps twice; when the store returns the
// follower is at the instructor's step with no key pressed, and the
// lines are gone.
func TestOutageTellsTheRoom(t *testing.T) {
	hub := &refusing{Hub: class.NewMemory(atClassNow)}
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher := joinAs(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "fencing"}, 100, 32)
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 1}, 100, 32)
	drive(t, teacher.a, keys("F")...)
	hear(t, ann, "the instructor asking", func(e class.Event) bool { return e.Kind == class.KindLead && e.Lead.Follow })
	drive(t, ann.a, keys("F")...)

	hub.down.Store(true)
	hear(t, teacher, "the store down", storeIs(true))
	if v := teacher.a.View(); !strings.Contains(v, class.OutNote) {
		t.Fatalf("the instructor is not told the store is unreachable:\n%s", v)
	}
	hear(t, ann, "the store down", storeIs(true))
	if v := ann.a.View(); !strings.Contains(v, "the class is out of touch") {
		t.Fatalf("the student is not told the class is out of touch:\n%s", v)
	}
	drive(t, teacher.a, keys("nn")...)
	if !strings.Contains(teacher.a.View(), class.OutNote) {
		t.Fatalf("the instructor's line went while the store is down:\n%s", teacher.a.View())
	}

	hub.down.Store(false)
	hear(t, ann, "the kept step", leadAt("fencing", 2))
	if got := ann.a.pl.Snap.Pos; got != 2 {
		t.Fatalf("the follower is at step %d, want the instructor's 2", got)
	}
	hear(t, teacher, "the store back", storeIs(false))
	if v := teacher.a.View(); strings.Contains(v, class.OutNote) {
		t.Fatalf("the instructor's outage line stays after the store returned:\n%s", v)
	}
}
