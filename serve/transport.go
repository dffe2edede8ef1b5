package serve

import (
	"context"
	"fmt"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish/bubbletea"
)

// Window is a terminal's size in cells. It is the SSH library's own type,
// so an SSH session's window changes pass through as they come; a browser
// tab's resizes are made into it.
type Window = ssh.Window

// Terminal is what one session's course runs over: an SSH channel with a
// pty, or a browser tab's WebSocket. The course (Server.course) knows no
// more of its client than this.
type Terminal interface {
	// Context is done once the client has gone.
	Context() context.Context
	// Identity is who the client is, as its transport knows it (a key, a
	// reconnect token, a browser's cookie).
	Identity() Identity
	// Remote is the client's address, for the log.
	Remote() string
	// Kind names the client's terminal for the log: its TERM, or "web".
	Kind() string
	// ProgramOptions are the program's input and output (tea.WithInput,
	// tea.WithOutput).
	ProgramOptions() []tea.ProgramOption
	// Output is where the session's frames are drawn (see frames).
	Output() io.Writer
	// RawInput puts the input in raw mode, as Bubble Tea does only when
	// it renders itself, and returns what puts it back.
	RawInput() (restore func(), err error)
	// Renderer is the session's own lipgloss renderer, its colour profile
	// and background those of the client's terminal.
	Renderer() *lipgloss.Renderer
	// Window is the terminal's size when the session opens.
	Window() Window
	// Resizes are the terminal's sizes as they change (the first may be
	// the opening size again). The course reads them until Context is
	// done, so a transport never waits on a full channel.
	Resizes() <-chan Window
	// Say writes one line to the client once the screen is gone: why the
	// session closed, or a fault.
	Say(line string)
	// Fetch is what y says to fetch a story code's script from here, nil
	// to write the file as the local course does.
	Fetch() func(code string) string
	// Via is how the session is served, for the opening notice ("SSH").
	Via() string
}

// sshTerminal is an SSH session with a pty as a Terminal.
type sshTerminal struct {
	sess  ssh.Session
	id    Identity
	pty   ssh.Pty
	winch <-chan ssh.Window
	// link, when set, is the web page of a story code (-public-url)
	link func(code string) string
	// fetch is the fetch line y shows (Server.fetchLine)
	fetch func(code string) string
}

func (t *sshTerminal) Context() context.Context { return t.sess.Context() }
func (t *sshTerminal) Identity() Identity       { return t.id }
func (t *sshTerminal) Remote() string           { return t.sess.RemoteAddr().String() }
func (t *sshTerminal) Kind() string             { return t.pty.Term }
func (t *sshTerminal) Window() Window           { return t.pty.Window }
func (t *sshTerminal) Resizes() <-chan Window   { return t.winch }
func (t *sshTerminal) Via() string              { return "SSH" }

func (t *sshTerminal) ProgramOptions() []tea.ProgramOption { return bubbletea.MakeOptions(t.sess) }

func (t *sshTerminal) Output() io.Writer                     { return t.sess }
func (t *sshTerminal) RawInput() (restore func(), err error) { return rawInput(t.pty) }

// Renderer asks the client's terminal for its background first.
func (t *sshTerminal) Renderer() *lipgloss.Renderer { return bubbletea.MakeRenderer(t.sess) }

func (t *sshTerminal) Say(line string) { fmt.Fprintln(t.sess.Stderr(), line) }

func (t *sshTerminal) Fetch() func(code string) string {
	if t.link == nil {
		return t.fetch
	}
	return func(code string) string { return t.link(code) + " · " + t.fetch(code) }
}

// storyLink is the web page of a story code under -public-url, nil
// without one.
func (s *Server) storyLink() func(code string) string {
	if s.cfg.PublicURL == "" {
		return nil
	}
	return s.linkUnder(s.cfg.PublicURL)
}

// linkUnder is the web page of a story code under base; a code longer
// than a line can carry goes by its pointer, which /s/ resolves.
func (s *Server) linkUnder(base string) func(code string) string {
	base = strings.TrimSuffix(base, "/")
	return func(code string) string {
		if len(code) > maxCodeInLine {
			code = s.stories.Put(code)
		}
		return base + "/s/" + code
	}
}
