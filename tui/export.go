package tui

import (
	"locksim/scenes"
)

// export writes the story so far to a redis-cli script in x's directory
// (made if missing) and says where, by its full path.
func (p *Player) export(x scenes.Export) {
	if len(p.Snap.Nodes) > 0 {
		p.Flash = "this story runs on " + itoa(int64(len(p.Snap.Nodes))) + " servers: one redis-cli cannot replay it"
		return
	}
	name, err := scenes.WriteExport(x, p.Backend.Label, p.Scene.ID, p.Seed, p.Snap)
	if err != nil {
		p.Flash = err.Error()
		return
	}
	// the path first: a narrow status line cuts the end
	p.Flash = "wrote " + name + " (redis-cli < file replays it, waits included)"
}
