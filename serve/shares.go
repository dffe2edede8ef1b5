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

// pool is one budget of slots: total in all, perKey for any one holder
// (0: no cap per holder), reserved of total for instructors alone.
type pool struct {
	total, perKey, reserved int

	n  int
	by map[string]int
}

// take counts holder in, or says why not. holder "" is a client with no
// key the pool can name: it is counted in the total only.
func (p *pool) take(holder string, instructor bool) (ok, perKey bool) {
	if p.perKey > 0 && holder != "" && p.by[holder] >= p.perKey {
		return false, true
	}
	open := p.total
	if !instructor {
		open -= p.reserved
	}
	if p.n >= open {
		return false, false
	}
	p.n++
	if holder != "" {
		p.by[holder]++
	}
	return true, false
}

func (p *pool) give(holder string) {
	p.n--
	if holder == "" {
		return
	}
	if p.by[holder]--; p.by[holder] <= 0 {
		delete(p.by, holder)
	}
}

// reservedFor is how many of total slots are kept for instructors: two,
// but never all of them, so a server of one or two sessions still takes
// a student.
func reservedFor(total int) int {
	return max(0, min(InstructorSlots, total-1))
}

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

// fairShares is the middleware that keeps one client from taking the
// server: it runs after authentication, so the key it counts is the key
// the client proved, not one it only offered. A terminal session takes a
// slot of -max-sessions (two kept for instructor keys) and one of its
// key's; a command without a terminal takes one of the commands' own
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
		if terminal(sess) {
			line, release := s.admitSession(id)
			if line != "" {
				s.refuse(sess, id, line)
				return
			}
			defer release()
			next(sess)
			return
		}
		holder := id.KeyHash
		if holder == "" {
			holder = "addr:" + hostOf(sess.RemoteAddr())
		}
		line, release := s.admitCommand(holder, id)
		if line != "" {
			s.refuse(sess, id, line)
			return
		}
		s.runStopped(sess, id, next, release)
	}
}

// refuse says line and ends the session.
func (s *Server) refuse(sess ssh.Session, id Identity, line string) {
	s.cfg.Log.Printf("session %s refused: %s", id.ID, line)
	fmt.Fprintln(sess.Stderr(), line)
	_ = sess.Exit(1)
}

// admitSession counts a terminal session in, or returns the line that
// refuses it.
func (s *Server) admitSession(id Identity) (string, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		// after Close no session is counted in: Close is waiting for them
		return "locksim: the server is shutting down", nil
	}
	ok, perKey := s.terms.take(id.KeyHash, id.Instructor)
	switch {
	case perKey:
		return fmt.Sprintf("locksim: a key may have %d sessions open at once and yours has %d: close one, then try again", s.terms.perKey, s.terms.perKey), nil
	case !ok && s.terms.reserved > 0 && !id.Instructor:
		return fmt.Sprintf("locksim: the server is full (%d sessions at once, %d of them kept for instructors); try again in a few minutes, as sessions close", s.terms.total, s.terms.reserved), nil
	case !ok:
		return fmt.Sprintf("locksim: the server is full (%d sessions at once); try again in a few minutes, as sessions close", s.terms.total), nil
	}
	s.sessions++
	s.wg.Add(1)
	return "", func() {
		s.mu.Lock()
		s.terms.give(id.KeyHash)
		s.sessions--
		s.mu.Unlock()
		s.wg.Done()
	}
}

// admitCommand counts a command in for holder (a key hash, or a keyless
// client's address), or returns the line that refuses it.
func (s *Server) admitCommand(holder string, id Identity) (string, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return "locksim: the server is shutting down", nil
	}
	ok, perKey := s.cmds.take(holder, id.Instructor)
	whose := "key"
	if id.Keyless() {
		whose = "address"
	}
	switch {
	case perKey:
		return fmt.Sprintf("locksim: one %s may run %d commands at once and yours runs %d; try again in %s, when one has ended or been stopped", whose, s.cmds.perKey, s.cmds.perKey, span(s.cfg.CommandTime)), nil
	case !ok:
		return fmt.Sprintf("locksim: the server runs its most commands at once (%d); try again in %s, when one has ended or been stopped", s.cmds.total, span(s.cfg.CommandTime)), nil
	}
	s.sessions++
	s.wg.Add(1)
	return "", func() {
		s.mu.Lock()
		s.cmds.give(holder)
		s.sessions--
		s.mu.Unlock()
		s.wg.Done()
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
