package tui

import (
	"fmt"
	"maps"
	"os"
	"strings"

	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// ClockTick asks the screen to draw again so the presenter's class clock
// moves on while nobody presses a key; the program sends it from outside
// (every few seconds), so Update starts no timer of its own.
type ClockTick struct{}

// notesWritten reports the speaker-notes file written, or why not.
type notesWritten struct{ err error }

// storyOver reports that the open scene has nothing more to step through:
// a story played to its end, a quiz on its score page, a race that has run.
func (a *App) storyOver() bool {
	p := a.pl
	if p.Busy || p.Asking || a.switchWanted >= 0 {
		return false
	}
	switch p.Scene.Kind {
	case scenes.Story:
		return len(p.Snap.Moves) > 0 && p.Snap.Pos >= len(p.Snap.Moves)
	case scenes.Quiz:
		q := p.OpenQuiz()
		return q.At >= len(q.Items)
	}
	return true // a race has no steps: once it has run it is over
}

// endOfStory is a step past the end. In presenter mode it opens what comes
// next in the lesson, the scene's next story first, so a clicker alone walks
// the lesson; in learner mode it says the story has ended and which keys go on.
func (a *App) endOfStory() tea.Cmd {
	if !a.present {
		what := "story"
		if a.pl.Scene.Kind == scenes.Quiz {
			what = "quiz"
		}
		a.pl.Flash = "the " + what + " has ended · " + a.whatNext()
		return nil
	}
	if v := a.nextStory(); v != nil {
		a.pl.Params, a.pl.Playing, a.pl.Sel = v, false, -1
		// a new setting is a new question for the class: it is put again
		a.pl.Guess, a.pl.Passed, a.pl.Revealed, a.pl.Actual = -1, false, false, -1
		a.pl.Flash = "the next story of " + a.pl.Scene.ID + ": " + a.pl.Scene.Describe(v)
		return a.pl.restart()
	}
	if i := a.nextScene(); i >= 0 {
		return a.switchTo(i)
	}
	a.pl.Flash = "the end of the lesson · esc for the contents, q to quit"
	return nil
}

// whatNext names the keys that go on from the end of a story, short
// enough for the status line at 80 columns.
func (a *App) whatNext() string {
	var out []string
	if v := a.nextStory(); v != nil {
		var keys []string
		for _, k := range a.pl.Scene.Knobs {
			keys = append(keys, k.Key)
		}
		out = append(out, strings.Join(keys, "/")+" another setting")
	}
	if n, step := play.Navigate(a.nav(), ">"); step == play.OpenScene {
		out = append(out, "> next: "+a.list[n.Scene].ID)
	}
	if a.pl.Scene.Kind == scenes.Story {
		out = append(out, "home replays")
	}
	return strings.Join(out, " · ")
}

// nextClick says, in the presenter's footer at the end of a story (the
// timeline says it is the end), what the next click opens.
func (a *App) nextClick() string {
	if v := a.nextStory(); v != nil {
		return "next click: " + a.pl.Scene.Describe(v)
	}
	if i := a.nextScene(); i >= 0 {
		return "next click: the next scene, " + a.list[i].ID
	}
	return "end of the lesson"
}

// nextStory is the setting combination after the one on screen among those
// the scene offers (its transcript's variants), nil after the last, or when
// the settings on screen are none of them.
func (a *App) nextStory() scenes.Params {
	if a.pl.Scene.Kind != scenes.Story {
		return nil
	}
	vs := a.pl.Scene.Stories()
	for i, v := range vs[:max(len(vs)-1, 0)] {
		if sameSettings(a.pl.Scene, v, a.pl.Params) {
			return maps.Clone(vs[i+1])
		}
	}
	return nil
}

// sameSettings reports that p and q pick the same value of every knob.
func sameSettings(sc *scenes.Scene, p, q scenes.Params) bool {
	for _, k := range sc.Knobs {
		if sc.Value(p, k.Name) != sc.Value(q, k.Name) {
			return false
		}
	}
	return true
}

// nextScene is the course index of the scene after the open one in the
// lesson's playlist (-scenes; the whole course without it), -1 after the
// last. Open a scene outside the playlist and the next is its first.
func (a *App) nextScene() int {
	list := a.playlist
	if list == nil {
		for i := range a.list {
			list = append(list, i)
		}
	}
	for j, i := range list {
		if i == a.idx {
			if j+1 < len(list) {
				return list[j+1]
			}
			return -1
		}
	}
	if len(list) > 0 {
		return list[0]
	}
	return -1
}

// presenterFooter is presenter mode's help line: the class clock, what
// the next click does, the keys a presenter needs.
func (a *App) presenterFooter() string {
	k := a.com.Keys
	line := views.HelpLine(k.PresenterHelp())
	if a.storyOver() {
		line = a.nextClick() + " · " + views.HelpLine(k.PresenterEndHelp())
	}
	return "class " + a.classTime() + " · " + line
}

// classTime is the time since the course opened, as h:mm.
func (a *App) classTime() string {
	d := a.clock().Sub(a.started)
	return fmt.Sprintf("%d:%02d", int(d.Hours()), int(d.Minutes())%60)
}

// notesFollow writes the speaker notes for the step on screen to the -notes
// file when the scene, its settings or its step changed since the last
// write: a command, so no file is touched inside Update.
func (a *App) notesFollow() tea.Cmd {
	if a.notesPath == "" || a.contents || a.pl.Busy {
		return nil
	}
	text := a.notesPage()
	if text == a.notesShown {
		return nil
	}
	a.notesShown = text
	path := a.notesPath
	return func() tea.Msg {
		// rewritten in place, not renamed: tail -f and less +F follow it
		return notesWritten{err: os.WriteFile(path, []byte(text), 0o644)}
	}
}

// notesPage is what the notes file holds for the moment on screen: where
// the story stands, what the next step runs, and the scene's notes.
func (a *App) notesPage() string {
	p := a.pl
	head := p.Scene.ID + " · " + p.Text.Get("title")
	if s := p.Scene.Describe(p.Params); s != "" {
		head += " · " + s
	}
	var where string
	switch {
	case p.Scene.Kind != scenes.Story:
		where = "no steps"
	case p.Snap.Pos >= len(p.Snap.Moves):
		where = fmt.Sprintf("step %d of %d · %s", p.Snap.Pos, len(p.Snap.Moves), a.nextClick())
	default:
		where = fmt.Sprintf("step %d of %d · next: %s", p.Snap.Pos, len(p.Snap.Moves), p.Snap.Moves[p.Snap.Pos])
	}
	if p.Asking {
		where += " · the question is on screen"
	}
	return head + "\n" + where + "\n\n" + p.Text.Get("notes") + "\n"
}
