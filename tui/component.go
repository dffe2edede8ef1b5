package tui

import (
	"context"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// Component is one page of the screen: the contents, a scene (a story, a
// race or a quiz, and a story of the lab), the trials, the lab, the class
// view, and the pages over a scene (the keys, the story, the history). It
// is the contract of soft-serve's common.Component: a Bubble Tea model
// that takes its size from the app and names its keys, from which its
// help line and the ? page are built.
//
// The app keeps the pages as a stack (see stack): keys and the mouse go to
// the page on top, the other messages to every page (each takes its own
// and ignores the rest). A page never reaches into the app to change what
// is on screen: it asks, through what its Update returns, and the app
// does it before the next message.
//   - It returns itself to stay on top.
//   - It returns another page to stand in its place (the keys page
//     giving way to the story page, say).
//   - It returns nil to close: the page under it is on screen again.
//   - It returns a command whose message asks the app for what only the
//     session can open (the contents' picked, the trials' showTrial, the
//     lab's labStory), or quit.
//
// The scene's pages (the scene, the pages over it, the class view) act on
// the session the app keeps (the player, the course, the class): what
// they open or close is asked in the session's asks (see pageAsk), which
// the app carries out once the message is handled, before the next one.
type Component interface {
	// Init is the page's first command, run when it is opened.
	Init() tea.Cmd
	// Update takes a message and returns the page that is to stand where
	// this one stood (itself, another, or nil to close it), and a command.
	Update(msg tea.Msg) (Component, tea.Cmd)
	// View draws the whole screen at the size SetSize set, the help line
	// included. It only reads.
	View() string
	// SetSize sets the size View draws at: w columns, h rows.
	SetSize(w, h int)
	// KeyMap is the page's keys: its help line (ShortHelp) and the ? page
	// (FullHelp) are drawn from it.
	KeyMap() help.KeyMap
}

// closer is a page that holds something to let go of when it leaves the
// stack or the app shuts down (a run of trials, the lab's search).
type closer interface {
	close()
}

// waiter is a closed page whose work may still be in flight at shutdown:
// wait waits for it until ctx ends.
type waiter interface {
	wait(ctx context.Context)
}

// typer is a page that takes typed text whole while typing reports true (a
// filter being typed): a burst of letters is not split into presses, and
// the class's keys are not taken out of it.
type typer interface {
	typing() bool
}

// quitMsg asks the app to end the program (q on a page of its own).
type quitMsg struct{}

// quit is the command a page returns to end the program.
func quit() tea.Msg { return quitMsg{} }

// isTyping reports a page typing text (see typer).
func isTyping(c Component) bool {
	t, ok := c.(typer)
	return ok && t.typing()
}

// pageAsk is what the scene's keys and the session's work ask of the
// stack: a page to open over the one on top, or every page over the
// scene closed (another scene or place is on screen, esc closed a page).
type pageAsk struct {
	open  []Component
	close bool
	// note is a one-time note for the page on top: the contents' status
	// line, or the scene's flash
	note string
	// scene is set when another session is on screen: the scene's page
	// becomes the one of its kind (a quiz's, or a story's or a race's)
	scene bool
	// keepDesk keeps the instructor's class view (or a page of it) on
	// top when close closes the pages over the scene: another session of
	// theirs moved the class, and the scene under the view goes with it
	keepDesk bool
	// contents brings the screen to the contents, unless they are open:
	// the pages over the scene close and the contents open, under the
	// class view if it is on top (see session.toContents)
	contents bool
}

// stack is the app's pages, the bottom first: the page on screen is the
// last. It is never empty once the app is built: a scene lies at the
// bottom, under the contents even when they are all the learner has seen.
type stack []Component

// top is the page on screen.
func (s stack) top() Component { return s[len(s)-1] }

// push puts c on top.
func (s *stack) push(c Component) { *s = append(*s, c) }

// closeAt takes page i and every page over it off the stack, top first,
// letting go of what they hold. The scene at the bottom stays.
func (s *stack) closeAt(i int) {
	i = max(i, 1)
	for j := len(*s) - 1; j >= i; j-- {
		if c, ok := (*s)[j].(closer); ok {
			c.close()
		}
	}
	*s = (*s)[:min(i, len(*s))]
}

// shut lets go of what every page holds and waits for its work until ctx
// ends: the app is shutting down. The pages stay, to draw what they were.
func (s stack) shut(ctx context.Context) {
	for i := len(s) - 1; i >= 0; i-- {
		if c, ok := s[i].(closer); ok {
			c.close()
		}
	}
	for _, c := range s {
		if w, ok := c.(waiter); ok {
			w.wait(ctx)
		}
	}
}

// find is the index of the topmost page that ok says yes to, -1 for none.
func (s stack) find(ok func(Component) bool) int {
	for i := len(s) - 1; i >= 0; i-- {
		if ok(s[i]) {
			return i
		}
	}
	return -1
}
