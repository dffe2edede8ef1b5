package tui

import (
	"os"
	"path/filepath"
	"strings"

	"locksim/play"
	"locksim/storycode"
	"locksim/transcript"

	tea "github.com/charmbracelet/bubbletea"
)

// exported says what became of an export: the line the status shows.
type exported struct {
	id   int // the session that asked
	note string
}

// export is a command that saves the story so far as a redis-cli script,
// at the Common's export scale, in its sink, and says where, after the
// story code of the moment on screen (storycode): the code on the first
// line, the path written (or the error) on a line of its own, which the
// status wraps rather than cuts (Player.statusLines).
func (p *Player) export() tea.Cmd {
	id, label, scene, seed, snap, pos := p.ID, p.Backend.Label, p.Scene.ID, p.Seed, p.Snap, p.Position()
	x, sink, fetch := p.com.Export, p.com.Sink, p.com.Fetch
	// the script prints every source its EVALs send: while the question
	// is open they wait (play.Scripts). Served, y writes no script: it
	// hands the code's links (a web page, which asks the rule itself, and
	// over SSH a cli CODE line, which refuses an open code: play.ScriptsAt)
	var held []string
	if fetch == nil {
		held = p.Scripts(p.role).Held
	}
	return func() tea.Msg {
		// the first code of a scene plays its default stories once, headless
		code, err := storycode.Encode(pos)
		note := "-story " + code
		if err != nil {
			note = "no story code: " + err.Error()
		}
		if len(held) > 0 && len(snap.Nodes) == 0 {
			if pos.Lab != nil {
				// a story of the lab's code runs to hundreds of
				// characters, and no file is written to point to
				return exported{id, play.ExportWaits(held)}
			}
			return exported{id, note + " · " + play.ExportWaits(held)}
		}
		if fetch != nil && err == nil && len(snap.Nodes) == 0 {
			// the command carries the code: one line that fits 80 columns
			return exported{id, fetch(code)}
		}
		if len(snap.Nodes) > 0 {
			return exported{id, note + " · this story runs on " + itoa(int64(len(snap.Nodes))) + " servers: one redis-cli cannot replay it"}
		}
		ptr := ""
		if pos.Lab != nil && err == nil {
			// a story of the lab carries its lock: its code runs to
			// hundreds of characters, so the line gives its short pointer
			// and the file that holds the code (-story reads either)
			ptr = storycode.Pointer(code)
			if _, err := sink.Save(storycode.PointerFile(ptr), []byte(code+"\n")); err != nil {
				return exported{id, "no story code file:\n" + err.Error()}
			}
			note = "-story " + ptr
		}
		name, err := sink.Save(transcript.Export(x, label, scene, seed, snap))
		if err != nil {
			return exported{id, note + " · no script written:\n" + err.Error()}
		}
		home := os.Getenv("HOME")
		if ptr != "" {
			// the code file sits beside the script (one sink), named
			// after the pointer: the directory says where both are
			return exported{id, note + " · wrote its code file, and " + filepath.Base(name) + " for redis-cli < file, in:\n" + homeShort(filepath.Dir(name), home)}
		}
		// the path on a line of its own: a path cut with … is no path
		return exported{id, note + " · wrote, for redis-cli < file:\n" + homeShort(name, home)}
	}
}

// saved says how saving the progress went.
type saved struct{ err error }

// saving is the command that saves the progress as it stands, if it
// changed and no save is under way: one at a time, so an older state
// never lands after a newer one (see play.Course.TakeSave).
func (a *session) saving() tea.Cmd {
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
