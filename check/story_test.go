package check_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"locksim/check"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
)

// story is one played story: its snapshot, the ledger's fold and the
// history read from it.
type story struct {
	snap sim.Snapshot
	led  *ledger.Ledger
	h    check.History
}

// play runs scene id's story under p to its end, with own moves put in
// first (each at its position in the schedule, as a learner's are).
func play(t testing.TB, b *sim.Backend, sc *scenes.Scene, p scenes.Params, seed uint64, own []ownMove) story {
	t.Helper()
	ctx := context.Background()
	run := sim.NewRun(b, sc.Script(p), seed)
	defer run.Close()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, o := range own {
		if err := run.Seek(ctx, o.at); err != nil {
			t.Fatal(err)
		}
		if err := run.Insert(ctx, o.m); err != nil {
			t.Fatal(err)
		}
	}
	if err := run.Seek(ctx, len(run.Moves())); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" {
		t.Fatalf("%s: reading keys back: %s", sc.ID, snap.Err)
	}
	led := scenes.Fold(snap)
	return story{snap, led, check.FromLedger(snap.Events, led, check.OptionsFor(snap))}
}

type ownMove struct {
	at int
	m  sim.Move
}

func find(t testing.TB, id, settings string) (*scenes.Scene, scenes.Params) {
	t.Helper()
	sc := scenes.Find(id)
	if sc == nil {
		t.Fatalf("no scene %q", id)
	}
	if settings == "" {
		return sc, scenes.Params{}
	}
	p, err := scenes.ParseSettings(sc, settings)
	if err != nil {
		t.Fatalf("%s %q: %v", id, settings, err)
	}
	return sc, p
}

// TestGCPauseAndFencing: the issue's own words. In the GC pause the
// server kept its word, the client's mutex cannot place B's acquire, and
// the unfenced resource took the stale write; the same story with fencing
// tokens leaves the resource safe.
func TestGCPauseAndFencing(t *testing.T) {
	b := simtest.Embedded(t)
	sc, p := find(t, "gc-pause", "")
	r := check.Check(play(t, b, sc, p, 1, nil).h, 0)
	want := "server: linearizable · client's mutex: not linearizable at B's acquire · fenced resource: unfenced, stale write accepted"
	if got := r.Line(); got != want {
		t.Errorf("gc-pause:\n got %s\nwant %s", got, want)
	}
	if v := r.Of(check.Mutex()); v.Op.Actor != "B" || v.Op.Kind != check.Acquire || v.Op.Call.Seconds() != 32 {
		t.Errorf("the mutex's first unplaced op is %+v, want B's acquire at 32 s", v.Op)
	}
	if v := r.Of(check.Resource()); v.Op.Actor != "A" || v.Op.Kind != check.Write {
		t.Errorf("the resource's first unplaced op is %+v, want A's write", v.Op)
	}

	sc, p = find(t, "fencing", "")
	r = check.Check(play(t, b, sc, p, 1, nil).h, 0)
	if v := r.Of(check.Resource()); v.Result != check.Linearizable || v.Refused != 1 || v.Short() != "fenced, stale write refused" {
		t.Errorf("fencing's resource: %s (%+v)", v.Short(), v)
	}
	if v := r.Of(check.Mutex()); v.Result != check.NotLinearizable || v.Op.Who() != "B's acquire" {
		t.Errorf("fencing's mutex: %s; fencing saves the resource, not the lock", v.Short())
	}
}

// TestTheMutexBreaks: the stories whose point is that the client's picture
// of the lock cannot hold, and where it breaks.
func TestTheMutexBreaks(t *testing.T) {
	b := simtest.Embedded(t)
	for _, c := range []struct{ id, settings, at string }{
		{"gc-pause", "", "B's acquire"},
		{"release", "", "B's acquire"},                  // the lapsed-lease release
		{"extend", "", "B's acquire"},                   // the watchdog frozen with its holder
		{"redlock", "story=clock jump", "c2's acquire"}, // a majority on a node whose clock jumped
		{"redlock", "story=C restarts", "c2's acquire"}, // an empty restart
		{"redlock", "story=failover", "c2's acquire"},   // a replica promoted without the key
		{"key-naming", "", "w2's acquire"},              // two keys for one lock
		{"claim-lease", "w1=freezes", "w3's claim"},     // a claim reaped from a frozen worker
	} {
		sc, p := find(t, c.id, c.settings)
		r := check.Check(play(t, b, sc, p, 1, nil).h, 0)
		if v := r.Of(check.Mutex()); v.Result != check.NotLinearizable || v.Op.Who() != c.at {
			t.Errorf("%s %s: client's mutex %s, want not linearizable at %s", c.id, c.settings, v.Short(), c.at)
		}
		if v := r.Of(check.Mutex()); !strings.Contains(v.Sentence, c.at) {
			t.Errorf("%s %s: the sentence does not name %s: %q", c.id, c.settings, c.at, v.Sentence)
		}
		if v := r.Of(check.Server()); v.Result == check.NotLinearizable {
			t.Errorf("%s %s: the server broke its word at %s: %s", c.id, c.settings, v.Op.Who(), v.Sentence)
		}
	}
}

// agree fails t when the mutex model and the ledger's mutual exclusion
// disagree on st: broken exactly when not linearizable. It returns
// whether the ledger said broken.
func agree(t *testing.T, sc *scenes.Scene, what string, st story) bool {
	t.Helper()
	v := check.CheckModel(st.h, check.Mutex(), 0)
	broken := st.led.Properties(!sc.Distributed)[0] == ledger.Broken
	for _, m := range check.Models() {
		full, quick := check.CheckModel(st.h, m, 0), check.Quick(st.h, m, 0)
		if full.Result != quick.Result || full.At != quick.At || full.Sentence != quick.Sentence {
			t.Errorf("%s %s, %s: porcupine says %s at %d, stepping in order %s at %d", sc.ID, what, m.Name,
				full.Short(), full.At, quick.Short(), quick.At)
		}
	}
	if broken != (v.Result == check.NotLinearizable) {
		var lines []string
		for _, e := range st.snap.Events {
			lines = append(lines, fmt.Sprintf("  %s %s %s → %s %s", scenes.Stamp(e.At), e.Actor, e.Cmd, e.Reply, e.Note))
		}
		t.Errorf("%s %s: the ledger says mutual exclusion broken=%v, the mutex model says %s (%s)\n%s",
			sc.ID, what, broken, v.Short(), v.Sentence, strings.Join(lines, "\n"))
	}
	return broken
}

// TestEveryStory: every story of every scene, as written, on the embedded
// server. The server's lease model finds Redis kept its word; the mutex
// model is not linearizable exactly when the ledger's scoreboard says
// mutual exclusion broke; and for each model, stepping through the ops in
// order (Quick) decides what porcupine's search does.
func TestEveryStory(t *testing.T) {
	b := simtest.Embedded(t)
	for _, sc := range scenes.All() {
		for _, p := range sc.Stories() {
			st := play(t, b, sc, p, 5, nil)
			if v := check.CheckModel(st.h, check.Server(), 0); v.Result == check.NotLinearizable || v.Result == check.Unknown {
				t.Errorf("%s %s: server %s: %s", sc.ID, scenes.FormatSettings(sc, p), v.Short(), v.Sentence)
			}
			agree(t, sc, scenes.FormatSettings(sc, p), st)
		}
	}
}

// TestAgreesWithOwnMoves is TestEveryStory's agreement with a learner's
// moves at seeded random points: crashes, pauses and wakes, steps, waits,
// and in a distributed story the nodes' faults.
func TestAgreesWithOwnMoves(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	b := simtest.Embedded(t)
	var stories, broken int
	for _, sc := range scenes.All() {
		if sc.Kind == scenes.Quiz {
			continue
		}
		for _, p := range sc.Stories() {
			script := sc.Script(p)
			for seed := range uint64(12) {
				rng := rand.New(rand.NewPCG(seed, 21))
				own := randomMoves(rng, script, 1+rng.IntN(3))
				what := fmt.Sprintf("%s seed %d own %v", scenes.FormatSettings(sc, p), seed, own)
				stories++
				if agree(t, sc, what, play(t, b, sc, p, seed, own)) {
					broken++
				}
			}
		}
	}
	// a walk that never (or always) breaks the lock compares nothing
	if broken == 0 || broken == stories {
		t.Errorf("%d of %d stories broke mutual exclusion", broken, stories)
	}
	t.Logf("%d of %d stories broke mutual exclusion", broken, stories)
}

func randomMoves(rng *rand.Rand, script sim.Script, n int) []ownMove {
	var out []ownMove
	moves := len(script.Moves)
	for range n {
		at := rng.IntN(moves + 1)
		a := script.Actors[rng.IntN(len(script.Actors))].Name
		var m sim.Move
		switch k := rng.IntN(8); {
		case k == 0:
			m = sim.Crash(a)
		case k == 1:
			m = sim.Pause(a)
		case k == 2:
			m = sim.Resume(a)
		case k == 3:
			m = sim.Advance(sim.CourseTTL + 5e9)
		case k == 4 && len(script.Nodes) > 0:
			node := script.Nodes[rng.IntN(len(script.Nodes))]
			m = []sim.Move{sim.NodeStop(node), sim.NodeRestart(node, true), sim.NodeJump(node, sim.CourseTTL),
				sim.NodeCut(a, node, true), sim.NodeSlow(node, true), sim.NodeHang(node, true), sim.NodeHang(node, false)}[rng.IntN(7)]
		default:
			m = sim.StepOf(a)
		}
		out = append(out, ownMove{at, m})
		moves++
	}
	return out
}

// TestMarks: the faults come out as marks on the story clock.
func TestMarks(t *testing.T) {
	b := simtest.Embedded(t)
	sc, p := find(t, "gc-pause", "")
	h := play(t, b, sc, p, 1, nil).h
	var pause *check.Mark
	for i, m := range h.Marks {
		if m.Kind == check.Pause && m.Actor == "A" {
			pause = &h.Marks[i]
		}
	}
	if pause == nil || pause.From != 0 || pause.To.Seconds() != 35 || pause.Open {
		t.Errorf("gc-pause: A's pause mark is %+v, want 0 s to 35 s", pause)
	}
	sc, p = find(t, "redlock", "story=clock jump")
	h = play(t, b, sc, p, 1, nil).h
	found := false
	for _, m := range h.Marks {
		found = found || m.Kind == check.ClockJump && m.Node != "" && m.Jump > 0
	}
	if !found {
		t.Errorf("redlock's clock jump: no clock jump mark in %+v", h.Marks)
	}
}

// TestVisualize: the HTML is porcupine's page with the history's own
// operations and faults in it.
func TestVisualize(t *testing.T) {
	b := simtest.Embedded(t)
	sc, p := find(t, "gc-pause", "")
	var buf bytes.Buffer
	if err := check.Visualize(&buf, play(t, b, sc, p, 1, nil).h, 0); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{"<html", "client's mutex: B's acquire", "fenced resource: A's write", `"Description":"pause"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestOnALiveServer: every scene's first story on a redis-server, each at
// its own capped scale: the server's lease model (with a slack of
// LiveSlack on the wire around each expiry) still finds Redis kept its
// word, and the mutex model still agrees with the ledger.
func TestOnALiveServer(t *testing.T) {
	simtest.SkipUnlessSlow(t)
	simtest.OnBoth(t, 1000, func(t *testing.T, b *sim.Backend) {
		for _, sc := range scenes.All() {
			if sc.Kind == scenes.Quiz {
				continue
			}
			p := sc.Stories()[0]
			st := play(t, b, sc, p, 9, nil)
			if v := check.CheckModel(st.h, check.Server(), check.DefaultTimeout); v.Result == check.NotLinearizable || v.Result == check.Unknown {
				t.Errorf("%s (live %v): server %s: %s", sc.ID, b.Live(), v.Short(), v.Sentence)
			}
			agree(t, sc, "live", st)
		}
	})
}
