package scenes

import (
	"cmp"
	"context"
	"slices"
	"time"

	"locksim/race"
	"locksim/sim"
	"locksim/views"
)

// The course's acquire: SET resource:lock <token> NX PX 30000.
const (
	lockKey = "resource:lock"
	lease   = 30 * time.Second
)

var workers = []string{"w1", "w2", "w3", "w4"}

// raceScene is scene 1: four workers fire the one-command acquire at once.
func raceScene() *Scene {
	return &Scene{
		ID: "race", Kind: Race,
		Build: func(Params) sim.Script {
			var actors []sim.ActorSpec
			for _, w := range workers {
				actors = append(actors, sim.ActorSpec{Name: w})
			}
			return sim.Script{
				Actors: actors,
				Keys:   []string{lockKey},
				Watch:  []string{lockKey},
				Moves:  []sim.Move{{Kind: sim.MoveDo, Label: "all four SET at once", Do: fireAll}},
			}
		},
		Say: func(v View, s *Said) {
			if len(v.L.Leases)+len(v.L.Refusals) == 0 {
				return
			}
			double := "no"
			switch n := len(v.L.Leases); {
			case n > 1:
				double, s.Tone = "YES", views.Bad
			case n == 0:
				s.Tone = views.Warn
			}
			s.Verdict = v.Text.Get("verdict", len(v.L.Leases), double)
		},
	}
}

// fireAll sends every worker's acquire through the start barrier and logs
// the replies with the winner first.
func fireAll(ctx context.Context, r *sim.Run) {
	key := r.Backend().Key(lockKey)
	px := r.Scaled(lease).Milliseconds()
	shots := make([]race.Shot, len(r.Actors))
	for i, a := range r.Actors {
		shots[i] = race.Shot{Client: r.Conn(a.Name), Args: []any{"SET", key, a.Token, "NX", "PX", px}}
	}
	at := r.Now()
	results := race.Fire(ctx, shots)
	for n, i := range serverOrder(results) {
		res := results[i]
		a := r.Actors[i]
		r.Record(sim.Event{
			At: at, Kind: sim.Command, Actor: a.Name, Step: "acquire", Node: sim.LockNode,
			Args: []string{"SET", key, a.Token, "NX", "PX", itoa(px)},
			Cmd:  sim.FormatCommand(shots[i].Args), Reply: sim.FormatReply(res.Val, res.Err),
			Val: res.Val, Err: res.Err, Order: n + 1,
			Op: &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: key, Key: key, Token: a.Token, TTL: lease, NX: true},
		})
		a.Holds = res.Err == nil && res.Val == "OK"
		if a.Holds {
			a.Lock, a.Value = key, a.Token
		}
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
