package serve

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"locksim/play"
	"locksim/sim"
	"locksim/storycode"
	"locksim/tui"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
)

// handle is every SSH session the fair shares let in: a command without
// a terminal, or the course on one.
func (s *Server) handle(sess ssh.Session) {
	id := identityOf(sess)
	pty, winch, ok := sess.Pty()
	t := &sshTransport{sess: sess, id: id, pty: pty, winch: winch}
	var at *play.Position
	if args := sess.Command(); ok && len(args) == 2 && args[0] == "story" {
		// ssh -t HOST story CODE: the course on the terminal, at the code's
		// place rather than the student's saved one
		pos, err := storycode.Decode(s.resolveCode(args[1]))
		if err != nil {
			t.Close(Exit{Status: 2, Line: fmt.Sprintf("locksim: %v", err), Refused: true})
			return
		}
		at = &pos
	} else if len(sess.Command()) > 0 {
		_ = sess.Exit(s.command(sess, id))
		return
	}
	if !ok {
		t.Close(Exit{Status: 2, Line: fmt.Sprintf("locksim: no terminal: ask for one with ssh -t, or run a command (%s)", strings.Join(s.commandNames(), ", ")), Refused: true})
		return
	}
	if p, closeConn, ok := sshProbe(sess); ok {
		defer keepPresence(s.cfg.ProbeEvery, p, func() {
			s.cfg.Log.Printf("session %s: the client answered no keepalive for %d probes: closed", id.ID, ProbesMissed)
			closeConn()
		})()
	}
	s.runTerminal(t, s.sshFront(sess), at)
}

// runTerminal runs the course over t, admitted already, and closes t with
// how it ended: a panic anywhere in it ends this session only, with its
// line.
func (s *Server) runTerminal(t Transport, f front, at *play.Position) {
	// the log names the session by its key's id and its own: one key may
	// hold several sessions at once (a projector beside a laptop)
	conn := newConnID()
	e := func() (e Exit) {
		defer func() {
			if p := recover(); p != nil {
				s.cfg.Log.Printf("session %s: panic: %v\n%s", t.Client().Identity.ID+"/"+conn, p, debug.Stack())
				e = Exit{Status: 1, Line: faultLine}
			}
		}()
		return s.course(t, f, at, conn)
	}()
	t.Close(e)
}

// course runs the course on t until the student quits, the limits close
// it or the server shuts down, and returns how it ended. at, when not
// nil, is where it opens (ssh -t HOST story CODE) in place of the
// student's saved place. conn is the session's own id (newConnID).
func (s *Server) course(t Transport, f front, at *play.Position, conn string) Exit {
	start := time.Now()
	client := t.Client()
	id, winch, win := client.Identity, t.Resizes(), capWindow(t.Window())
	who := id.ID + "/" + conn // the log's name of this session
	// the renderer asks the client's terminal for its background first
	st := views.NewStyles(rendererFor(t), s.cfg.HighContrast)
	b, err := s.openBackend(t.Context())
	if err != nil {
		s.cfg.Log.Printf("session %s: %v", who, err)
		return Exit{Status: 1, Line: fmt.Sprintf("locksim: %v", err)}
	}
	defer s.closeBackend(b, who)
	stu := s.students.get(id)
	seed := s.cfg.Seed
	if seed == 0 {
		seed = newSeed()
	}
	// a story code is a visit: the student's saved place stays theirs
	visit := at != nil
	if at == nil {
		at = stu.place()
	}
	o := tui.Options{Seed: seed, NoQuiz: s.cfg.NoQuiz, Styles: &st, Store: stu.store, Position: at, Visit: visit,
		Notice: "served over " + f.via + ": each session has its own " + backendWord(b),
		Fetch:  f.fetch, Search: s.labSearch(), SearchLimits: s.cfg.LabLimits}
	app, err := tui.NewCourse(b, o)
	if err != nil {
		// a saved place (or a code) that no longer opens: start from the
		// contents
		o.Position, o.Visit = nil, false
		if app, err = tui.NewCourse(b, o); err != nil {
			return Exit{Status: 1, Line: fmt.Sprintf("locksim: %v", err)}
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ses := &Session{Identity: id, Conn: conn, ctx: ctx, projector: s.projectorLink, tabLink: s.tabLink}
	var inner tea.Model = app
	if s.cfg.Class != nil {
		inner = s.cfg.Class.Model(ses, app)
	}
	m := &screen{srv: s, ses: ses, stu: stu, inner: inner, st: st, w: win.Width, h: win.Height}
	name, asked := stu.Name()
	if namer, ok := s.cfg.Class.(Namer); ok && !asked && s.cfg.AskName {
		// the class knows this student from another server of it
		if known, ok := namer.KnownName(t.Context(), id); ok {
			name, asked = known, true
			if err := stu.SetName(known); err != nil {
				s.cfg.Log.Printf("session %s: keeping the name: %v", who, err)
			}
		}
	}
	if asked || !s.cfg.AskName {
		m.ses.Name = name
	} else {
		m.naming = newNamePrompt(st, id)
	}
	// the frames are drawn as they change (frames), not on Bubble Tea's
	// ticker, which would wake 60 times a second while nothing changes
	fr := newFrames(t, win.Width, win.Height, FPS, realClock{})
	defer fr.stop()
	ses.fr = fr
	defer s.leaveWatches(ses) // a backstop: a panic skips the call below
	opts := append([]tea.ProgramOption{tea.WithInput(t), tea.WithOutput(t)}, tea.WithoutRenderer(),
		// the signals are the server's: ctrl+z or a SIGTSTP must never
		// stop the process every student is in
		tea.WithoutSignalHandler(), tea.WithContext(ctx))
	d := fr.model(m)
	p := tea.NewProgram(d, opts...)
	d.send = p.Send
	ses.send = p.Send
	m.lim = &limits{clock: s.clock, idle: s.cfg.Idle, maxTime: s.cfg.MaxTime,
		warn: func(left time.Duration) { p.Send(idleWarning{left}) },
		end:  func(line string) { p.Send(End{line}) }}
	ses.touch = func() {
		// a message only when there is a warning to clear: every message
		// costs a View, and a class's step touches each of its followers
		if m.lim.key() {
			p.Send(idleWarning{})
		}
	}

	// wish v1.4.7 forwards resizes in a goroutine with no recover: ours
	// has one, and drains the window changes until the connection ends,
	// so the SSH library never waits on a full channel
	go func() {
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Log.Printf("session %s: panic in the resize forwarding: %v\n%s", who, r, debug.Stack())
				m.fault.Store(true)
				cancel()
				drain(t.Context(), winch)
			}
		}()
		// once the program has ended, its done channel is set aside (a
		// nil channel is never ready), so the loop waits rather than spins
		// while the session closes
		ended := ctx.Done()
		for {
			select {
			case <-t.Context().Done():
				return
			case w, ok := <-winch:
				if !ok {
					return
				}
				if s.fault("resize", ses) {
					panic("a fault injected by a test")
				}
				if ended != nil {
					w = capWindow(w)
					p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				}
			case <-ended:
				ended = nil
			}
		}
	}()
	// the server's shutdown ends the session with a line
	stopShutdown := context.AfterFunc(s.ctx, func() { p.Send(End{"locksim: the server is shutting down"}) })
	defer stopShutdown()

	s.track(ses, true)
	defer s.track(ses, false)
	s.cfg.Log.Printf("session %s open (user %q, instructor %v, %s)", who, id.User, id.Instructor, client.Term)
	m.lim.start()
	_, err = p.Run()
	fr.stop()
	s.leaveWatches(ses)
	m.lim.close()
	cancel()
	app.SaveProgress()
	sctx, scancel := context.WithTimeout(context.Background(), time.Second/3)
	app.Shutdown(sctx)
	scancel()
	if m.joined && s.cfg.Class != nil {
		func() {
			defer s.recovered(who, "class leave")
			s.cfg.Class.Leave(ses)
		}()
	}
	var e Exit
	switch {
	case errors.Is(err, tea.ErrProgramPanic) || m.fault.Load():
		s.cfg.Log.Printf("session %s: ended by a panic", who)
		e = Exit{Status: 1, Line: faultLine}
	case m.endedBy:
		e = Exit{Status: 1, Line: m.ended}
	case err != nil && !errors.Is(err, tea.ErrProgramKilled):
		s.cfg.Log.Printf("session %s: %v", who, err)
		e.Status = 1
	}
	s.cfg.Log.Printf("session %s closed after %s", who, time.Since(start).Round(time.Second))
	return e
}

// MaxCols and MaxRows are the largest terminal a session draws for, over
// either transport: a client that says it is larger is drawn for this
// size. A frame's cells are bounded by them, and so its bytes and the
// time to lay it out (a 10000x10000 window took seconds of a core per
// step and tens of megabytes a frame).
const (
	MaxCols = 400
	MaxRows = 200
)

// capWindow is w within MaxCols x MaxRows, and at least 1x1.
func capWindow(w Window) Window {
	w.Width = min(max(w.Width, 1), MaxCols)
	w.Height = min(max(w.Height, 1), MaxRows)
	return w
}

// drain reads window changes until the connection ends: the SSH library
// sends each on a channel of one and waits while it is full.
func drain(ctx context.Context, winch <-chan Window) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-winch:
			if !ok {
				return
			}
		}
	}
}

// fault reports whether a test asked for a panic at where in ses.
func (s *Server) fault(where string, ses *Session) bool {
	return s.faults != nil && s.faults(where, ses)
}

// recovered ends a goroutine's panic with a log line.
func (s *Server) recovered(who, what string) {
	if r := recover(); r != nil {
		s.cfg.Log.Printf("session %s: panic in %s: %v\n%s", who, what, r, debug.Stack())
	}
}

// track keeps the sessions running, for the shutdown and the tests.
func (s *Server) track(ses *Session, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		s.live[ses] = true
	} else {
		delete(s.live, ses)
	}
}

// fetchLine is what y says over SSH instead of writing a file the student
// could not reach: the command that fetches the story code's redis-cli
// script, with the port the student connected to.
func (s *Server) fetchLine(sess ssh.Session) func(code string) string {
	port := "2222"
	if _, p, err := net.SplitHostPort(sess.LocalAddr().String()); err == nil {
		port = p
	}
	return fetchFor(port, s.stories)
}

// fetchFor is the fetch line on port: a code longer than a line can
// carry (a story of the lab carries its lock) goes by its pointer, kept
// on shelf for the command that names it.
func fetchFor(port string, shelf *storycode.Shelf) func(code string) string {
	return func(code string) string {
		if len(code) > maxCodeInLine {
			code = shelf.Put(code)
		}
		return "ssh -p " + port + " HOST cli " + code + " > story.redis"
	}
}

// maxCodeInLine is the longest story code a fetch line carries whole:
// longer, it goes by its pointer.
const maxCodeInLine = 100

// resolveCode is arg, or the code the server keeps under arg when arg is
// a pointer it gave out; a pointer it does not know stays as it is, and
// the command then says it is not a story code.
func (s *Server) resolveCode(arg string) string {
	if storycode.IsPointer(arg) {
		if code, ok := s.stories.Get(arg); ok {
			return code
		}
	}
	return arg
}

func backendWord(b *sim.Backend) string {
	if b.Live() {
		return "keys on " + b.Name + " under " + b.Prefix
	}
	return "embedded server and story clock"
}

// newConnID names one connection: 16 random hex digits.
func newConnID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newSeed is a session's token seed: short enough to read off the screen.
func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return 1 + binary.LittleEndian.Uint64(b[:])%99999
}

// idleWarning says the session closes in left without a key.
type idleWarning struct{ left time.Duration }

// End ends a session's program: Line (one line, "" for none) is said to
// the student once the screen is gone, and the exit status is 1. The
// limits and the shutdown send it; a class may too (Session.Send).
type End struct{ Line string }

// screen is the session's model around the course (or the class's model
// around it): the name prompt first, the idle warning over the last line,
// keys counted as activity, ctrl+z dropped.
type screen struct {
	srv    *Server
	ses    *Session
	stu    *student
	inner  tea.Model
	st     views.Styles
	lim    *limits
	naming *namePrompt
	warn   string
	ended  string
	// endedBy is set when an End closed the session
	endedBy bool
	joined  bool
	w, h    int
	// fault is set when a goroutine of the session's panicked
	fault atomic.Bool
	// ws is what the screen keeps of watches (watchscreen.go)
	ws watchScreen
}

func (m *screen) Init() tea.Cmd {
	if m.naming != nil {
		return m.naming.Init()
	}
	return tea.Batch(m.inner.Init(), m.join())
}

// join tells the class the student is here, in a command: Join may Send.
func (m *screen) join() tea.Cmd {
	if m.srv.cfg.Class == nil {
		return nil
	}
	m.joined = true
	ses := m.ses
	return func() tea.Msg {
		m.srv.cfg.Class.Join(ses)
		return nil
	}
}

func (m *screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.naming == nil {
		if taken, cmd := m.watchUpdate(msg); taken {
			return m, cmd
		}
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if msg.Type == tea.KeyCtrlZ {
			return m, nil
		}
		m.lim.key()
		m.warn = ""
		if m.srv.fault("key", m.ses) {
			panic("a fault injected by a test")
		}
		if m.naming != nil && msg.Type == tea.KeyCtrlC {
			return m, tea.Quit
		}
		if m.naming != nil {
			done, cmd := m.naming.Update(msg)
			if !done {
				return m, cmd
			}
			name := m.naming.Value()
			m.naming = nil
			m.ses.Name = name
			if err := m.stu.SetName(name); err != nil {
				m.srv.cfg.Log.Printf("session %s: keeping the name: %v", m.ses.ID+"/"+m.ses.Conn, err)
			}
			var size tea.Cmd
			m.inner, size = m.inner.Update(tea.WindowSizeMsg{Width: m.w, Height: m.h})
			return m, tea.Batch(m.inner.Init(), size, m.join())
		}
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case idleWarning:
		m.warn = ""
		if msg.left > 0 {
			m.warn = fmt.Sprintf("no key for a while: this session closes in %s unless a key is pressed", span(msg.left))
		}
		return m, nil
	case End:
		m.ended, m.endedBy = msg.Line, true
		return m, tea.Quit
	}
	if m.naming != nil {
		_, cmd := m.naming.Update(msg)
		return m, cmd
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	return m, cmd
}

// Running is the course's: a move runs with nothing on screen saying so
// (see drawn); never while the name is asked.
func (m *screen) Running() bool {
	r, ok := m.inner.(running)
	return ok && m.naming == nil && r.Running()
}

func (m *screen) View() string {
	m.srv.viewCalls.Add(1)
	v, ok := m.watchView(m.ownView)
	if !ok {
		v = m.ownView()
	}
	if m.warn == "" {
		return v
	}
	lines := strings.Split(v, "\n")
	lines[len(lines)-1] = m.st.Warn.Render(m.st.Wrap(m.warn, max(m.w, 20), 1))
	return strings.Join(lines, "\n")
}

// ownView is the session's own screen: the name prompt, or the course.
func (m *screen) ownView() string {
	if m.naming != nil {
		return m.naming.View(m.w, m.h)
	}
	return m.inner.View()
}
