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

// lease is the TTL of the course's acquire: SET resource:lock <token> NX PX 30000.
const lease = 30 * time.Second

var workers = []string{"w1", "w2", "w3", "w4"}

// raceScene is scene 1: four workers fire the one-command acquire at once.
func raceScene() *Scene {
	return &Scene{
		ID: "race", Dive: "R2.02.1 §1", Title: "Four workers, one SET",
		Race: true,
		Build: func(Params) sim.Script {
			var actors []sim.ActorSpec
			for _, w := range workers {
				actors = append(actors, sim.ActorSpec{Name: w})
			}
			return sim.Script{
				Actors: actors,
				Keys:   []string{"resource:lock"},
				Watch:  []string{"resource:lock"},
				Moves:  []sim.Move{{Kind: sim.MoveDo, Label: "all four SET at once", Do: fireAll}},
			}
		},
		Explain: explainRace,
	}
}

// fireAll sends every worker's acquire through the start barrier and logs
// the replies in the order the server sent them.
func fireAll(ctx context.Context, r *sim.Run) {
	key := r.Backend().Key("resource:lock")
	px := r.Scaled(lease).Milliseconds()
	shots := make([]race.Shot, len(r.Actors))
	for i, a := range r.Actors {
		shots[i] = race.Shot{Client: r.Conn(a.Name), Args: []any{"SET", key, a.Token, "NX", "PX", px}}
	}
	results := race.Fire(ctx, shots)
	for n, i := range serverOrder(results) {
		res := results[i]
		args := shots[i].Args
		r.Record(sim.Event{
			Kind: sim.Command, Actor: r.Actors[i].Name, Step: "acquire",
			Args: []string{"SET", key, r.Actors[i].Token, "NX", "PX", itoa(px)},
			Cmd:  sim.FormatCommand(args), Reply: sim.FormatReply(res.Val, res.Err), Order: n + 1,
		})
		if res.Err == nil && res.Val == "OK" {
			r.Actors[i].Vars["holds"] = "yes"
		}
	}
}

// serverOrder lists the winner first, then the rest by worker. Replies reach
// the goroutines in an order the Go scheduler blurs, but the replies settle
// the first place: the server runs one command at a time, and only the SET
// that ran first can have found the key absent. Among the refused ones the
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

func explainRace(v View) Explanation {
	s := v.Snap
	var ex Explanation
	acq := commands(s.Events, "", "acquire")
	holders := 0
	for _, e := range acq {
		if e.Reply == "OK" {
			holders++
		}
	}
	for _, a := range s.Actors {
		c := views.Card{Name: a.Name, Lines: []string{"token " + short(a.Token), "waiting at the barrier"}}
		if e, ok := lastOf(s.Events, a.Name, "acquire"); ok {
			c.Tone = toneOf(e.Reply)
			switch e.Reply {
			case "OK":
				c.Lines[1] = "OK · holder"
			case "(nil)":
				c.Lines[1] = "(nil) · refused"
			default:
				c.Lines[1] = e.Reply
			}
		}
		ex.Cards = append(ex.Cards, c)
	}
	switch {
	case len(acq) == 0:
		ex.Readout = v.Text.Get("intro")
	case v.Sel < 0 || v.Sel >= len(s.Actors):
		ex.Readout = v.Text.Get("idle")
	default:
		a := s.Actors[v.Sel]
		e, _ := lastOf(s.Events, a.Name, "acquire")
		switch e.Reply {
		case "OK":
			ex.Readout = v.Text.Get("won", a.Name, short(a.Token), sim.Atoi(e.Args[5]))
		case "(nil)":
			ex.Readout = v.Text.Get("lost", a.Name, holderOf(s))
		default:
			ex.Readout = v.Text.Get("failed", a.Name, e.Reply)
		}
	}
	if len(acq) > 0 {
		double := "no"
		ex.VerdictTone = views.Good
		ex.Props[0] = views.Held
		if holders > 1 {
			double, ex.VerdictTone, ex.Props[0] = "YES", views.Bad, views.Broken
			ex.Alarm = v.Text.Get("double")
		}
		if holders == 0 {
			ex.VerdictTone = views.Warn
		}
		ex.Verdict = v.Text.Get("verdict", holders, double)
	}
	return ex
}

// holderOf names the actor whose token the lock key holds, read back from
// the server; "another client" if it is nobody on stage.
func holderOf(s sim.Snapshot) string {
	for _, k := range s.Keys {
		for _, a := range s.Actors {
			if k.Value == a.Token {
				return a.Name
			}
		}
	}
	return "another client"
}
