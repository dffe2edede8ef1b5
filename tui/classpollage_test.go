package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"locksim/class"
	"locksim/play"

	"github.com/alicebob/miniredis/v2"
)

// TestClassPollAgeInASecondSession: the instructor stands at gc-pause's
// question; ninety seconds later a second session of theirs (another
// server, a reconnect) joins the class. Its class view gives the poll the
// class's age, from when the class came to the question (the store's
// place), as the student's row beside it gives her time on the step, not
// the age of the second session's own sight of it.
func TestClassPollAgeInASecondSession(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		clk := &classClock{t: classNow}
		hub := class.NewMemory(clk.now)
		pollAgeInASecondSession(t, clk, hub, hub)
	})
	t.Run("two servers", func(t *testing.T) {
		clk := &classClock{t: classNow}
		s := miniredis.RunT(t)
		var hubs [2]class.Hub
		for i := range hubs {
			h, err := class.NewRedis(context.Background(), "redis://"+s.Addr(), clk.now)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = h.Close() })
			hubs[i] = h
		}
		pollAgeInASecondSession(t, clk, hubs[0], hubs[1])
	})
}

// pollAgeInASecondSession is TestClassPollAgeInASecondSession with the
// first session on hub, the second on other (one store).
func pollAgeInASecondSession(t *testing.T, clk *classClock, hub, other class.Hub) {
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	first := joinWith(t, hub, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1, Scene: "gc-pause", Present: true}, 120, 40, clk.now)
	drive(t, first.a, keys("F...")...)
	if !first.a.pl.Asking {
		t.Fatalf("the instructor is not at gc-pause's question (step %d)", first.a.pl.Snap.Pos)
	}
	at := first.a.pl.Snap.Pos
	hear(t, first, "the class's place at the question", leadAt("gc-pause", at))
	ann := class.Member{ID: "k-ann", Name: "ann", Role: class.Student, Online: true, Actual: -1, StepAt: classNow,
		Pos: play.Position{Version: play.PositionVersion, Scene: "gc-pause", Step: at, Seed: 2}}

	clk.advance(90 * time.Second)
	ann.Seen, ann.KeyAt = clk.now(), clk.now()
	if err := hub.Put(context.Background(), info.Code, ann); err != nil {
		t.Fatal(err)
	}
	second := joinWith(t, other, info.Code, class.Instructor, "teacher", "teacher", Options{Seed: 1}, 120, 40, clk.now)
	hear(t, second, "the class's place, on joining", leadAt("gc-pause", at))
	if !second.a.pl.Asking {
		t.Fatalf("the second session is not at gc-pause's question (step %d)", second.a.pl.Snap.Pos)
	}
	drive(t, second.a, keys("l")...)
	v := second.a.View()
	if !regexp.MustCompile(`ann +gc-pause +3/\? .* 1m +0s\b`).MatchString(v) {
		t.Fatalf("ann's row should say 1m on her step:\n%s", v)
	}
	if !strings.Contains(v, "open 1m · ") {
		t.Errorf("the second session's poll should be open 1m, as long as the class has stood at the question:\n%s", v)
	}

	// the class view ticks on the class's clock from there, in both sessions
	clk.advance(time.Minute)
	drive(t, first.a, keys("l")...)
	hearRoster(t, hub, info.Code, first)
	hearRoster(t, other, info.Code, second)
	for i, m := range []member{first, second} {
		if v := m.a.View(); !strings.Contains(v, "open 2m · ") {
			t.Errorf("session %d: a minute on, the poll should be open 2m:\n%s", i+1, v)
		}
	}
}
