package sim_test

import (
	"context"
	"testing"
	"time"

	"locksim/sim"
	"locksim/sim/simtest"
)

// TestLostReplyAndSetNXGet plays, on the embedded server (quick tier) and
// on redis-server 7 (slow tier), the commands the lost-reply scene rests
// on: a SET … NX PX whose reply locksim drops after the server ran it; a
// retry with GET (NX with GET is allowed since Redis 7.0, t_string.c),
// which answers A's own token, sets nothing and leaves the TTL of the
// first SET; a plain retry, refused with (nil) by A's own key; B's SET …
// NX … GET, which answers A's token and sets nothing; and a release whose
// reply is lost, which deleted the key. The server's replies and the key
// as read before and after the lost commands must be the same on both.
func TestLostReplyAndSetNXGet(t *testing.T) {
	simtest.OnBoth(t, 20, func(t *testing.T, b *sim.Backend) {
		spec := sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}
		var ttlSent int64
		a := []sim.Step{
			{Label: "acquire", Run: func(x *sim.Exec) {
				x.LoseReply()
				x.Acquire(spec)
				ttlSent = x.TTL(sim.CourseTTL)
			}},
			{Label: "retry", Run: func(x *sim.Exec) {
				x.AcquireAgain(spec, true)
				x.Do("PTTL", x.Key(sim.CourseKey))
			}},
			{Label: "retry plain", Run: func(x *sim.Exec) { x.AcquireAgain(spec, false) }},
			{Label: "release", Run: func(x *sim.Exec) {
				x.LoseReply()
				x.Release("", sim.CourseKey)
			}},
		}
		other := []sim.Step{{Label: "acquire", Run: func(x *sim.Exec) { x.AcquireAgain(spec, true) }}}
		script := sim.Script{
			Actors: []sim.ActorSpec{{Name: "A", Program: a}, {Name: "B", Program: other}},
			Keys:   []string{sim.CourseKey},
			Watch:  []string{sim.CourseKey},
			Moves: []sim.Move{sim.StepOf("A"), sim.Advance(time.Second), sim.StepOf("A"), sim.StepOf("A"),
				sim.StepOf("B"), sim.StepOf("A")},
		}
		run := sim.NewRun(b, script, 1)
		t.Cleanup(run.Close)
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := run.Seek(ctx, len(script.Moves)); err != nil {
			t.Fatal(err)
		}
		tokA := run.Actor("A").Token
		sets := simtest.Sent(run.Events, "A", "SET")
		if len(sets) != 3 {
			t.Fatalf("A sent %d SETs, want 3", len(sets))
		}
		lost := sets[0]
		if !lost.Lost || !lost.Unknown() || lost.Reply != sim.FormatReply(nil, sim.ErrReplyLost) {
			t.Errorf("the first SET: lost %v, unknown %v, reply %q", lost.Lost, lost.Unknown(), lost.Reply)
		}
		if (lost.Simulated != "") != b.Live() {
			t.Errorf("the lost reply's Simulated is %q on a server live=%v", lost.Simulated, b.Live())
		}
		if s := lost.Op.Seen; s == nil || s.Had || !s.Has || s.After != tokA || s.TTLAfter <= 0 || s.TTLAfter > sim.CourseTTL {
			t.Errorf("the key around the lost SET: %+v, want none before, A's token after", s)
		}
		// SET … NX PX … GET answers the value there, A's own token, and NX
		// refused it: the TTL is what is left of the first SET's
		if sets[1].Reply != `"`+tokA+`"` || sets[1].Op.Form != sim.FormSetNXGet {
			t.Errorf("the retry with GET answered %s, want A's token", sets[1].Reply)
		}
		pttl := simtest.Sent(run.Events, "A", "PTTL")
		if len(pttl) != 1 {
			t.Fatalf("A's PTTLs: %d", len(pttl))
		}
		left, _ := pttl[0].Int()
		if left <= 0 || left >= ttlSent {
			t.Errorf("PTTL after the retry is %d of %d sent: PX was applied again", left, ttlSent)
		}
		if !b.Live() && left != 29000 {
			t.Errorf("embedded PTTL after 1 s is %d, want 29000", left)
		}
		if !sets[2].IsNil() {
			t.Errorf("the plain retry answered %s, want (nil)", sets[2].Reply)
		}
		bs := simtest.Sent(run.Events, "B", "SET")
		if len(bs) != 1 || bs[0].Reply != `"`+tokA+`"` || run.Actor("B").Holds {
			t.Errorf("B's SET … NX … GET: %v, holds %v; want A's token, not held", replies(bs), run.Actor("B").Holds)
		}
		rel := simtest.Sent(run.Events, "A", "EVAL")
		if len(rel) != 1 || !rel[0].Lost {
			t.Fatalf("A's release: %+v", rel)
		}
		if s := rel[0].Op.Seen; s == nil || !s.Had || s.Has || s.Before != tokA {
			t.Errorf("the key around the lost release: %+v, want A's token, then none", s)
		}
		if snap := run.Snapshot(ctx); len(snap.Keys) != 1 || snap.Keys[0].Exists() {
			t.Errorf("the key after the lost release: %+v", snap.Keys)
		}
	})
}

func replies(es []sim.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Reply)
	}
	return out
}
