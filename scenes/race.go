package scenes

import (
	"cmp"
	"context"
	"slices"

	"locksim/race"
	"locksim/scenes/say"
	"locksim/sim"
)

var workers = []string{"w1", "w2", "w3", "w4"}

// raceScene is scene 1: four workers fire the one-command acquire at once.
func raceScene() *Scene {
	return &Scene{
		ID: "race", Kind: Race,
		Predict: before(func(v Frame) int { return min(len(v.L.Leases), 2) }, "all four SET at once"),
		Build: func(Params) sim.Script {
			var actors []sim.ActorSpec
			for _, w := range workers {
				actors = append(actors, sim.ActorSpec{Name: w})
			}
			return sim.Script{
				Actors: actors,
				Keys:   []string{sim.CourseKey},
				Watch:  []string{sim.CourseKey},
				Moves:  []sim.Move{{Kind: sim.MoveDo, Label: "all four SET at once", Do: fireAll}},
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
	idx := make([]int, len(results))
	for i := range idx {
		idx[i] = i
	}
	won := func(r race.Result) bool { return r.Err == nil && r.Val == "OK" }
	slices.SortStableFunc(idx, func(a, b int) int {
		ra, rb := results[a], results[b]
		if won(ra) != won(rb) {
			if won(ra) {
				return -1
			}
			return 1
		}
		return cmp.Compare(a, b)
	})
	return idx
}
