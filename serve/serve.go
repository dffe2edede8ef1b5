// Package serve is the course over SSH (locksim -serve): one Bubble Tea
// program per session, each with its own renderer (the SSH client's colour
// profile and background), size, backend and story clock, progress kept per
// student key, the limits a classroom needs, and the running of commands
// without a terminal (ssh host plain race). It is built on
// github.com/charmbracelet/wish v1.4.7. The same sessions run in browser
// tabs too (ServeWeb: a page with xterm.js, a WebSocket per tab): the
// course runs over a Transport, of which an SSH session and a tab are the
// two kinds.
//
// The commands themselves (list, plain, story, cast, cli) are the verbs of
// locksim's command table (package cli), handed in by Config.Commands, as
// the instructor's half (the class: roster, follow, polls) plugs in through
// Config.Class and its own commands; this package knows nothing of either.
package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"locksim/lab"
	"locksim/sim"
	"locksim/storycode"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"
)

// The limits' defaults (-max-sessions, -idle, -max-session).
const (
	DefaultMaxSessions = 64
	DefaultIdle        = 15 * time.Minute
	DefaultMaxTime     = 3 * time.Hour
	// IdleWarning is how long before the idle close the session is warned.
	IdleWarning = time.Minute
)

// Config is how the server runs. The zero value serves the embedded server
// on its own clock with the default limits, in memory only.
type Config struct {
	// HostKey is the host key's file (OpenSSH PEM); created, ed25519, if
	// missing. "" means host_ed25519 under the user's config directory's
	// locksim/.
	HostKey string
	// Dir is where each student's progress and display name are written,
	// one directory per key hash; "" keeps them in memory for the
	// server's life.
	Dir string
	// Instructors is an authorized_keys file of the instructors' keys,
	// read again whenever it changes; "" for none.
	Instructors string
	// Redis, when set, is a live server (redis:// URL) every session plays
	// on under its own run prefix; "" gives each session its own embedded
	// server. Live holds its scale (0: sim.DefaultLiveScale) and timeout.
	Redis string
	Live  sim.LiveOptions
	// MaxSessions is how many terminal sessions run at once (0:
	// DefaultMaxSessions), InstructorSlots of them kept for instructor
	// keys (fewer when MaxSessions is under 3, so a student still gets
	// in); the next one gets one line and is closed. SessionsPerKey caps
	// one key's terminal sessions (0: DefaultSessionsPerKey; keyless
	// sessions are counted in MaxSessions only: a class behind one NAT
	// shares an address).
	MaxSessions, SessionsPerKey int
	// NewPerAddress and NewEvery bound the new identities one address
	// makes (cookies minted for tabs, fresh reconnect tokens for keyless
	// SSH sessions): a burst of NewPerAddress (0:
	// DefaultNewPerAddress), then one each NewEvery (0:
	// DefaultNewEvery). A student who comes back (a key, a reconnect
	// token, the browser's cookie) is not counted: a class behind one
	// NAT gets in, and one client cannot make itself a class.
	NewPerAddress int
	NewEvery      time.Duration
	// ConnBurst and ConnEvery bound the connections one address opens,
	// SSH and HTTP alike, each listener its own: a burst of ConnBurst (0:
	// DefaultConnBurst), then one each ConnEvery (0: DefaultConnEvery).
	// A connection beyond is refused as it is accepted, with one line
	// (before the SSH version string; an HTTP 429), before any key
	// exchange or request is read. Behind -trust-proxy every connection
	// is the proxy's, and the web front's are not counted.
	ConnBurst int
	ConnEvery time.Duration
	// ProbeEvery is how often a session's client is asked to answer
	// (presence.go; 0: ProbeEvery, 5 s); a test's shorter interval runs
	// the same watch sooner.
	ProbeEvery time.Duration
	// ClassSize is the most sessions one class has on this server at
	// once, its students' and projectors' (0: ClassSeats, every student
	// slot; more than that is refused by New, CheckClassSize); a join
	// beyond is refused, whatever its address. While a class has a
	// session here, the seats it has not filled are kept for it: a
	// session in no class (not an instructor's) gets only the rest. A
	// Class that is not a Seater has no seats counted.
	ClassSize int
	// SessionsPerAddress, when not 0, caps the terminal sessions from
	// one address, tabs and SSH alike; off by default, since a class
	// often sits behind one school router's address.
	SessionsPerAddress int
	// Commands without a terminal have a budget of their own, outside
	// MaxSessions: MaxCommands at once in all (0: DefaultCommands),
	// CommandsPerKey at once for one key, or one address for keyless
	// clients (0: DefaultCommandsPerKey), each stopped after CommandTime
	// (0: DefaultCommandTime) with a line saying so.
	MaxCommands, CommandsPerKey int
	CommandTime                 time.Duration
	// ChildGrace is how long a command's child process stopped with
	// SIGTERM has before SIGKILL (0: DefaultChildGrace).
	ChildGrace time.Duration
	// Idle closes a session after this long without a key (0:
	// DefaultIdle; negative: never), warning IdleWarning before.
	Idle time.Duration
	// MaxTime closes a session this long after it opened (0:
	// DefaultMaxTime; negative: never).
	MaxTime time.Duration
	// Clock counts the limits; nil for the real one.
	Clock Clock
	// Seed, when not 0, is every session's token seed (-seed), so a class
	// sees the same tokens; 0 draws one per session.
	Seed uint64
	// HighContrast draws every session in the strongest tones (-theme
	// high-contrast); NoQuiz skips the predictions (-no-quiz).
	HighContrast, NoQuiz bool
	// AskName asks a student for a display name once per key (once per
	// connection without a key) before the course.
	AskName bool
	// Log receives one line per session opened, closed or failed; nil
	// discards them.
	Log *log.Logger
	// PublicURL is the web front's address as students reach it
	// (-public-url https://host/): y shows a story code's page under it
	// beside the code. "" shows none.
	PublicURL string
	// Web is the web front's (ServeWeb).
	Web WebConfig
	// Class is the instructor's half; nil serves the course alone.
	Class Class
	// Commands are added to (or replace) the commands a session without a
	// terminal runs, by name (see Command): ssh HOST NAME ARGS….
	Commands map[string]Command
	// Spawn, when set, is how a command marked Child runs in a process of
	// its own: the process for ssh HOST NAME ARGS…, not yet started. The
	// server gives it the client's stdout and stderr, runs it at the
	// lowest CPU priority (ChildNice) and stops it with the command's
	// time, so a flood of heavy commands takes what the students'
	// sessions leave. nil runs every command in this process.
	Spawn func(name string, args []string) *exec.Cmd
	// Lab, when set, runs each lab search of a session, in a process of
	// its own under OS limits (a lab.Child's Run, at ChildNice): a
	// learner's lock cannot hold the server's cores or memory. nil runs
	// them in this process (each script run still within its budget).
	Lab lab.Runner
	// LabLimits is the line the lab page shows while a search runs: which
	// of Lab's limits hold on this system (runner.Limits.Holds).
	LabLimits string
	// LabSearches is how many of those processes run at once in all (0:
	// DefaultLabSearches); a session's search waits for one to end.
	LabSearches int
}

// Class is the hook the instructor's half plugs in by. Its methods are
// called from the session's own goroutines; a panic in them ends that
// session only.
type Class interface {
	// Model returns the model the session's program runs, given the
	// course: app itself, or app inside the class's own panes. It is called
	// once, before the program starts.
	Model(s *Session, app *tui.App) tea.Model
	// Join is called once the session's program runs and the student has
	// given a name (when asked), in a goroutine of its own (a Bubble Tea
	// command): it may Send, and Send works from then on.
	Join(s *Session)
	// Leave is called once the program has ended and the progress is saved.
	Leave(s *Session)
}

// Seater is a Class that says, before a session opens, which class its
// user name (ssh CODE@host, a tab's /c/CODE) names, so the server's one
// admission can count the class's seats and the wrong codes an address
// tries.
type Seater interface {
	// Seat is the class id's user name names: its code, or "" for none
	// (a name that is no code, or an instructor's class name); wrong is
	// set when the name has a class code's form and names no open class.
	Seat(ctx context.Context, id Identity) (code string, wrong bool, err error)
}

// Namer is a Class that may know a student's display name from elsewhere
// (the class's roster, kept for every server of the class), so a student
// who comes to another server is not asked it again.
type Namer interface {
	// KnownName is the name id was known by, and whether there is one.
	KnownName(ctx context.Context, id Identity) (string, bool)
}

// Asker is a Class that says which scenes' questions the classes of its
// class store have open, seated on this server or on another of the
// store (class.Held): a web page or command of one of those scenes holds
// back what answers it (Call.Held), since any student of the class may
// open it on any server while the class is still asked.
type Asker interface {
	// Asking are the scenes asked, by id; nil for none.
	Asking(ctx context.Context) map[string]bool
}

// Server is a running server of the course: over SSH, in browser tabs
// (ServeWeb), or both, with one budget of sessions and one set of
// students.
type Server struct {
	cfg      Config
	ssh      *ssh.Server
	students *students
	commands map[string]Command
	instr    *keyFile
	clock    Clock
	ctx      context.Context
	cancel   context.CancelFunc
	mu       sync.Mutex
	sessions int  // terminal sessions and commands running
	terms    pool // the terminal sessions' slots
	// handshakes orders each address's SSH key exchanges
	handshakes handshakes
	cmds       pool // the commands' slots
	// projecting counts each class's projector tabs open
	projecting map[string]int
	// byAddress counts the terminal sessions of each client address, and
	// fresh the new identities each address has made
	byAddress map[string]int
	fresh     buckets
	// seated counts each class's sessions; guesses are the wrong class
	// codes each address may still try, and guessers the addresses that
	// have been held (logged once each)
	seated    map[string]int
	guesses   buckets
	guessers  map[string]bool
	live      map[*Session]bool
	room      watchRoom // the instructors' watches of students' screens
	wg        sync.WaitGroup
	viewCalls atomic.Int64 // every View of every session, for the tests
	// faults, in tests, panics at a point of a session ("key": its
	// program's Update, "resize": the resize forwarding) when it says so
	faults func(where string, ses *Session) bool

	// labs holds a slot per lab search's process running (LabSearches)
	labs chan struct{}
	labq labQueue // the searches waiting for a slot of labs

	// the web fronts (ServeWeb), closed by Close, and the last one's
	// address; the projector links handed out (guarded by mu but
	// projectors, which has its own lock)
	webs       []*http.Server
	webAddr    string
	projectors projectors
	// tabs are the instructors' tab links not yet used (tablink.go)
	tabs tabLinks

	// stories keeps the long story codes y gave out by their short
	// pointers (a story of the lab carries its lock): a learner's command
	// names the pointer, which resolves here, before any child runs
	stories *storycode.Shelf
}

// storyShelf is how many long story codes a server keeps by pointer.
const storyShelf = 10_000

// New checks c and prepares the server; Serve or ListenAndServe starts it.
func New(c Config) (*Server, error) {
	if c.MaxSessions == 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.SessionsPerKey == 0 {
		c.SessionsPerKey = DefaultSessionsPerKey
	}
	if c.ClassSize == 0 {
		c.ClassSize = ClassSeats(c.MaxSessions)
	}
	if err := CheckClassSize(c.ClassSize, c.MaxSessions); err != nil {
		return nil, err
	}
	if c.ConnBurst == 0 {
		c.ConnBurst = DefaultConnBurst
	}
	if c.ConnEvery == 0 {
		c.ConnEvery = DefaultConnEvery
	}
	if c.ProbeEvery == 0 {
		c.ProbeEvery = ProbeEvery
	}
	if c.NewPerAddress == 0 {
		c.NewPerAddress = DefaultNewPerAddress
	}
	if c.NewEvery == 0 {
		c.NewEvery = DefaultNewEvery
	}
	if c.MaxCommands == 0 {
		c.MaxCommands = DefaultCommands
	}
	if c.CommandsPerKey == 0 {
		c.CommandsPerKey = DefaultCommandsPerKey
	}
	if c.CommandTime == 0 {
		c.CommandTime = DefaultCommandTime
	}
	if c.ChildGrace == 0 {
		c.ChildGrace = DefaultChildGrace
	}
	if c.Idle == 0 {
		c.Idle = DefaultIdle
	}
	if c.MaxTime == 0 {
		c.MaxTime = DefaultMaxTime
	}
	if c.Live.Scale == 0 {
		c.Live.Scale = sim.DefaultLiveScale
	}
	if c.Log == nil {
		c.Log = log.New(io.Discard, "", 0)
	}
	s := &Server{cfg: c, clock: c.Clock, live: map[*Session]bool{}, stories: storycode.NewShelf(storyShelf), projecting: map[string]int{}, byAddress: map[string]int{},
		seated: map[string]int{}, guessers: map[string]bool{}, guesses: buckets{burst: GuessBurst, every: GuessEvery},
		fresh:      buckets{burst: c.NewPerAddress, every: c.NewEvery},
		handshakes: handshakes{hold: handshakeHold},
		terms:      pool{total: c.MaxSessions, perKey: c.SessionsPerKey, reserved: reservedFor(c.MaxSessions), by: map[string]int{}},
		cmds:       pool{total: c.MaxCommands, perKey: c.CommandsPerKey, by: map[string]int{}},
		labs:       make(chan struct{}, max(1, cmp.Or(c.LabSearches, DefaultLabSearches)))}
	if s.clock == nil {
		s.clock = realClock{}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.students = &students{dir: c.Dir, byKey: map[string]*student{}}
	if c.Dir != "" {
		if err := os.MkdirAll(c.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("-serve-dir: %w", err)
		}
	}
	if c.Instructors != "" {
		s.instr = &keyFile{path: c.Instructors}
		if _, err := s.instr.load(); err != nil {
			return nil, fmt.Errorf("-instructors: %w", err)
		}
	}
	s.commands = defaultCommands()
	for name, cmd := range c.Commands {
		s.commands[name] = cmd
	}
	hostKey := c.HostKey
	if hostKey == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return nil, fmt.Errorf("no place for the host key (%v): give one with -host-key FILE", err)
		}
		hostKey = filepath.Join(dir, "locksim", "host_ed25519")
	}
	if err := os.MkdirAll(filepath.Dir(hostKey), 0o700); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	srv, err := wish.NewServer(
		wish.WithHostKeyPath(hostKey),
		// any key is welcome: it only names the student; keyless clients
		// get in by keyboard-interactive with no question asked
		wish.WithPublicKeyAuth(func(ctx ssh.Context, _ ssh.PublicKey) bool { authenticated(ctx); return true }),
		wish.WithKeyboardInteractiveAuth(func(ctx ssh.Context, _ gossh.KeyboardInteractiveChallenge) bool { authenticated(ctx); return true }),
		// a client that only offers a password gets in too; the password is
		// not read, and the session is keyless
		wish.WithPasswordAuth(func(ctx ssh.Context, _ string) bool { authenticated(ctx); return true }),
		// each address's key exchanges wait their turn (HandshakesAtOnce)
		ssh.WrapConn(s.takeTurn),
		// the last runs first: a panic anywhere is one session's, and the
		// fair shares count the key the client proved before the session
		// is handled
		wish.WithMiddleware(func(ssh.Handler) ssh.Handler { return s.handle }, s.fairShares, s.recovering),
	)
	if err != nil {
		return nil, fmt.Errorf("host key %s: %w", hostKey, err)
	}
	if c.Idle > 0 {
		// a backstop for connections with no session to count keys in (a
		// handshake left hanging): no byte either way for longer than a
		// session may sit idle closes the connection
		srv.IdleTimeout = c.Idle + IdleWarning
	}
	s.ssh = srv
	return s, nil
}

// Listen opens addr (host:port) for Serve: a port already taken fails
// here, at once.
func Listen(addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-serve %s: %w", addr, errors.Unwrap(err))
	}
	return l, nil
}

// Serve serves sessions on l until Close; it returns nil after Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.ssh.Serve(s.limitListener(l, refusedSSH))
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Close ends every session (each gets a line saying why), waits for them
// to let go of their backends until ctx is done, and closes the listener.
func (s *Server) Close(ctx context.Context) error {
	s.cancel()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	s.mu.Lock()
	for _, hs := range s.webs {
		_ = hs.Close()
	}
	s.mu.Unlock()
	return s.ssh.Close()
}

// Fingerprint is the host key's SHA256 fingerprint, as ssh shows it when
// it first meets the server ("SHA256:…"), for students to check.
func (s *Server) Fingerprint() string {
	if len(s.ssh.HostSigners) == 0 {
		return ""
	}
	return gossh.FingerprintSHA256(s.ssh.HostSigners[0].PublicKey())
}

// Sessions returns the number of sessions running, terminal sessions and
// commands alike.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}

// openBackend is a session's own server: a fresh embedded one, or its own
// run prefix on the live one (its keys deleted by Close, and by the
// heartbeat's sweep if this process is killed).
func (s *Server) openBackend(ctx context.Context) (*sim.Backend, error) {
	if s.cfg.Redis == "" {
		return sim.OpenEmbedded()
	}
	o := s.cfg.Live
	o.NoSweep = true // swept once, when the server started
	return sim.OpenLive(ctx, s.cfg.Redis, o)
}

// closeBackend deletes the session's keys and closes its connections,
// within a second whatever the server is doing.
func (s *Server) closeBackend(b *sim.Backend, who string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := b.Close(ctx); err != nil {
		s.cfg.Log.Printf("session %s: %v", who, err)
	}
}
