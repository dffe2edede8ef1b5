package play

import (
	"slices"
	"strings"

	"locksim/scenes"
	"locksim/sim"
)

// script is the scene's script under the session's settings; for a race
// opened from a record, the one whose SETs go one at a time in the
// recorded order (scenes.InOrder).
func (p *Session) script() sim.Script {
	if p.Scene.Kind == scenes.Race && p.replaying != nil {
		return scenes.InOrder(p.Scene, p.Params, p.replaying.Order())
	}
	return p.Scene.Script(p.Params)
}

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

// raceRecord is the race on screen as a record: the replies the server
// gave, once the SETs have run; before that, the record being replayed, if
// any, so a position taken while the question is open keeps it.
func (p *Session) raceRecord() *RaceRecord {
	if p.Scene.Kind != scenes.Race {
		return nil
	}
	if shots := volleyShots(p.Snap); len(shots) > 0 {
		return &RaceRecord{Shots: shots}
	}
	return p.replaying.clone()
}

// replayNote is the readout of a race replayed from a record, once its
// SETs have run: what was replayed, and whether the server's replies now
// are the recorded ones. Empty for a race fired for real.
func (p *Session) replayNote() string {
	shots := volleyShots(p.Snap)
	if p.replaying == nil || len(shots) == 0 {
		return ""
	}
	order := p.replaying.Order()
	var differ []string
	for _, rec := range p.replaying.Shots {
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
