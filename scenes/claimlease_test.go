package scenes

import (
	"strings"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
)

// claimsOf lists the jobs each claim's reply gave, as actor:id/attempts.
func claimsOf(events []sim.Event) []string {
	var out []string
	for _, e := range events {
		if e.Op == nil || e.Op.Form != sim.FormClaim {
			continue
		}
		if id, _, att, ok := sim.Claimed(e.Val, e.Err); ok {
			out = append(out, e.Actor+":"+id+"/"+itoa(att))
		}
	}
	return out
}

// jobRead is a job's hash as read back after the story.
func jobRead(t *testing.T, pl played, id string) string {
	t.Helper()
	for _, k := range pl.snap.Keys {
		if strings.HasSuffix(k.Name, claimQueue.Job(id)) {
			return k.Value
		}
	}
	t.Fatalf("job %s was not read back", id)
	return ""
}

// TestClaimLeaseCrash: w1 and w2 claim at the same moment and the server
// hands them different jobs; w1 crashes; past the deadline the reaper's
// reply returns j1, and w3's claim gets j1 with attempts 2, which the job's
// hash confirms. The first claim missed the script cache (NOSCRIPT), then
// EVAL; the later claims hit it.
func TestClaimLeaseCrash(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		pl := playStory(t, b, "claim-lease", Params{}, 1)
		got := claimsOf(pl.snap.Events)
		if len(got) != 3 || got[0] != "w1:j1/1" || got[1] != "w2:j2/1" || got[2] != "w3:j1/2" {
			t.Fatalf("claims %q, want w1:j1/1 w2:j2/1 w3:j1/2", got)
		}
		if reaps := replies(sent(pl.snap.Events, "reaper", "EVAL")); len(reaps) != 1 || reaps[0] != `1) "j1"` {
			t.Errorf("the reaper answered %q", reaps)
		}
		if v := jobRead(t, pl, "j1"); v != "attempts=2 payload=invoice:42 queued=1 state=done" {
			t.Errorf("job j1 reads back %q", v)
		}
		if v := jobRead(t, pl, "j3"); v != "attempts=0 payload=mail:3 queued=3 state=pending" {
			t.Errorf("job j3 reads back %q", v)
		}
		var first []string
		for _, e := range pl.snap.Events {
			if e.Step == "claim" && e.Kind == sim.Command {
				first = append(first, e.Actor+" "+e.Args[0]+" "+strings.Fields(e.Reply)[min(1, len(strings.Fields(e.Reply))-1)])
			}
		}
		want := []string{"w1 EVALSHA NOSCRIPT", `w1 EVAL "j1"`, `w2 EVALSHA "j2"`, `w3 EVALSHA "j1"`}
		if strings.Join(first, ", ") != strings.Join(want, ", ") {
			t.Errorf("the claims sent %q, want %q", first, want)
		}
		if len(pl.led.Overlaps) != 0 || pl.ex.Alarm != "" {
			t.Errorf("w1 crashed before j1 was claimed again: overlaps %v, alarm %q", pl.led.Overlaps, pl.ex.Alarm)
		}
		if p := pl.led.Properties(true); p[0] != ledger.Held || p[1] != ledger.Held {
			t.Errorf("properties %v", p)
		}
	})
}

// TestClaimLeaseFrozen: w1 freezes past its lease instead. When w3 claims
// j1, both act as holder (the ⚠ line says so); w1 wakes and completes with
// attempts 1, and the job's own check refuses it: (integer) 0. w3's
// completion is accepted and the job is done with attempts 2.
func TestClaimLeaseFrozen(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		pl := playStory(t, b, "claim-lease", Params{"w1": 1}, 1)
		w1 := sent(pl.snap.Events, "w1", "EVAL")
		if last := w1[len(w1)-1]; last.Step != "complete" || last.Reply != "(integer) 0" || last.Args[len(last.Args)-1] != "1" {
			t.Fatalf("w1's completion: %s → %s", last.Cmd, last.Reply)
		}
		if w3 := sent(pl.snap.Events, "w3", "EVAL"); len(w3) != 1 || w3[0].Reply != "(integer) 1" {
			t.Errorf("w3's completion: %q", replies(w3))
		}
		if v := jobRead(t, pl, "j1"); v != "attempts=2 payload=invoice:42 queued=1 state=done" {
			t.Errorf("job j1 reads back %q", v)
		}
		o := pl.led.LatestOverlap()
		if o == nil || o.Lock != "job j1" || o.First.Actor != "w1" || o.Second.Actor != "w3" || o.Open() {
			t.Fatalf("overlap %+v", o)
		}
		if !strings.HasPrefix(pl.ex.Alarm, "w1 and w3 both acted as holder of job j1") {
			t.Errorf("alarm %q", pl.ex.Alarm)
		}
		if r := readoutOf(t, "claim-lease", pl, "w1"); !strings.Contains(r, "attempts 1") || !strings.Contains(r, "(integer) 0") || !strings.Contains(r, "now 2") {
			t.Errorf("w1's readout: %s", r)
		}
	})
}

// TestClaimLeaseReapedEarly: a reap whose reply names a job before its
// deadline in story time (a live server's clock ran on while the story's
// was held) says so, rather than pretending the deadline had passed.
func TestClaimLeaseReapedEarly(t *testing.T) {
	text, _ := content.Load("claim-lease")
	active := claimQueue.Active()
	events := []sim.Event{
		{Seq: 0, At: 0, Kind: sim.Command, Actor: "w1", Val: []any{"j1", "invoice:42", int64(1)},
			Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormClaim, Key: active, TTL: claimLease, NX: true}},
		{Seq: 1, At: claimLease / 2, Kind: sim.Command, Actor: "reaper", Val: []any{"j1"},
			Op: &sim.Op{Kind: sim.OpRelease, Form: sim.FormReap, Key: active}},
	}
	snap := sim.Snapshot{Now: claimLease / 2, Events: events, Actors: []sim.Actor{{Name: "w1"}, {Name: "reaper"}}}
	said := Said{Vars: map[string]string{}}
	sayClaim(Frame{Snap: snap, L: Fold(snap), Text: text}, &said)
	if r := said.Vars["reaped"]; !strings.Contains(r, "though its deadline is +30.000s") {
		t.Errorf("the reap before the deadline reads %q", r)
	}
}
