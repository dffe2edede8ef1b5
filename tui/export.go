package tui

import (
	"locksim/scenes"
	"locksim/transcript"
)

// export writes the story so far to a redis-cli script in x's directory
// (made if missing) and says where, by its full path.
func (p *Player) export(x scenes.Export) {
	if len(p.snap.Nodes) > 0 {
		p.flash = "this story runs on " + itoa(int64(len(p.snap.Nodes))) + " servers: one redis-cli cannot replay it"
		return
	}
	name, err := transcript.WriteExport(x, p.b.Label, p.sc.ID, p.seed, p.snap)
	if err != nil {
		p.flash = err.Error()
		return
	}
	// the path first: a narrow status line cuts the end
	p.flash = "wrote " + name + " (redis-cli < file replays it, waits included)"
}
