package scenes

import (
	"sort"
	"time"

	"context"
	"slices"

	"locksim/race"
	"locksim/scenes/say"
	"locksim/sim"
)

var workers = []string{"w1", "w2", "w3", "w4"}

// Volley is the label of the race scene's one move, the four SETs.
const Volley = "all four SET at once"

// raceScene is scene 1: four workers fire the one-command acquire at once.
func raceScene() *Scene {
	return &Scene{
		ID: "race", Kind: Race,
		// the four SETs land at once and must all fall inside the
		// first one's 30 s lease: at ÷1000 a loaded machine spread a
		// volley over its 30 ms and gave two OKs
		Shortest: 30 * time.Second,
		Predict:  before(func(v Frame) int { return min(len(v.L.Leases), 2) }, Volley),
		Build: func(Params) sim.Script {
			var actors []sim.ActorSpec
			for _, w := range workers {
				actors = append(actors, sim.ActorSpec{Name: w})
			}
			return sim.Script{
				Actors: actors,
				Keys:   []string{sim.CourseKey},
				Watch:  []string{sim.CourseKey},
				Moves:  []sim.Move{{Kind: sim.MoveDo, Label: Volley, Do: fireAll}},
			}
		},
		Say: func(v Frame, s *Said) {
			if len(v.L.Leases)+len(v.L.Refusals) == 0 {
				return
			}
			double := "no"
			switch {
			case len(v.L.Overlaps) > 0:
				double, s.Tone = "YES", say.Bad
			case len(v.L.Leases) == 0:
				s.Tone = say.Warn
			}
			s.Verdict = v.Text.Fill("verdict", map[string]string{"holders": itoa(int64(len(v.L.Leases))), "double": double})
		},
	}
}

// fireAll sends every worker's acquire through the start barrier and logs
// the replies with the winner first.
func fireAll(ctx context.Context, r *sim.Run) {
	spec := sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}
	shots := make([]race.Shot, len(r.Actors))
	ops := make([]*sim.Op, len(r.Actors))
	for i, a := range r.Actors {
		args, op := r.PrepareAcquire(a, spec)
		shots[i], ops[i] = race.Shot{Client: r.Conn(a.Name), Args: args}, op
	}
	at := r.Now()
	results := race.Fire(ctx, shots)
	for n, i := range serverOrder(results) {
		r.RecordAcquire(r.Actors[i], shots[i].Args, ops[i], results[i].Val, results[i].Err, at, n+1)
	}
}

// serverOrder lists the winner first, then the rest by worker. Replies reach
// the goroutines in an order the Go scheduler blurs, but the replies settle
// the first place: the server runs one command at a time, and only the SET
// it ran first can have found the key absent. Among the refused ones the
// replies say nothing about order, so the log does not pretend to.
func serverOrder(results []race.Result) []int {
	won := func(r race.Result) bool { return r.Err == nil && r.Val == "OK" }
	idx := make([]int, 0, len(results))
	for i, r := range results {
		if won(r) {
			idx = append(idx, i)
		}
	}
	for i, r := range results {
		if !won(r) {
			idx = append(idx, i)
		}
	}
	return idx
}

// InOrder is the race scene's script with its volley replaced by the
// workers' SETs sent one at a time, in order (worker names; a worker not
// named goes after them, by worker): the server runs them in that order,
// so a recorded race gets the same replies again on a server where the key
// is absent. The move keeps its label, so the question stands before it.
func InOrder(sc *Scene, p Params, order []string) sim.Script {
	script := sc.Script(p)
	script.Moves = slices.Clone(script.Moves)
	for i, m := range script.Moves {
		if m.Kind == sim.MoveDo && m.Label == Volley {
			script.Moves[i].Do = func(ctx context.Context, r *sim.Run) { fireInOrder(ctx, r, order) }
		}
	}
	return script
}

// fireInOrder sends every worker's acquire, one after the other in order,
// each on the worker's own connection once the one before has its reply.
// The tokens are minted first, worker by worker, as fireAll mints them.
func fireInOrder(ctx context.Context, r *sim.Run, order []string) {
	spec := sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}
	args := make([][]any, len(r.Actors))
	ops := make([]*sim.Op, len(r.Actors))
	for i, a := range r.Actors {
		args[i], ops[i] = r.PrepareAcquire(a, spec)
	}
	at := r.Now()
	for n, i := range sequence(r.Actors, order) {
		a := r.Actors[i]
		val, err := r.Conn(a.Name).Do(ctx, args[i]...).Result()
		r.RecordAcquire(a, args[i], ops[i], val, err, at, n+1)
	}
}

// sequence is the indexes of actors in order: those order names first, as
// named, then the rest by actor.
func sequence(actors []*sim.Actor, order []string) []int {
	rank := func(i int) int {
		if k := slices.Index(order, actors[i].Name); k >= 0 {
			return k
		}
		return len(order) + i
	}
	idx := make([]int, len(actors))
	for i := range idx {
		idx[i] = i
	}
	// sort.SliceStable, not slices.SortStableFunc: shared code, not a
	// stable sort compiled for []int alone
	sort.SliceStable(idx, func(i, j int) bool { return rank(idx[i]) < rank(idx[j]) })
	return idx
}
