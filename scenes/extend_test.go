package scenes

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

// extensions are the extend script's replies in order, with the events.
func extensions(events []sim.Event) (replies []string, es []sim.Event) {
	for _, e := range events {
		if e.Op != nil && e.Op.Kind == sim.OpExtend {
			replies, es = append(replies, e.Reply), append(es, e)
		}
	}
	return replies, es
}

// extendRun plays the extend scene's story s (the knob's index) to move pos.
func extendRun(t *testing.T, b *sim.Backend, story int) *sim.Run {
	t.Helper()
	r := sim.NewRun(b, Find("extend").Script(Params{"story": story}), 1)
	t.Cleanup(r.Close)
	if err := r.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

func seekTo(t *testing.T, r *sim.Run, pos int) sim.Snapshot {
	t.Helper()
	ctx := context.Background()
	if err := r.Seek(ctx, pos); err != nil {
		t.Fatal(err)
	}
	s := r.Snapshot(ctx)
	if s.Err != "" || len(s.Keys) != 1 {
		t.Fatalf("reading back: %q %+v", s.Err, s.Keys)
	}
	return s
}

// TestExtendWatchdogOutlivesTheTTL: with a 15 s pause, the watchdog's
// renewals every 10 s all answer 1, the key still holds A's token after
// the first TTL, B is refused twice, and A's own release deletes its lock.
func TestExtendWatchdogOutlivesTheTTL(t *testing.T) {
	// ÷20: the renewal on waking lands within a few story seconds of the
	// lease's end, tens of wire ms at ÷50, which a loaded machine crossed
	onBothAt(t, 20, func(t *testing.T, b *sim.Backend) {
		r := extendRun(t, b, 1)
		s := seekTo(t, r, 2) // A acquired, 45 s passed
		a := sent(r.Events, "A", "SET")
		if len(a) != 1 || a[0].Reply != "OK" || s.Now < 45*time.Second || s.Keys[0].Value != a[0].Op.Token || s.Keys[0].PTTL <= 0 {
			t.Fatalf("past the first TTL the key should hold A's token: now %v, key %+v", s.Now, s.Keys[0])
		}
		pl := playStory(t, b, "extend", Params{"story": 1}, 1)
		got, es := extensions(pl.run.Events)
		if !slices.Equal(got, []string{"(integer) 1", "(integer) 1", "(integer) 1", "(integer) 1", "(integer) 1"}) {
			t.Fatalf("renewals at 10, 20, 30, 40 s and one on waking: %v", got)
		}
		for _, e := range es {
			if !e.Timed || e.Step != sim.WatchdogLabel {
				t.Errorf("a renewal not sent by the watchdog: %+v", e)
			}
		}
		if bs := replies(sent(pl.run.Events, "B", "SET")); !slices.Equal(bs, []string{"(nil)", "(nil)"}) {
			t.Errorf("B should be refused while the watchdog keeps the lease: %v", bs)
		}
		if rel, ok := lastOf(pl.run.Events, "A", "release"); !ok || rel.Reply != "(integer) 1" {
			t.Errorf("A's release: %+v", rel)
		}
		if len(pl.led.Overlaps) != 0 || pl.led.Properties(true)[0] != ledger.Held {
			t.Errorf("one holder at a time: %v", pl.led.Properties(true))
		}
		if ts := pl.snap.Timers["A"]; len(ts) != 0 {
			t.Errorf("a release stops the watchdog: %v", ts)
		}
	})
}

// TestExtendPausedWatchdogLapses: the 40 s pause freezes the watchdog with
// A: no renewal while A is frozen, the lease lapses, B gets OK, and A's
// late renewal on waking gets 0, after which none is ever sent again.
func TestExtendPausedWatchdogLapses(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		r := extendRun(t, b, 0)
		seekTo(t, r, 7) // A woke; its release is the next move
		got, es := extensions(r.Events)
		if !slices.Equal(got, []string{"(integer) 1", "(integer) 1", "(integer) 1", "(integer) 1", "(integer) 0"}) {
			t.Fatalf("four renewals, then one late one that finds B's token: %v", got)
		}
		var paused, woke time.Duration
		for _, e := range r.Events {
			switch {
			case e.Kind == sim.Fault && e.Fault == sim.FaultPause:
				paused = e.At
			case e.Kind == sim.Fault && e.Fault == sim.FaultResume:
				woke = e.At
			}
		}
		for _, e := range es {
			if e.At > paused && e.At < woke {
				t.Errorf("a renewal went out while A was frozen: %+v", e)
			}
		}
		if bs := replies(sent(r.Events, "B", "SET")); !slices.Equal(bs, []string{"(nil)", "OK"}) {
			t.Fatalf("B is refused, then gets the lapsed lock: %v", bs)
		}
		led := Fold(r.Snapshot(context.Background()))
		if len(led.Overlaps) != 1 || led.Overlaps[0].First.Actor != "A" || led.Overlaps[0].Cause != ledger.Lapsed {
			t.Fatalf("A, frozen, and B both acted as holder: %+v", led.Overlaps)
		}
		if !led.Belief("A").Holds {
			t.Errorf("the watchdog's 0 tells A's work nothing: it still acts as holder")
		}
		if ts := r.Timers("A"); len(ts) != 0 {
			t.Fatalf("a renewal that got 0 stops the watchdog: %v", ts)
		}
		// a minute passes before A releases: nothing more from the watchdog
		if err := r.Insert(context.Background(), sim.Advance(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if again, _ := extensions(r.Events); len(again) != len(got) {
			t.Errorf("the stopped watchdog renewed again: %v", again)
		}
		led = Fold(r.Snapshot(context.Background()))
		if rn := led.RenewalsOf("A"); !reflect.DeepEqual(rn, ledger.Renewals{Extended: 4, Taken: 1}) {
			t.Errorf("A's renewals: %+v", rn)
		}
		// in the story as written, A's release leaves B's lock alone
		pl := playStory(t, b, "extend", Params{}, 1)
		if rel, ok := lastOf(pl.run.Events, "A", "release"); !ok || rel.Reply != "(integer) 0" || pl.snap.Keys[0].Value != sent(pl.run.Events, "B", "SET")[1].Op.Token {
			t.Errorf("A's release after the pause: %+v", rel)
		}
	})
}

// TestExtendStaleHandle: an extension with handle 1's token after A
// released gets -1 and leaves the key absent; after A acquires again it
// gets 0 and leaves the TTL as it was; handle 2's gets 1.
func TestExtendStaleHandle(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		r := extendRun(t, b, 2)
		if s := seekTo(t, r, 4); s.Keys[0].Exists() || s.Keys[0].PTTL != -2 {
			t.Fatalf("a renewal never recreates a lock: %+v", s.Keys[0])
		}
		before := seekTo(t, r, 6).Keys[0] // A holds again, 10 s later
		after0 := seekTo(t, r, 7).Keys[0]
		after1 := seekTo(t, r, 8).Keys[0]
		got, es := extensions(r.Events)
		if !slices.Equal(got, []string{"(integer) -1", "(integer) 0", "(integer) 1"}) {
			t.Fatalf("handle 1: -1, then 0; handle 2: 1. Got %v", got)
		}
		acq := sent(r.Events, "A", "SET")
		if len(acq) != 2 || es[0].Op.Token != acq[0].Op.Token || es[1].Op.Token != acq[0].Op.Token || es[2].Op.Token != acq[1].Op.Token {
			t.Fatalf("the handles' tokens are the two acquisitions'")
		}
		scale := int64(r.Scale())
		if after0.Value != acq[1].Op.Token || after0.PTTL > before.PTTL || before.PTTL <= 0 {
			t.Errorf("the refused extension must leave the holder's TTL alone: %d ms, then %d ms", before.PTTL, after0.PTTL)
		}
		if !b.Live() && after0.PTTL != before.PTTL {
			t.Errorf("embedded: the TTL is unchanged to the ms: %d, then %d", before.PTTL, after0.PTTL)
		}
		if (after1.PTTL-after0.PTTL)*scale < 8000 {
			t.Errorf("handle 2's extension gives a fresh TTL: %d ms, then %d ms (÷%d)", after0.PTTL, after1.PTTL, scale)
		}
		if rn := Fold(r.Snapshot(context.Background())).RenewalsOf("A"); rn.Refused() != 2 || rn.Extended != 1 {
			t.Errorf("A's extensions: %+v", rn)
		}
	})
}
