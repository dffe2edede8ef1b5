package serve

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/ssh"
)

// Window is a terminal's size in cells. It is the SSH library's own type,
// so an SSH session's window changes pass through as they come; a browser
// tab's resizes are made into it.
type Window = ssh.Window

// Transport is one client's terminal as a byte pipe: an SSH channel with
// a pty, or a browser tab's WebSocket. It reads the client's keys, draws
// what is written, tells the terminal's size and its changes, who the
// client is and where from, and closes; nothing more. What the session
// does with it (the renderer, the frames, the limits, the lines said on
// refusal) is decided once, above it, for both (Server.runTerminal).
type Transport interface {
	// Read reads the client's keys, and its terminal's answers to
	// queries, as the terminal sends them.
	io.Reader
	// Write draws on the client's terminal.
	io.Writer
	// Window is the terminal's size when the session opens.
	Window() Window
	// Resizes are the terminal's sizes as they change (the first may be
	// the opening size again). The session reads them until Context is
	// done, so a transport never waits on a full channel.
	Resizes() <-chan Window
	// Client is who the client is and where it connects from.
	Client() Client
	// Context is done once the client has gone.
	Context() context.Context
	// Close ends the connection with e: its line said to the client (when
	// not ""), its status given.
	Close(e Exit)
}

// Client is who a transport's client is, as the transport knows it.
type Client struct {
	// Identity is who the client is (a key, a reconnect token, a
	// browser's cookie).
	Identity Identity
	// Remote is the client's address, for the log and the shares kept
	// per address.
	Remote string
	// Term is the terminal type the client announced (an SSH pty's TERM),
	// or BrowserTerm for a tab; Env the environment it sent (NO_COLOR,
	// COLORTERM), nil for a tab.
	Term string
	Env  []string
}

// BrowserTerm is a tab's terminal type: the page's xterm.js, which draws
// in true colour on a dark background.
const BrowserTerm = "xterm.js"

// Exit is how a connection ends.
type Exit struct {
	// Status is the exit status an SSH client gets: 0 when the student
	// quit, 1 when a limit, a fault or the server ended the session, 2 for
	// a request that cannot be served (a bad story code).
	Status int
	// Line is said to the client once the screen is gone; "" for none.
	Line string
	// Refused marks a connection that never became a session (refused by
	// the admission, or a bad request): a tab's close frame then says it
	// broke a policy rather than ended.
	Refused bool
}

// faultLine is what a session a panic ended says.
const faultLine = "locksim: this session hit a fault in locksim and was closed; the other sessions go on"

// front is what a transport's side of the server says to its sessions:
// how they are served, for the opening notice ("SSH", "the web"), and
// what y says to fetch a story code's script from there (nil writes the
// file, as the local course does).
type front struct {
	via   string
	fetch func(code string) string
}

// sshTransport is an SSH session with a pty as a Transport.
type sshTransport struct {
	sess  ssh.Session
	id    Identity
	pty   ssh.Pty
	winch <-chan ssh.Window
}

func (t *sshTransport) Read(p []byte) (int, error)  { return t.sess.Read(p) }
func (t *sshTransport) Write(p []byte) (int, error) { return t.sess.Write(p) }
func (t *sshTransport) Context() context.Context    { return t.sess.Context() }
func (t *sshTransport) Window() Window              { return t.pty.Window }
func (t *sshTransport) Resizes() <-chan Window      { return t.winch }

func (t *sshTransport) Client() Client {
	return Client{Identity: t.id, Remote: t.sess.RemoteAddr().String(), Term: t.pty.Term, Env: t.sess.Environ()}
}

// Close says the line on the session's stderr and exits with the status.
func (t *sshTransport) Close(e Exit) {
	if e.Line != "" {
		fmt.Fprintln(t.sess.Stderr(), e.Line)
	}
	_ = t.sess.Exit(e.Status)
}

// sshFront is how SSH sessions are served: y shows the fetch line with
// the port the student connected to, and the story's page under
// -public-url when there is one.
func (s *Server) sshFront(sess ssh.Session) front {
	line := s.fetchLine(sess)
	link := s.storyLink()
	if link == nil {
		return front{via: "SSH", fetch: line}
	}
	return front{via: "SSH", fetch: func(code string) string { return link(code) + " · " + line(code) }}
}

// webFront is how tabs are served: y shows the -story flag and the story's
// page under base, the page's own origin.
func (s *Server) webFront(base string) front {
	link := s.linkUnder(base)
	return front{via: "the web", fetch: func(code string) string { return "-story " + code + " · " + link(code) }}
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
