package class

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim/simtest"
)

// TestHeldIsEveryLedClassesQuestion: the scenes held (Held) are those
// whose question a class of the store has open while its instructor
// beats, read from two servers' hubs of one store (the instructor beats
// and leads through the first, the second reads): none before the
// instructor beats, the scene at or before its question, none past it or
// on the contents; another class's too; still once a session of the
// instructor's left (another may beat yet); none once the class is
// closed, nor Gone after the instructor's last beat. A store out of reach
// holds every scene that asks.
func TestHeldIsEveryLedClassesQuestion(t *testing.T) {
	var clock atomic.Int64
	clock.Store(t0.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	t.Run("memory", func(t *testing.T) {
		simtest.QuickOnly(t)
		h := NewMemory(now)
		heldContract(t, h, h, &clock)
	})
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		s := miniredis.RunT(t)
		heldContract(t, clockedRedis(t, "redis://"+s.Addr(), now), clockedRedis(t, "redis://"+s.Addr(), now), &clock)
	})
	t.Run("redis-server", func(t *testing.T) {
		url := simtest.StartRedis(t)
		heldContract(t, clockedRedis(t, url, now), clockedRedis(t, url, now), &clock)
	})
	t.Run("out of reach", func(t *testing.T) {
		simtest.QuickOnly(t)
		got := Held(context.Background(), unreadable{NewMemory(now)})
		for _, sc := range scenes.All() {
			if got[sc.ID] != (sc.Predict != nil) {
				t.Errorf("store out of reach: %s held %v, asks %v", sc.ID, got[sc.ID], sc.Predict != nil)
			}
		}
	})
}

// unreadable is a store whose index does not answer.
type unreadable struct{ Hub }

func (unreadable) Leading(context.Context) (map[string]Lead, error) {
	return nil, errors.New("dial tcp 127.0.0.1:6390: connect: connection refused")
}

func clockedRedis(t *testing.T, url string, now func() time.Time) *Redis {
	t.Helper()
	h, err := NewRedis(context.Background(), url, now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func heldContract(t *testing.T, a, b Hub, clock *atomic.Int64) {
	ctx := context.Background()
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	one, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	two, err := a.Open(ctx, "another")
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]int64{}
	lead := func(code string, l Lead) {
		t.Helper()
		cur, won, err := a.SwapLead(ctx, code, versions[code], l)
		if err != nil || !won {
			t.Fatalf("lead %+v: won %v, %v", l, won, err)
		}
		versions[code] = cur.Version
	}
	beat := func(code, lead string, at time.Time) {
		t.Helper()
		if err := a.Beat(ctx, code, lead, Instructor, at); err != nil {
			t.Fatal(err)
		}
	}
	held := func(what string, want ...string) {
		t.Helper()
		got := slices.Sorted(maps.Keys(Held(ctx, b)))
		if !slices.Equal(got, want) {
			t.Errorf("%s: held %v, want %v", what, got, want)
		}
	}
	pos := func(scene string, step int) play.Position {
		return play.Position{Version: play.PositionVersion, Scene: scene, Seed: 1, Step: step}
	}
	at := play.QuestionAt(scenes.Find("fencing"), nil, nil)

	lead(one.Code, Lead{Pos: pos("fencing", 0)})
	held("led, the instructor not beating")
	beat(one.Code, one.Lead, now())
	// a student's beat is no instructor's
	if err := a.Beat(ctx, two.Code, "k-ann", Student, now()); err != nil {
		t.Fatal(err)
	}
	held("before the question", "fencing")
	lead(one.Code, Lead{Pos: pos("fencing", at)})
	held("at the question", "fencing")
	lead(two.Code, Lead{Pos: pos("gc-pause", 0)})
	beat(two.Code, two.Lead, now())
	held("another class asked gc-pause", "fencing", "gc-pause")
	lead(one.Code, Lead{Pos: pos("fencing", at+1)})
	held("past the question", "gc-pause")
	lead(one.Code, Lead{Contents: true})
	held("on the contents", "gc-pause")
	lead(one.Code, Lead{Pos: pos("fencing", at)})
	held("asked again", "fencing", "gc-pause")
	// one session of the instructor's leaves: another may beat yet
	beat(one.Code, one.Lead, time.Time{})
	held("a session of its instructor's left", "fencing", "gc-pause")
	if err := a.CloseClass(ctx, two.Code); err != nil {
		t.Fatal(err)
	}
	held("the other class closed", "fencing")
	beat(two.Code, two.Lead, now()) // a session still in the closed class
	held("a closed class's instructor beating", "fencing")
	clock.Add(int64(Gone - time.Millisecond))
	held("just under Gone since the beat", "fencing")
	clock.Add(int64(time.Millisecond))
	held("Gone since the instructor's last beat")
}
