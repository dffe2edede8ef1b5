package scenes

import (
	"strings"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The key-naming scene's one lock, and the two ways of naming its key.
const (
	namingLock     = "order 42"      // the lock as the scene declares it
	namingOrderKey = "lock:order:42" // named after the resource
	namingKnob     = "key named after"
	namingByWorker = "the worker"
	namingByOrder  = "the order"
	namingWork     = 5 * time.Second // between the locks and the writes
)

// keyNamingScene is scene 11: two code paths guard order 42. With keys
// named after the worker both get OK and both write; named after the
// order, the second is refused.
func keyNamingScene() *Scene {
	s := &Scene{ID: "key-naming", Kind: Story, Wait: 5 * time.Second, Shortest: namingWork}
	s.Knobs = []Knob{{Key: "k", Name: namingKnob, Values: []string{namingByWorker, namingByOrder}}}
	byWorker := func(p Params) bool { return s.Value(p, namingKnob) == namingByWorker }
	s.Build = func(p Params) sim.Script { return buildKeyNaming(byWorker(p)) }
	s.Say = func(v Frame, said *Said) { sayKeyNaming(v, said, byWorker(v.P)) }
	s.Predict = before(answerOf("w2", sim.OpAcquire, 2, ledger.Granted, ledger.Refused), "w2 locks")
	return s
}

// namingKey is the key a worker locks: its own name, or the order's.
func namingKey(worker string, byWorker bool) string {
	if byWorker {
		return "lock:worker-" + strings.TrimPrefix(worker, "w")
	}
	return namingOrderKey
}

func buildKeyNaming(byWorker bool) sim.Script {
	program := func(worker, edit string) []sim.Step {
		key := namingKey(worker, byWorker)
		return []sim.Step{
			{Label: "lock", Run: func(x *sim.Exec) {
				x.Acquire(sim.AcquireSpec{Lock: namingLock, Key: key, TTL: sim.CourseTTL})
			}},
			{Label: "write", Run: func(x *sim.Exec) {
				if !x.Actor().Holds {
					x.Note(worker + " did not get the lock: it leaves order 42 alone")
					return
				}
				x.Write(edit)
			}},
			{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.Release(namingLock, key) })},
		}
	}
	keys := []string{namingKey("w1", byWorker)}
	if byWorker {
		keys = append(keys, namingKey("w2", byWorker))
	}
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "w1", Program: program("w1", "paid")},
			{Name: "w2", Program: program("w2", "refunded")},
		},
		Keys:     keys,
		Watch:    keys,
		Resource: true,
		Moves: []sim.Move{
			sim.Labeled("w1", "w1 locks"),
			sim.Labeled("w2", "w2 locks"),
			{Kind: sim.MoveAdvance, D: namingWork, Label: "5 s of work"},
			sim.Labeled("w1", "w1 writes"),
			sim.Labeled("w2", "w2 writes"),
			sim.Labeled("w1", "w1 releases"),
			sim.Labeled("w2", "w2 releases"),
		},
	}
}

// sayKeyNaming: the verdict names the keys in play, whether the ledger saw
// two holders of order 42 at once, and the writes the resource took.
func sayKeyNaming(v Frame, s *Said, byWorker bool) {
	keys := namingOrderKey
	if byWorker {
		keys = namingKey("w1", true) + " and " + namingKey("w2", true)
	}
	s.Vars["keys"] = keys
	if len(v.L.Reads) == 0 {
		return
	}
	two := v.Text.Get("v-no")
	if len(v.L.Overlaps) > 0 {
		two, s.Tone = v.Text.Get("v-yes"), say.Bad
	}
	accepted, _ := v.L.WriteCounts()
	s.Verdict = v.Text.Fill("verdict", map[string]string{"leases": itoa(int64(len(v.L.Leases))), "two": two, "taken": itoa(int64(accepted))})
}
