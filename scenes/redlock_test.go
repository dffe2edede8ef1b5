package scenes

import (
	"context"
	"strings"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
)

// onFiveNodes runs check on five embedded nodes in the quick tier, and on
// five real redis-servers given as -redlock nodes in the slow tier.
func onFiveNodes(t *testing.T, check func(t *testing.T, b *sim.Backend)) {
	t.Parallel()
	t.Run("embedded", func(t *testing.T) {
		simtest.QuickOnly(t)
		t.Parallel()
		check(t, embedded(t))
	})
	t.Run("live", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		b, err := sim.OpenLive(ctx, simtest.StartRedis(t), simtest.LiveOptions(10))
		if err != nil {
			t.Fatal(err)
		}
		var nodes []*sim.Backend
		for range redNodes {
			n, err := sim.OpenLive(ctx, simtest.StartRedis(t), simtest.LiveOptions(10))
			if err != nil {
				t.Fatal(err)
			}
			nodes = append(nodes, n)
		}
		b.SetNodes(nodes)
		t.Cleanup(func() { b.Close(context.Background()) })
		check(t, b)
	})
}

func story(name string) Params {
	for i, s := range redStories {
		if s == name {
			return Params{"story": i}
		}
	}
	panic("no story " + name)
}

// count is the client's latest count, as the ledger read it.
func count(t *testing.T, p played, client string) (sim.Event, ledger.Read) {
	t.Helper()
	for i := len(p.snap.Events) - 1; i >= 0; i-- {
		if e := p.snap.Events[i]; e.Actor == client && e.Op != nil && e.Op.Form == sim.FormQuorum {
			return e, p.led.Reads[i]
		}
	}
	t.Fatalf("%s never counted", client)
	return sim.Event{}, ledger.Read{}
}

// Two nodes down: three OKs from the nodes themselves, a majority, a
// validity below the TTL by the time spent and the drift; the lock
// survived two lost nodes.
func TestRedlockMajorityWithTwoDown(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		p := playStory(t, b, "redlock", story("2 down"), 1)
		var oks []string
		for _, e := range commands(p.snap.Events, "c1", "") {
			if e.Op != nil && e.Op.Kind == sim.OpAcquire && e.IsOK() {
				oks = append(oks, e.Node)
			}
		}
		if strings.Join(oks, "") != "ABC" {
			t.Fatalf("OK from %v, want A, B and C", oks)
		}
		e, rd := count(t, p, "c1")
		// the drift always comes off; on a live server the time spent too
		if rd.What != ledger.QuorumHeld || e.Op.Votes != 3 || e.Op.TTL > redTTL-sim.Drift(redTTL) || e.Op.TTL <= 0 ||
			b.Live() && e.Op.TTL == redTTL-sim.Drift(redTTL) {
			t.Fatalf("count %q: %d votes, validity %v", rd.What, e.Op.Votes, e.Op.TTL)
		}
		if got := p.led.Properties(false)[2]; got != ledger.Held {
			t.Errorf("fault tolerance %v, want held", got)
		}
	})
}

// Three nodes down: no majority, and the release on every node leaves no
// key on the two that answered.
func TestRedlockNoMajorityLeavesNoKey(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		p := playStory(t, b, "redlock", story("3 down"), 1)
		if _, rd := count(t, p, "c1"); rd.What != ledger.QuorumMissed || p.led.Belief("c1").Holds {
			t.Fatalf("2 of 5 must not hold: %q", rd.What)
		}
		for _, k := range p.snap.Keys {
			if (k.Node == "A" || k.Node == "B") && k.Exists() {
				t.Errorf("node %s still has %s = %q", k.Node, k.Name, k.Value)
			}
		}
	})
}

// A node slower than the client's timeout counts as a failure though its
// SET landed, and the release on every node deletes its key too.
func TestRedlockSlowNodeCountsAsFailure(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		p := playStory(t, b, "redlock", story("slow node"), 1)
		e, _ := count(t, p, "c1")
		if e.Op.Votes != 2 || e.Op.Held {
			t.Fatalf("slow C should count as failed: %d votes, held %v", e.Op.Votes, e.Op.Held)
		}
		for _, k := range p.snap.Keys {
			if k.Exists() {
				t.Errorf("node %s keeps %s after the release", k.Node, k.Name)
			}
		}
	})
}

// The clock jump: each client counts a majority, and the ledger sees two
// holders. Embedded only: a live server's clock cannot be moved.
func TestRedlockClockJumpTwoHolders(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"clock jump", "C restarts"} {
		p := playStory(t, embedded(t), "redlock", story(name), 1)
		if len(p.led.Overlaps) != 1 || p.led.Properties(false)[0] != ledger.Broken {
			t.Fatalf("%s: overlaps %d, properties %v", name, len(p.led.Overlaps), p.led.Properties(false))
		}
		for _, c := range []string{"c1", "c2"} {
			if _, rd := count(t, p, c); rd.What != ledger.QuorumHeld {
				t.Errorf("%s: %s's count reads %q", name, c, rd.What)
			}
		}
	}
	// a restart delayed past the TTL: c1's validity was over, no overlap
	p := playStory(t, embedded(t), "redlock", story("C restarts late"), 1)
	if len(p.led.Overlaps) != 0 {
		t.Errorf("C restarts late: %d overlaps", len(p.led.Overlaps))
	}
}

// On live nodes the clock jump is refused, with one line saying why, and
// c2 then finds C holding c1's key.
func TestRedlockClockJumpLiveIsRefused(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		if !b.Live() {
			return
		}
		p := playStory(t, b, "redlock", story("clock jump"), 1)
		said := false
		for _, e := range p.snap.Events {
			said = said || strings.Contains(e.Note, "clock cannot jump")
		}
		if !said || len(p.led.Overlaps) != 0 {
			t.Errorf("live: refusal noted %v, overlaps %d", said, len(p.led.Overlaps))
		}
	})
}

// Failover: the primary is lost before its write reached the replica, and
// the promoted replica grants the same lock again; replicated, it refuses.
func TestRedlockFailover(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		p := playStory(t, b, "redlock", story("failover"), 1)
		if len(p.led.Overlaps) != 1 {
			t.Fatalf("failover: %d overlaps, want two holders", len(p.led.Overlaps))
		}
		p = playStory(t, b, "redlock", story("replicated"), 1)
		last, _ := lastOf(p.snap.Events, "c2", "")
		if !last.IsNil() || len(p.led.Overlaps) != 0 {
			t.Fatalf("replicated: c2 got %s, overlaps %d", last.Reply, len(p.led.Overlaps))
		}
	})
}

// After its count, the holder's card agrees with a majority of the nodes
// read back: on a live server too, where each node's key has its own prefix.
func TestRedlockHolderAgreesWithTheNodes(t *testing.T) {
	onFiveNodes(t, func(t *testing.T, b *sim.Backend) {
		ctx := context.Background()
		sc := Find("redlock")
		run := sim.NewRun(b, sc.Script(story("2 down")), 1)
		defer run.Close()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		at := 0
		for i, m := range run.Moves() {
			if m.Label == "c1 counts" {
				at = i + 1
			}
		}
		if err := run.Seek(ctx, at); err != nil {
			t.Fatal(err)
		}
		led := Fold(run.Snapshot(ctx))
		if bl := led.Belief("c1"); !bl.Holds || !bl.KeyHolds {
			t.Fatalf("c1 holds %v, the nodes agree %v", bl.Holds, bl.KeyHolds)
		}
	})
}

// A node stopped, refused, then restarted empty answers the next command
// at once, reads back as up, and a replay over the restart gets the same
// replies: its clients and its own connection are fresh (on the embedded
// server they are pipes, which keep no liveness, and a refused dial is
// otherwise kept for a second).
func TestRedlockRestartedNodeAnswers(t *testing.T) {
	t.Parallel() // its own embedded server
	ctx := context.Background()
	b := embedded(t)
	for range 20 {
		run := sim.NewRun(b, Find("redlock").Script(story("2 down")), 1)
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		// c1: begin, A, B, C (refused); C comes back; c1: D, E, its count
		// and its release on every node, C included, from the same client
		// that was refused; then c2 asks C
		moves := []sim.Move{sim.NodeStop("C")}
		for range 4 {
			moves = append(moves, sim.StepOf("c1"))
		}
		moves = append(moves, sim.NodeRestart("C", true))
		for range 4 {
			moves = append(moves, sim.StepOf("c1"))
		}
		for range 4 {
			moves = append(moves, sim.StepOf("c2"))
		}
		for _, m := range moves {
			if err := run.Insert(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		snap := run.Snapshot(ctx)
		var onC []string
		for _, e := range snap.Events {
			if e.Kind == sim.Command && e.Node == "C" {
				onC = append(onC, e.Actor+" "+e.Reply)
			}
		}
		if len(onC) != 3 || !strings.Contains(onC[0], "connection refused") || onC[1] != "c1 (integer) -1" || onC[2] != "c2 OK" {
			t.Fatalf("C stopped then restarted: %q", onC)
		}
		for _, k := range snap.Keys {
			if k.Node == "C" && k.Down {
				t.Fatalf("C restarted, yet it reads back as down")
			}
		}
		if err := run.Seek(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if err := run.Seek(ctx, len(run.Moves())); err != nil {
			t.Fatal(err)
		}
		again := run.Snapshot(ctx).Events
		for i := range snap.Events {
			if i >= len(again) || again[i].Reply != snap.Events[i].Reply {
				t.Fatalf("the replay differs at event %d", i)
			}
		}
		run.Clear(ctx)
		run.Close()
	}
}

// TestRedlockReleaseCardNamesEveryFailedNode: in "2 down" c1's release
// reaches A, B and C and fails on D and E (both stopped); its card at the
// end names both, not only E, the round's last reply.
func TestRedlockReleaseCardNamesEveryFailedNode(t *testing.T) {
	t.Parallel()
	p := playStory(t, embedded(t), "redlock", story("2 down"), 1)
	var failed []string
	for i, e := range p.snap.Events {
		if e.Actor == "c1" && releasePart(e) && p.led.Reads[i].What == ledger.NodeFailed {
			failed = append(failed, e.Node)
		}
	}
	if strings.Join(failed, "") != "DE" {
		t.Fatalf("c1's release failed on %v, want D and E", failed)
	}
	want := "released · D and E failed"
	for _, c := range p.ex.Cards {
		if c.Name == "c1" && c.Lines[1] != want {
			t.Errorf("c1's card reads %q, want %q", c.Lines[1], want)
		}
	}
}

// TestDefaultStoryThatAsksNothingNamesThoseThatDo: a scene whose first
// story asks no question (redlock's "2 down", a warm-up) says at its start
// which of its stories stop to ask, so a learner on the default knows a
// prediction waits behind k.
func TestDefaultStoryThatAsksNothingNamesThoseThatDo(t *testing.T) {
	for _, sc := range All() {
		if sc.Predict == nil || len(sc.Knobs) == 0 {
			continue
		}
		labels := func(p Params) []string {
			var out []string
			for _, m := range sc.Script(p).Moves {
				out = append(out, sim.MoveLabel(m))
			}
			return out
		}
		if sc.PredictAt(labels(Params{})) >= 0 {
			continue
		}
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		start := text.Get("start")
		for _, p := range sc.Stories() {
			if sc.PredictAt(labels(p)) < 0 {
				continue
			}
			for _, k := range sc.Knobs {
				if v := sc.Value(p, k.Name); !strings.Contains(start, `"`+v+`"`) {
					t.Errorf("%s: its first story asks nothing, and its start does not name %q, a story that asks:\n%s", sc.ID, v, start)
				}
			}
		}
	}
}
