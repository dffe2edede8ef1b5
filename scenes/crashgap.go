package scenes

import (
	"time"

	"locksim/content"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The two lanes of the crash-gap scene, each on a key of its own so both
// can be watched at once.
const (
	gapAtomicKey = "atomic:resource:lock"
	gapSplitKey  = "split:resource:lock"
	gapKnob      = "crash point"
)

// gapPoints are where the first worker of each lane crashes; the first is
// the default. a1 sends a single command, so for it "between" and "after
// EXPIRE" both mean after its SET: only s1 has a gap to crash in.
var gapPoints = []string{"between", "after EXPIRE", "before SETNX"}

// crashGapScene is scene 3: the one-command acquire beside SETNX then
// EXPIRE, with a crash that can land in the gap between the two.
func crashGapScene() *Scene {
	s := &Scene{
		ID: "crash-gap", Kind: Story,
		Knobs: []Knob{{Key: "c", Name: gapKnob, Values: gapPoints}},
		Wait:  40 * time.Second,
		// the first wait passes the TTL by 10 s
		Shortest: 10 * time.Second,
		// the choices are "1, free again", "0, still there", "an error"
		Predict: before(answerOf("s2", sim.OpAcquire, 2, ledger.Granted, ledger.Refused), "s2 SETNX"),
		Build:   buildCrashGap,
		Say:     sayCrashGap,
	}
	// the premise names where this story's crash falls
	s.Predict.Vars = func(t content.Text, p Params) map[string]string {
		section := map[string]string{"between": "crashed-between", "after EXPIRE": "crashed-after", "before SETNX": "crashed-before"}
		return map[string]string{"crashed": t.Get(section[gapPoints[p[gapKnob]%len(gapPoints)]])}
	}
	return s
}

func buildCrashGap(p Params) sim.Script {
	point := gapPoints[p[gapKnob]%len(gapPoints)]
	atomic := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		x.Acquire(sim.AcquireSpec{Key: gapAtomicKey, TTL: sim.CourseTTL})
	}}
	// the healthy lane's second worker does its work and lets go in time
	release := sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.Release("", gapAtomicKey) })}
	releaseSplit := sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.Release("", gapSplitKey) })}
	setnx := sim.Step{Label: "setnx", Run: func(x *sim.Exec) { x.AcquireSETNX("", gapSplitKey) }}
	expire := sim.Step{Label: "expire", Run: func(x *sim.Exec) {
		if !x.Actor().Holds {
			x.Note(x.Actor().Name + " holds no lock: no EXPIRE to send")
			return
		}
		x.ExpireLock("", gapSplitKey, sim.CourseTTL)
	}}
	// the second worker of the split lane sends both commands in one step;
	// on a retry it gives up its turn if it already holds the lock
	try := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		if x.Actor().Holds {
			x.Note(x.Actor().Name + " got the lock on its first try: no retry")
			return
		}
		if n, _ := x.AcquireSETNX("", gapSplitKey).Int(); n == 1 {
			x.ExpireLock("", gapSplitKey, sim.CourseTTL)
		}
	}}
	crash := func(actor string) sim.Move {
		return sim.Move{Kind: sim.MoveCrash, Actor: actor, Label: actor + " crashes"}
	}
	var moves []sim.Move
	switch point {
	case "before SETNX":
		moves = []sim.Move{crash("a1"), sim.Labeled("a1", "a1 SET NX PX"), crash("s1"), sim.Labeled("s1", "s1 SETNX"), sim.Labeled("s1", "s1 EXPIRE")}
	case "after EXPIRE":
		moves = []sim.Move{sim.Labeled("a1", "a1 SET NX PX"), crash("a1"), sim.Labeled("s1", "s1 SETNX"), sim.Labeled("s1", "s1 EXPIRE"), crash("s1")}
	default:
		moves = []sim.Move{sim.Labeled("a1", "a1 SET NX PX"), crash("a1"), sim.Labeled("s1", "s1 SETNX"), crash("s1"), sim.Labeled("s1", "s1 EXPIRE")}
	}
	// after the wait the split lane goes first: the question about s2's
	// SETNX is asked as the clock stops, before any later read-back of
	// the split key (still there at 40 s) could answer it
	moves = append(moves,
		sim.Advance(40*time.Second),
		sim.Labeled("s2", "s2 SETNX"),
		sim.Labeled("a2", "a2 SET NX PX"),
		sim.Labeled("a2", "a2 releases"),
	)
	// the moves from the question on are the same wherever the crash
	// falls: the timeline marks them before the answer, and a release of
	// s2's in one story only would tell that s2 got the lock there. Like
	// a2, s2 lets go when its work is done, if it got the lock at all
	moves = append(moves, sim.Labeled("s2", "s2 releases"))
	s2 := []sim.Step{try, releaseSplit, try}
	moves = append(moves,
		sim.Advance(60*time.Second),
		sim.Labeled("s2", "s2 SETNX again"),
	)
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "a1", Program: []sim.Step{atomic}},
			{Name: "a2", Program: []sim.Step{atomic, release}},
			{Name: "s1", Program: []sim.Step{setnx, expire}},
			{Name: "s2", Program: s2},
		},
		Keys:  []string{gapAtomicKey, gapSplitKey},
		Watch: []string{gapAtomicKey, gapSplitKey},
		Moves: moves,
	}
}

// sayCrashGap: the verdict is each lane's key as read back; the expiry
// command is named as sent (EXPIRE, or PEXPIRE when time is scaled).
func sayCrashGap(v Frame, s *Said) {
	s.Vars["expire"] = sim.ExpireCommand((sim.CourseTTL / time.Duration(max(v.Snap.Scale, 1))).Milliseconds())
	if len(v.L.Reads) == 0 || len(v.L.Keys) < 2 {
		return
	}
	lane := func(i int) string {
		k := v.L.Keys[i]
		switch k.Status() {
		case ledger.KeyFree:
			return v.Text.Get("state-free")
		case ledger.KeyNoTTL:
			s.Tone = say.Warn
			return v.Text.Get("state-nottl")
		}
		return v.Text.Fill("state-ttl", map[string]string{"left": itoa(v.storyMS(k.PTTL))})
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"atomic": lane(0), "split": lane(1)})
}
