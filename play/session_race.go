package play

import (
	"slices"
	"strings"

	"locksim/scenes"
	"locksim/sim"
)

// script is the run's script for this session's kind and settings.
func (p *Session) script() sim.Script { return p.kind.script(p) }

// volleyShots are the race's SETs as the server answered them, from the
// events of the volley move (scenes.Volley); nil before it has run.
func volleyShots(s sim.Snapshot) []RaceShot {
	at := slices.Index(s.Moves, scenes.Volley)
	if at < 0 {
		return nil
	}
	var out []RaceShot
	for _, e := range s.Events {
		if e.Move == at && e.Kind == sim.Command && e.Step == "acquire" {
			out = append(out, RaceShot{Worker: e.Actor, Order: e.Order, Reply: e.Reply})
		}
	}
	return out
}

// replayNote is the readout of a race replayed from a record, once its
// SETs have run: what was replayed, and whether the server's replies now
// are the recorded ones. Empty for a race fired for real.
func (p *Session) replayNote() string {
	k, ok := p.kind.(*raceKind)
	shots := volleyShots(p.Snap)
	if !ok || k.replaying == nil || len(shots) == 0 {
		return ""
	}
	order := k.replaying.Order()
	var differ []string
	for _, rec := range k.replaying.Shots {
		got := "no reply"
		for _, s := range shots {
			if s.Worker == rec.Worker {
				got = s.Reply
			}
		}
		if got != rec.Reply {
			differ = append(differ, p.Text.Fill("replayed-told", map[string]string{"worker": rec.Worker, "then": rec.Reply, "now": got}))
		}
	}
	if len(differ) > 0 {
		return p.Text.Fill("replayed-differ", map[string]string{"first": order[0], "differ": strings.Join(differ, "; ")})
	}
	return p.Text.Fill("replayed", map[string]string{"first": order[0]})
}
