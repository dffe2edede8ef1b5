package tui

import (
	"maps"
	"os"
	"slices"
	"strings"

	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/transcript"

	tea "github.com/charmbracelet/bubbletea"
)

// exported says what became of an export: the line the status shows.
type exported struct {
	id   int // the session that asked
	note string
}

// export is a command that writes the story so far to a redis-cli script
// in x's directory (made if missing) and says where, by its full path.
func (p *Player) export(x scenes.Export) tea.Cmd {
	if len(p.Snap.Nodes) > 0 {
		p.Flash = "this story runs on " + itoa(int64(len(p.Snap.Nodes))) + " servers: one redis-cli cannot replay it"
		return nil
	}
	id, label, scene, seed, snap := p.ID, p.Backend.Label, p.Scene.ID, p.Seed, p.Snap
	return func() tea.Msg {
		name, err := transcript.WriteExport(x, label, scene, seed, snap)
		if err != nil {
			return exported{id, err.Error()}
		}
		// the path first: a narrow status line cuts the end
		return exported{id, "wrote " + homeShort(name, os.Getenv("HOME")) + " (redis-cli < file replays it, waits included)"}
	}
}

// saved says how saving the progress went.
type saved struct{ err error }

// save asks for the progress to be saved once the message at hand is
// handled (see saving).
func (a *App) save() { a.saveWanted = true }

// saving is the command that saves the progress as it stands, if a save
// was asked for and none is under way: one at a time, so an older state
// never lands after a newer one.
func (a *App) saving() tea.Cmd {
	if !a.saveWanted || a.saveRunning {
		return nil
	}
	a.saveWanted, a.saveRunning = false, true
	store, prog := a.store, cloneProgress(a.prog)
	return func() tea.Msg { return saved{store.Save(prog)} }
}

// cloneProgress is p with maps of its own, for a command to read while
// Update goes on.
func cloneProgress(p progress.Progress) progress.Progress {
	q := p
	q.Done, q.Answers, q.Scores = maps.Clone(p.Done), maps.Clone(p.Answers), maps.Clone(p.Scores)
	q.Moment.Settings = maps.Clone(p.Moment.Settings)
	q.Place = slices.Clone(p.Place)
	return q
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
