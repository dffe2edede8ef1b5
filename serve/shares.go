package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
)

// The fair shares' defaults (-max-commands-per-key, -max-commands,
// -command-time, -max-sessions-per-key) and the slots of -max-sessions
// kept for instructor keys.
const (
	DefaultCommandsPerKey = 4
	DefaultCommands       = 16
	DefaultCommandTime    = 10 * time.Second
	DefaultSessionsPerKey = 3
	InstructorSlots       = 2
)

// idKey is where the fair shares leave the session's Identity in its
// context, for the handler after them.
type idKey struct{}

// identityOf is the Identity the fair shares gave sess.
func identityOf(sess ssh.Session) Identity {
	id, _ := sess.Context().Value(idKey{}).(Identity)
	return id
}

// recovering is the outermost middleware: a panic anywhere in a session
// ends that session only, with one line.
func (s *Server) recovering(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Log.Printf("session %s: panic: %v\n%s", identityOf(sess).ID, r, debug.Stack())
				fmt.Fprintln(sess.Stderr(), "locksim: this session hit a fault in locksim and was closed; the other sessions go on")
				_ = sess.Exit(1)
			}
		}()
		next(sess)
	}
}

// terminal reports that sess runs the course on a terminal (a pty with no
// command, or ssh -t HOST story CODE) rather than a command.
func terminal(sess ssh.Session) bool {
	_, _, ok := sess.Pty()
	args := sess.Command()
	return ok && (len(args) == 0 || len(args) == 2 && args[0] == "story")
}

// fairShares is the SSH side's call of the one admission (admit): it
// runs after authentication, so the key it counts is the key the client
// proved, not one it only offered. A terminal session is admitted as a
// tab is; a command without a terminal takes one of the commands' own
// budget, its key's (its address's, without a key) and is stopped after
// CommandTime. A refusal is one line naming the limit and when to try
// again; no session is ever closed to make room.
func (s *Server) fairShares(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		id := identify(sess)
		var err error
		if id.Instructor, err = s.instr.Has(id.Key); err != nil {
			s.cfg.Log.Printf("session %s: -instructors: %v; no instructor until it can be read", id.ID, err)
		}
		sess.Context().SetValue(idKey{}, id)
		// a keyless session that offered no reconnect token is given a
		// fresh one: a new identity of its address
		fresh := id.Keyless() && id.User == sess.User()
		c := claim{id: id, remote: hostOf(sess.RemoteAddr()), holder: id.KeyHash, whose: "key", fresh: fresh}
		if !terminal(sess) {
			c.command = true
			if id.Keyless() {
				c.holder, c.whose = "addr:"+c.remote, "address"
			}
		}
		line, release := s.admit(c)
		if line != "" {
			(&sshTransport{sess: sess, id: id}).Close(Exit{Status: 1, Line: line, Refused: true})
			return
		}
		if !c.command {
			defer release()
			next(sess)
			return
		}
		s.runStopped(sess, id, next, release)
	}
}

// runStopped runs the command next in its own goroutine and stops it
// after CommandTime: its context is cancelled, the client gets one line
// and its exit status, and nothing the command writes after reaches the
// client. The command's slot is given back only when it has returned,
// so one that does not heed its context still counts against its key.
func (s *Server) runStopped(sess ssh.Session, id Identity, next ssh.Handler, release func()) {
	ctx, cancel := context.WithCancel(sess.Context())
	g := &gated{Session: sess, ctx: ctx}
	done := make(chan struct{})
	// the clock is set before the command starts, so a test that sees it
	// running may advance past its time
	timeUp := make(chan struct{})
	stop := s.clock.AfterFunc(s.cfg.CommandTime, func() { close(timeUp) })
	defer stop()
	go func() {
		defer release()
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Log.Printf("session %s: panic: %v\n%s", id.ID, r, debug.Stack())
				g.fault()
			}
		}()
		next(g)
	}()
	select {
	case <-done:
	case <-timeUp:
		g.stop(fmt.Sprintf("locksim: %s was stopped after %s, the most a command without a terminal may run", strings.Join(sess.Command(), " "), span(s.cfg.CommandTime)))
		s.cfg.Log.Printf("session %s: command stopped after %s", id.ID, span(s.cfg.CommandTime))
		cancel()
	}
	cancel()
}

// gated is a command's session whose output ends once the command is
// stopped: later writes are dropped and its exit status is the stop's.
type gated struct {
	ssh.Session
	ctx context.Context

	mu      sync.Mutex
	stopped bool
}

func (g *gated) Context() ssh.Context { return ctxWith{g.Session.Context(), g.ctx} }

func (g *gated) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return 0, io.ErrClosedPipe
	}
	return g.Session.Write(p)
}

func (g *gated) Stderr() io.ReadWriter { return gatedErr{g} }

func (g *gated) Exit(code int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return nil
	}
	return g.Session.Exit(code)
}

// stop says line on stderr, exits with status 1 and drops all after.
func (g *gated) stop(line string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	g.stopped = true
	fmt.Fprintln(g.Session.Stderr(), line)
	_ = g.Session.Exit(1)
}

// fault ends a command that panicked.
func (g *gated) fault() {
	g.stop("locksim: this session hit a fault in locksim and was closed; the other sessions go on")
}

type gatedErr struct{ g *gated }

func (e gatedErr) Read(p []byte) (int, error) { return e.g.Session.Stderr().Read(p) }

func (e gatedErr) Write(p []byte) (int, error) {
	e.g.mu.Lock()
	defer e.g.mu.Unlock()
	if e.g.stopped {
		return 0, io.ErrClosedPipe
	}
	return e.g.Session.Stderr().Write(p)
}

// ctxWith is the session's ssh.Context with its Done and Err from a
// context that also ends when the command is stopped.
type ctxWith struct {
	ssh.Context
	stop context.Context
}

func (c ctxWith) Done() <-chan struct{} { return c.stop.Done() }
func (c ctxWith) Err() error            { return c.stop.Err() }

// hostOf is the host part of a client's address.
func hostOf(a net.Addr) string {
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}
