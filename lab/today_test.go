package lab

import (
	"context"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
)

// TestTodaysRedisLock: a lock in two lines of today's Redis, SET NX PX to
// take it and DELEX IFEQ to release it (Redis 8.4; DELIFEQ is Valkey 9.0's
// form), runs on the lab's embedded server, which speaks both
// (third_party/miniredis), and the adversary finds no release of another's
// lock; the same acquire with a blind DEL is broken. A renewal in one
// command, SET IFEQ PX, is judged too: its OK counts as done.
func TestTodaysRedisLock(t *testing.T) {
	ctx := context.Background()
	pol := DefaultPolicy()
	pol.Faults = []Fault{PausePast, Crash, LostReply}
	pol.Properties = []Property{NoForeignRelease}
	pol.Bound = Bound{Clients: 2, Faults: 1, Depth: 10, MaxSchedules: 200_000}
	acquire := commands(PartAcquire, "SET {key} {token} NX PX {ttl}\n")
	for _, c := range []struct {
		name, release, extend string
		want                  Status
	}{
		{"DELEX IFEQ", "DELEX {key} IFEQ {token}\n", "", Pass},
		{"DELIFEQ", "DELIFEQ {key} {token}\n", "", Pass},
		{"DELEX IFEQ, renewed by SET IFEQ", "DELEX {key} IFEQ {token}\n", "SET {key} {token} IFEQ {token} PX {ttl}\n", Pass},
		{"blind DEL", "DEL {key}\n", "", Fail},
		{"DELEX with no condition", "DELEX {key}\n", "", Fail},
	} {
		l := Lock{Acquire: acquire, Release: commands(PartRelease, c.release),
			Extend: commands(PartExtend, c.extend), Policy: pol}
		rep, err := Check(ctx, &l, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v, _ := rep.Judgement(NoForeignRelease)
		if v.Status != c.want {
			t.Errorf("%s: no-foreign-release %s, want %s: %+v", c.name, v.Status, c.want, v)
		}
		if len(rep.Errors) > 0 {
			t.Errorf("%s: runtime errors %v", c.name, rep.Errors)
		}
	}
}

// TestTodaysRedisLockStory: the story of that lock with a renewal, A alone:
// the renewal lets A write and release, and the ledger reads the DELEX's 1
// as A's own release and the renewal as a renewal. Written SET … IFEQ PX,
// the renewal answers OK; written SET … IFEQ … GET PX, it answers the old
// value, A's own token, which says it renewed (the lab's client once read
// that as a lost lock and stopped before its write).
func TestTodaysRedisLockStory(t *testing.T) {
	for _, c := range []struct{ extend, reply, said string }{
		{"SET {key} {token} IFEQ {token} PX {ttl}\n", "OK", "OK"},
		{"SET {key} {token} IFEQ {token} GET PX {ttl}\n", "A's token", `"`},
	} {
		snap := stepsOfA(t, c.extend, 4) // acquire, extend, write, release
		led := ledger.Fold(snap.Events, snap.Now, nil)
		var got []string
		for _, e := range snap.Events {
			if e.Actor == "A" && e.Kind == sim.Command {
				reply := e.Reply
				if e.Op != nil && e.Op.Kind == sim.OpExtend && e.Val == e.Op.Token {
					reply = "A's token"
				}
				got = append(got, e.Cmd+" → "+reply+" · "+string(led.Reads[e.Seq].What))
			}
		}
		want := []string{"OK · " + string(ledger.Granted), c.reply + " · " + string(ledger.Extended),
			"· " + string(ledger.WroteHolder), "(integer) 1 · " + string(ledger.ReleasedOwn)}
		if len(got) != len(want) {
			t.Fatalf("%s: A's commands: %q", c.extend, got)
		}
		for i := range want {
			if !strings.HasSuffix(got[i], want[i]) {
				t.Errorf("%s: A's command %d: %q, want it to end %q", c.extend, i, got[i], want[i])
			}
		}
		// the lab's readout of the renewal quotes its reply, not the
		// script's (integer) 1
		snap = stepsOfA(t, c.extend, 2)
		text, err := content.Load(SceneID)
		if err != nil {
			t.Fatal(err)
		}
		l := Lock{Policy: DefaultPolicy()}
		f := scenes.Frame{Snap: snap, L: scenes.Fold(snap), Sel: 0, Text: text}
		readout := strings.Join(strings.Fields(scenes.Explain(HandScene(&l, 2), f).Readout), " ")
		if strings.Contains(readout, "(integer) 1") || !strings.Contains(readout, "answered "+c.said) {
			t.Errorf("%s: the readout of A's renewal: %q, want it to say answered %s", c.extend, readout, c.said)
		}
	}
}

// stepsOfA plays n of A's steps, alone, in the story of a lock taken by
// SET NX PX, released by DELEX IFEQ and renewed by extend, on an embedded
// server, and returns the run's snapshot.
func stepsOfA(t *testing.T, extend string, n int) sim.Snapshot {
	t.Helper()
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Cleanup(func() { _ = b.Close(ctx) })
	l := Lock{Acquire: commands(PartAcquire, "SET {key} {token} NX PX {ttl}\n"),
		Release: commands(PartRelease, "DELEX {key} IFEQ {token}\n"),
		Extend:  commands(PartExtend, extend),
		Policy:  DefaultPolicy()}
	r := sim.NewRun(b, HandScene(&l, 2).Script(nil), 3)
	t.Cleanup(r.Close)
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := r.Insert(ctx, sim.StepOf("A")); err != nil {
			t.Fatal(err)
		}
	}
	return r.Snapshot(ctx)
}
