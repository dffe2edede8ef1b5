package sim_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"locksim/sim"
)

// watchdogAlone: W acquires with a watchdog, freezes past its lease with
// nobody taking the lock, and wakes: the watchdog's one late renewal gets
// -1, it stops, and the key stays absent. Then W acquires again and an
// extension with its first handle gets 0 while the second handle's gets 1.
func watchdogAlone(t *testing.T, b *sim.Backend) {
	ctx := context.Background()
	first := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL})
		x.Watchdog("", sim.CourseKey, sim.CourseTTL)
	}}
	again := sim.Step{Label: "acquire", Run: func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}) }}
	old := sim.Step{Label: "extend", Run: func(x *sim.Exec) { x.Extend("", sim.CourseKey, x.Handle(1), sim.CourseTTL) }}
	cur := sim.Step{Label: "extend", Run: func(x *sim.Exec) { x.Extend("", sim.CourseKey, x.Handle(2), sim.CourseTTL) }}
	script := sim.Script{
		Actors: []sim.ActorSpec{{Name: "W", Program: []sim.Step{first, again, old, cur}}},
		Keys:   []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
		Moves: []sim.Move{sim.StepOf("W"), sim.Advance(25 * time.Second), sim.Pause("W"), sim.Advance(40 * time.Second),
			sim.Resume("W"), sim.Advance(30 * time.Second), sim.StepOf("W"), sim.StepOf("W"), sim.StepOf("W")},
	}
	r := sim.NewRun(b, script, 3)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, 6); err != nil {
		t.Fatal(err)
	}
	replies, _ := renewals(r)
	if !slices.Equal(replies, []string{"(integer) 1", "(integer) 1", "(integer) -1"}) {
		t.Fatalf("two renewals, the pause, one late renewal that finds no key: %v", replies)
	}
	if ts := r.Timers("W"); len(ts) != 0 {
		t.Fatalf("a watchdog that got -1 must stop, still running %v", ts)
	}
	if ks := r.Snapshot(ctx).Keys; len(ks) != 1 || ks[0].Exists() {
		t.Fatalf("a renewal never recreates a lock: %+v", ks)
	}
	if err := r.Seek(ctx, len(script.Moves)); err != nil {
		t.Fatal(err)
	}
	replies, _ = renewals(r)
	if !slices.Equal(replies[3:], []string{"(integer) 0", "(integer) 1"}) {
		t.Fatalf("the first handle's token is refused, the second's extends: %v", replies)
	}
	var tokens []string
	for _, e := range r.Events {
		if e.Op != nil && e.Op.Kind == sim.OpExtend {
			tokens = append(tokens, e.Op.Token)
		}
	}
	acq := sentNamed(r.Events, "SET")
	if len(acq) != 2 || tokens[3] != acq[0].Op.Token || tokens[4] != acq[1].Op.Token || tokens[3] == tokens[4] {
		t.Fatalf("handles 1 and 2 are the two acquisitions' tokens: %v", tokens)
	}
}

func sentNamed(events []sim.Event, cmd string) []sim.Event {
	var out []sim.Event
	for _, e := range events {
		if len(e.Args) > 0 && e.Args[0] == cmd {
			out = append(out, e)
		}
	}
	return out
}

func TestWatchdogStopsOnGoneEmbedded(t *testing.T) { watchdogAlone(t, embedded(t)) }

// ÷20: the pause comes 5 s of story before the next renewal, 250 ms of
// wire, which a loaded machine's timers do not cross (at ÷100, 50 ms did)
func TestWatchdogStopsOnGoneLive(t *testing.T) { t.Parallel(); watchdogAlone(t, liveAt(t, 20)) }
