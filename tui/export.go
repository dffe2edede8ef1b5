package tui

import (
	"os"
	"strings"

	"locksim/transcript"

	tea "github.com/charmbracelet/bubbletea"
)

// exported says what became of an export: the line the status shows.
type exported struct {
	id   int // the session that asked
	note string
}

// export is a command that saves the story so far as a redis-cli script,
// at the Common's export scale, in its sink, and says where.
func (p *Player) export() tea.Cmd {
	if len(p.Snap.Nodes) > 0 {
		p.SetFlash("this story runs on " + itoa(int64(len(p.Snap.Nodes))) + " servers: one redis-cli cannot replay it")
		return nil
	}
	id, label, scene, seed, snap := p.ID, p.Backend.Label, p.Scene.ID, p.Seed, p.Snap
	x, sink := p.com.Export, p.com.Sink
	return func() tea.Msg {
		name, err := sink.Save(transcript.Export(x, label, scene, seed, snap))
		if err != nil {
			return exported{id, err.Error()}
		}
		// the path first: a narrow status line cuts the end
		return exported{id, "wrote " + homeShort(name, os.Getenv("HOME")) + " (redis-cli < file replays it, waits included)"}
	}
}

// saved says how saving the progress went.
type saved struct{ err error }

// saving is the command that saves the progress as it stands, if it
// changed and no save is under way: one at a time, so an older state
// never lands after a newer one (see play.Course.TakeSave).
func (a *App) saving() tea.Cmd {
	if a.saveRunning {
		return nil
	}
	store, prog, ok := a.course.TakeSave()
	if !ok {
		return nil
	}
	a.saveRunning = true
	return func() tea.Msg { return saved{store.Save(prog)} }
}

// homeShort writes a path under home as ~/…, so that more of it fits on
// an 80-column status line.
func homeShort(path, home string) string {
	if home == "" || home == "/" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, strings.TrimSuffix(home, "/")+"/"); ok {
		return "~/" + rest
	}
	return path
}
