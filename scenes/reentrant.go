package scenes

import (
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// reentrantWork is how long A works in outer() before it calls inner().
const reentrantWork = 10 * time.Second

// reentrantScene is scene 10: a hash lock whose field is the holder id and
// whose value is the hold count. A enters twice (outer() calls inner()),
// B is refused and its unlock in a finally block is refused too; A leaves
// twice and only the second release frees the key.
func reentrantScene() *Scene {
	return &Scene{
		ID: "reentrant", Kind: Story, Wait: 5 * time.Second, Shortest: 5 * time.Second,
		Build: func(Params) sim.Script { return reentrantStory() },
		Say:   sayReentrant,
		// the choices are "(integer) 2", "(nil)", "(integer) 1"
		Predict: before(answerOf("A", sim.OpAcquire, -1, ledger.Reentered, ledger.Refused, ledger.Granted), "A enters inner()"),
	}
}

func reentrantStory() sim.Script {
	enter := func(label string) sim.Step {
		return sim.Step{Label: label, Run: func(x *sim.Exec) { x.AcquireReentrant("", sim.CourseKey, sim.CourseTTL) }}
	}
	leave := func(label string) sim.Step {
		return sim.Step{Label: label, Run: sim.IfHolding(func(x *sim.Exec) { x.ReleaseReentrant("", sim.CourseKey, sim.CourseTTL) })}
	}
	// B's finally block unlocks whether or not its lock() succeeded
	unlockAnyway := sim.Step{Label: "finally unlock", Run: func(x *sim.Exec) {
		x.ReleaseReentrant("", sim.CourseKey, sim.CourseTTL)
	}}
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "A", Program: []sim.Step{enter("outer() locks"), enter("inner() locks"), leave("inner() unlocks"), leave("outer() unlocks")}},
			{Name: "B", Program: []sim.Step{enter("lock"), unlockAnyway, enter("lock again"), leave("unlock")}},
		},
		Keys:  []string{sim.CourseKey},
		Watch: []string{sim.CourseKey},
		Moves: []sim.Move{
			sim.Labeled("A", "A enters outer()"),
			{Kind: sim.MoveAdvance, D: reentrantWork, Label: "A works 10 s"},
			sim.Labeled("A", "A enters inner()"),
			sim.Labeled("B", "B tries the lock"),
			sim.Labeled("B", "B unlocks anyway"),
			sim.Labeled("A", "A leaves inner()"),
			sim.Labeled("A", "A leaves outer()"),
			sim.Labeled("B", "B tries again"),
			sim.Labeled("B", "B unlocks"),
		},
	}
}

// sayReentrant: the verdict is the hash read back (whose holder id, which
// count) and how many releases the script refused.
func sayReentrant(v Frame, s *Said) {
	if len(v.L.Reads) == 0 {
		return
	}
	refused := 0
	for _, rd := range v.L.Reads {
		if rd.What == ledger.RelNotHeld || rd.What == ledger.RelNoLock {
			refused++
		}
	}
	key := v.Text.Get("v-free")
	if len(v.L.Keys) > 0 {
		k := v.L.Keys[0]
		switch {
		case !k.Exists():
		case k.Lease != nil && len(k.Fields) == 1:
			key = v.Text.Fill("v-held", map[string]string{"holder": k.Lease.Actor, "count": k.Fields[0].Value})
		default:
			key, s.Tone = v.Text.Get("v-other"), say.Warn
		}
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"key": key, "refused": itoa(int64(refused))})
}
