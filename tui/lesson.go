package tui

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"locksim/play"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// ClockTick asks the screen to draw again so the presenter's class clock
// moves on while nobody presses a key; the program sends it from outside
// (every few seconds), so Update starts no timer of its own.
type ClockTick struct{}

// notesWritten reports the speaker-notes file written, or why not.
type notesWritten struct{ err error }

// storyOver reports that the open scene has nothing more to step through
// (see play.Course.StoryOver) and no other scene is waiting to open.
func (a *session) storyOver() bool {
	return a.switchWanted < 0 && a.course.StoryOver(a.pl.Session)
}

// endOfStory is a step past the end (see play.Course.EndOfStory): in
// presenter mode the lesson goes on, so a clicker alone walks it; in
// learner mode the status says the story has ended and which keys go on.
func (a *session) endOfStory() tea.Cmd {
	end, cmd := a.course.EndOfStory(a.pl.Session)
	switch end.Kind {
	case play.StoryEnded:
		what := "story"
		if !a.pl.Sends() {
			what = "quiz"
		}
		a.pl.SetFlash("the " + what + " has ended · " + a.whatNext())
		if p := a.newEnding(); p != nil {
			a.openOver(p) // what it taught, and the way on
		}
	case play.NewStory:
		a.pl.SetFlash("the next story of " + a.pl.Scene.ID + ": " + a.pl.Scene.Describe(end.Story))
		return a.pl.spinWith(cmd)
	case play.NewScene:
		return a.switchTo(end.Scene)
	case play.LessonOver:
		a.pl.SetFlash("the end of the lesson · esc for the contents, q to quit")
	}
	return nil
}

// whatNext names the keys that go on from the end of a story, short
// enough for the status line at 80 columns.
func (a *session) whatNext() string {
	var out []string
	if v := a.course.NextStory(a.pl.Session); v != nil {
		var keys []string
		for _, k := range a.pl.Scene.Knobs {
			keys = append(keys, k.Key)
		}
		out = append(out, strings.Join(keys, "/")+" another setting")
	}
	if e, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); ok && e.LessonOver {
		out = append(out, "the lesson is over · esc the contents")
	} else if ok && e.Next == "" && a.course.NextScene() < 0 {
		out = append(out, "the course is over · esc the contents")
	} else if n, step := play.Navigate(a.nav(), play.NavDo(play.NavNext)); step == play.OpenScene {
		out = append(out, "> next: "+a.course.Scenes[n.Scene].ID)
	}
	if a.pl.Stepped() {
		out = append(out, "home replays")
	}
	return strings.Join(out, " · ")
}

// nextClick says, in the presenter's footer at the end of a story (the
// timeline says it is the end), what the next click opens.
func (a *session) nextClick() string {
	if v := a.course.NextStory(a.pl.Session); v != nil {
		return "next click: " + a.pl.Scene.Describe(v)
	}
	if i := a.course.NextScene(); i >= 0 {
		return "next click: the next scene, " + a.course.Scenes[i].ID
	}
	return "end of the lesson"
}

// presenterFooter is presenter mode's help line: the class clock, what
// the next click does, the keys a presenter needs.
func (a *session) presenterFooter() string {
	k := a.com.Keys
	line := views.HelpLine(k.PresenterHelp())
	if a.storyOver() {
		line = a.nextClick() + " · " + views.HelpLine(k.PresenterEndHelp())
	}
	return "class " + a.classTime() + " · " + line
}

// classTime is the time since the course opened, as h:mm.
func (a *session) classTime() string {
	d := a.clock().Sub(a.started)
	return fmt.Sprintf("%d:%02d", int(d.Hours()), int(d.Minutes())%60)
}

// notesFollow writes the speaker notes for the step on screen to the -notes
// file when the scene, its settings or its step changed since the last
// write: a command, so no file is touched inside Update.
func (a *App) notesFollow() tea.Cmd {
	if a.notesPath == "" || a.onContents() || a.pl.Busy {
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
func (a *session) notesPage() string {
	p := a.pl
	head := p.Scene.ID + " · " + p.Text.Get("title")
	if s := p.Scene.Describe(p.Params); s != "" {
		head += " · " + s
	}
	// the story's length as the core lets the notes file tell it: while
	// the question is open, "?" (play.Disclosure.Drawn), as the bar's
	// "N/?": the count of moves tells the stories of a question apart
	of := "?"
	if n, more := p.Disclose(play.NotesFile).Drawn(len(p.Snap.Moves)); !more {
		of = strconv.Itoa(n)
	}
	var where string
	switch {
	case !p.Stepped():
		where = "no steps"
	case p.Snap.Pos >= len(p.Snap.Moves):
		where = fmt.Sprintf("step %d of %s · %s", p.Snap.Pos, of, a.nextClick())
	default:
		where = fmt.Sprintf("step %d of %s · next: %s", p.Snap.Pos, of, p.Snap.Moves[p.Snap.Pos])
	}
	if p.Asking {
		where += " · the question is on screen"
	}
	// the notes file and the instructor's class view are a second screen:
	// an open question's answer is there, under the answer key's heading
	return head + "\n" + where + "\n\n" + p.Notes(play.NotesFile) + "\n"
}
