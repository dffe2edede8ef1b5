package scenes

import (
	"context"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// Redlock's numbers in this scene, story time: a 10 s lease, and a client
// that gives each node 50 ms to answer.
const (
	redTTL     = 10 * time.Second
	redTimeout = 50 * time.Millisecond
	redKey     = "resource:lock"
	redWork    = 5 * time.Second // the holder's work, well within its validity
	// redPast is how far a story waits past a TTL: the scene's smallest
	// margin, which caps its scale on a live server
	redPast = time.Second
)

// redNodes are Redlock's five independent masters; failNodes the primary
// and replica of the failover story.
var (
	redNodes  = []string{"A", "B", "C", "D", "E"}
	failNodes = []string{"primary", "replica"}
)

// The stories of the redlock scene, by the knob's values.
var redStories = []string{"2 down", "3 down", "slow node", "slow acquire", "clock jump", "C restarts", "C restarts late", "failover", "replicated", "3 hang"}

// redlockScene is scene 12: one lock across five independent nodes, held
// only with a majority and validity left; then the node faults that break
// its assumptions, and the failover that a replica does not survive.
func redlockScene() *Scene {
	s := &Scene{ID: "redlock", Kind: Story, Distributed: true, Wait: redTTL, Shortest: redPast}
	s.Knobs = []Knob{{Key: "k", Name: "story", Values: redStories}}
	// a live server's clock cannot jump; a restart empty is simulated there
	// by locksim deleting its own keys on the node, which plays the same
	s.EmbeddedOnly = []string{"clock jump"}
	s.Build = func(p Params) sim.Script { return buildRedlock(s.Value(p, "story")) }
	s.Say = sayRedlock
	// asked before c2's SET on C, the node whose key something happened
	// to: its reply decides whether c2 can reach a majority
	s.Predict = before(func(v Frame) int {
		e, rd, ok := v.L.LastOp("c2", sim.OpAcquire)
		switch {
		case !ok || e.Node != "C":
			return -1
		case rd.What == ledger.NodeGranted:
			return 0
		}
		return 1
	}, "c2 SET C")
	// from C's fault on, C's key as read (gone) is the answer
	s.Predict.From = []string{"C clock +10 s", "C restarts, no persistence"}
	return s
}

func buildRedlock(story string) sim.Script {
	if story == "failover" || story == "replicated" {
		return buildFailover(story == "replicated")
	}
	steps := []sim.Step{{Label: "begin", Run: func(x *sim.Exec) { x.RedlockBegin(redKey) }}}
	for _, n := range redNodes {
		steps = append(steps, sim.Step{Label: "SET on " + n, Run: func(x *sim.Exec) {
			x.RedlockSet(n, redKey, redKey, redTTL, redTimeout)
		}})
	}
	steps = append(steps,
		sim.Step{Label: "count", Run: func(x *sim.Exec) { x.RedlockCount(redKey, redKey, redTTL, redNodes, redTimeout) }},
		sim.Step{Label: "release", Run: func(x *sim.Exec) {
			if !x.Actor().Holds {
				// a failed count already tried its release on every
				// node, in the count's own step: nothing more goes out
				x.Note(x.Actor().Name + " holds no lock: it tried its release when it counted")
				return
			}
			x.RedlockRelease(redKey, redKey, redNodes, redTimeout)
		}},
	)
	acquire := func(c string) []sim.Move {
		ms := []sim.Move{sim.Labeled(c, c+" begins")}
		for _, n := range redNodes {
			ms = append(ms, sim.Labeled(c, c+" SET "+n))
		}
		return append(ms, sim.Labeled(c, c+" counts"))
	}
	var moves []sim.Move
	switch story {
	case "2 down", "3 down", "slow node":
		moves = []sim.Move{sim.NodeStop("D"), sim.NodeStop("E")}
		switch story {
		case "3 down":
			moves = append(moves, sim.NodeStop("C"))
		case "slow node":
			moves = append(moves, sim.NodeSlow("C", true))
		}
		moves = append(moves, acquire("c1")...)
		moves = append(moves, sim.Advance(redWork), sim.Labeled("c1", "c1 releases"))
	case "3 hang":
		// C, D and E hang: c1's SETs there time out, c1 is told "not
		// acquired" and releases, but its releases there never arrive;
		// when the nodes wake its SETs land, and three nodes of five hold
		// the token of a client that does not hold the lock. c2, asking
		// a second later, finds them taken.
		hung := []string{"C", "D", "E"}
		for _, n := range hung {
			moves = append(moves, sim.NodeHang(n, true))
		}
		moves = append(moves, acquire("c1")...)
		moves = append(moves, sim.Advance(redPast))
		for _, n := range hung {
			moves = append(moves, sim.NodeHang(n, false))
		}
		// labelled apart from the other stories' c2, so the prediction
		// about c2's SET on C (whose key c1 got first) is not asked here
		moves = append(moves, sim.Labeled("c2", "c2 begins"))
		for _, n := range redNodes {
			moves = append(moves, sim.Labeled("c2", "c2 asks "+n))
		}
		moves = append(moves, sim.Labeled("c2", "c2 counts"))
	case "slow acquire":
		// c1 is frozen between its second and third SET for a TTL and a
		// second: its keys on A and B are clearly gone when it releases,
		// not in their last millisecond
		a := acquire("c1")
		moves = append(moves, a[:3]...)
		moves = append(moves, sim.Pause("c1"), sim.Advance(redTTL+redPast), sim.Resume("c1"))
		moves = append(moves, a[3:]...)
	default:
		// c1 reaches A, B, C only; then C loses its key one way or another;
		// c2 reaches C, D, E only
		moves = []sim.Move{sim.NodeCut("c1", "D", true), sim.NodeCut("c1", "E", true)}
		moves = append(moves, acquire("c1")...)
		switch story {
		case "clock jump":
			moves = append(moves, sim.NodeJump("C", redTTL))
		case "C restarts":
			moves = append(moves, sim.NodeStop("C"), sim.NodeRestart("C", true))
		case "C restarts late":
			moves = append(moves, sim.NodeStop("C"), sim.Advance(redTTL+redPast), sim.NodeRestart("C", true))
		}
		moves = append(moves, sim.NodeCut("c2", "A", true), sim.NodeCut("c2", "B", true))
		moves = append(moves, acquire("c2")...)
		moves = append(moves, sim.Labeled("c1", "c1 releases"), sim.Labeled("c2", "c2 releases"))
	}
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "c1", Program: steps}, {Name: "c2", Program: steps}},
		Nodes:  redNodes,
		Keys:   []string{redKey},
		Watch:  []string{redKey},
		Moves:  moves,
	}
}

// buildFailover: one lock on a primary with an asynchronous replica. c1
// takes it; the primary stops before (or after, if replicated) its write
// reaches the replica; the replica takes over, and c2 asks it for the lock.
func buildFailover(replicated bool) sim.Script {
	prog := func(node string) []sim.Step {
		return []sim.Step{
			{Label: "acquire", Run: func(x *sim.Exec) { x.AcquireOn(node, redKey, redKey, redTTL, redTimeout) }},
		}
	}
	moves := []sim.Move{sim.Labeled("c1", "c1 acquires")}
	if replicated {
		moves = append(moves, sim.NodeReplicate("primary", "replica", redKey))
	}
	promote := sim.Move{Kind: sim.MoveDo, Label: "replica promoted", Do: func(_ context.Context, r *sim.Run) {
		r.Record(sim.Event{Kind: sim.Info, Node: "replica", Note: "the replica is promoted: clients now send to it"})
	}}
	moves = append(moves, sim.NodeStop("primary"), promote, sim.Labeled("c2", "c2 acquires"))
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "c1", Program: prog("primary")}, {Name: "c2", Program: prog("replica")}},
		Nodes:  failNodes,
		Keys:   []string{redKey},
		Watch:  []string{redKey},
		Moves:  moves,
	}
}

// sayRedlock: the verdict names who holds by majority and the nodes that
// have a key; the scene's slots give the numbers of the rule.
func sayRedlock(v Frame, s *Said) {
	s.Vars["ttl"], s.Vars["timeout"] = secs(redTTL), itoa(redTimeout.Milliseconds())+" ms"
	s.Vars["drift"] = itoa(sim.Drift(redTTL).Milliseconds()) + " ms"
	switch {
	case len(v.Snap.Nodes) == len(failNodes):
		s.Vars["nodes"] = v.Text.Get("failover-nodes")
	case v.Snap.SharedNodes:
		s.Vars["nodes"] = v.Text.Get("shared-nodes")
	default:
		s.Vars["nodes"] = v.Text.Get("five-nodes")
	}
	if len(v.L.Reads) == 0 {
		return
	}
	held, keys := len(v.L.Holders()), 0
	for _, k := range v.Snap.Keys {
		if k.Exists() {
			keys++
		}
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"holders": itoa(int64(held)), "keys": itoa(int64(keys)),
		"nodes": itoa(int64(len(v.Snap.Keys)))})
	if held > 1 {
		s.Tone = say.Bad
	}
}
