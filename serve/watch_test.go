package serve

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"locksim/serve/termtest"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
	gossh "golang.org/x/crypto/ssh"
)

// watchClass is a Class whose W asks to watch the session named by the
// test (as the class view's W does for the picked row), that lets any
// instructor watch anyone but the sessions it is told to keep, and that
// keeps each watch's record.
type watchClass struct {
	srv *Server

	mu     sync.Mutex
	target string // the name of the session W watches
	visits []Visit
	// held says the room's question is open on every projector
	held bool
}

// Projectors are the sessions named "projector".
func (c *watchClass) Projectors(*Session) []*Session {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	var out []*Session
	for ses := range c.srv.live {
		if ses.Name == "projector" {
			out = append(out, ses)
		}
	}
	return out
}

func (c *watchClass) hold(on bool) {
	c.mu.Lock()
	c.held = on
	c.mu.Unlock()
}

func (c *watchClass) Model(s *Session, app *tui.App) tea.Model { return &watchPane{app: app, c: c} }
func (c *watchClass) Join(*Session)                            {}
func (c *watchClass) Leave(*Session)                           {}

func (c *watchClass) MayWatch(teacher, student *Session) bool { return !student.Instructor }

func (c *watchClass) Watched(_, _ *Session, v Visit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.visits = append(c.visits, v)
}

func (c *watchClass) records() []Visit {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Visit(nil), c.visits...)
}

// id is the class member id of the session named name.
func (c *watchClass) id(name string) string {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	for ses := range c.srv.live {
		if ses.Name == name {
			return ses.ID
		}
	}
	return "nobody"
}

type watchPane struct {
	app *tui.App
	c   *watchClass
}

func (p *watchPane) Init() tea.Cmd { return p.app.Init() }

func (p *watchPane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "W" {
		p.c.mu.Lock()
		name := p.c.target
		p.c.mu.Unlock()
		w := tui.WatchMsg{ID: p.c.id(name), Name: name}
		return p, func() tea.Msg { return w }
	}
	_, cmd := p.app.Update(msg)
	return p, cmd
}

func (p *watchPane) View() string { return p.app.View() }

func (p *watchPane) RoomQuestionOpen() bool {
	p.c.mu.Lock()
	defer p.c.mu.Unlock()
	return p.c.held
}

// watchServer is onBoth with a watchClass and the instructor's key in
// the instructors' file: test gets the class, the instructor's key, the
// students' dialer and the SSH address.
func watchServer(t *testing.T, test func(t *testing.T, c *watchClass, key gossh.Signer, d termtest.Dialer, addr string)) {
	key := termtest.NewKey(t)
	path := filepath.Join(t.TempDir(), "instructors")
	if err := os.WriteFile(path, gossh.MarshalAuthorizedKey(key.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &watchClass{target: "ann"}
	onBoth(t, Config{AskName: true, Instructors: path, Class: c}, func(t *testing.T, s *Server, d termtest.Dialer, addr string) {
		c.srv = s
		c.mu.Lock()
		c.visits = nil
		c.mu.Unlock()
		test(t, c, key, d, addr)
	})
}

// named opens a terminal of w×h on who and gives name at the prompt.
func named(t *testing.T, tm *termtest.Term, name string) *termtest.Term {
	t.Helper()
	tm.WaitFor("Your name, as the class will see it")
	tm.Send(name + "\r")
	tm.WaitFor("1  race")
	return tm
}

// teacherOn opens the instructor's terminal over SSH with key.
func teacherOn(t *testing.T, addr string, key gossh.Signer, w, h int) *termtest.Term {
	return named(t, termtest.Open(t, termtest.Dial(t, addr, "prof", key), "xterm-256color", w, h), "Prof")
}

// row is the screen's row i (0 the top).
func row(screen string, i int) string {
	lines := strings.Split(screen, "\n")
	if i >= len(lines) {
		return ""
	}
	return lines[i]
}

var tokenOn = regexp.MustCompile(`token [0-9a-f]{8}`)

const endKey = "\x1d" // ctrl+], EndKey

// TestWatch: the instructor watches a student's live screen (SSH, then a
// tab): the student's own frames, letterboxed on a larger terminal, with
// the student told on their own screen's top row as long as it lasts; the
// instructor's keys do nothing there; esc leaves, the student's EndKey
// ends it, and so does the student's session ending; each watch is in the
// class's record.
func TestWatch(t *testing.T) {
	t.Parallel()
	watchServer(t, func(t *testing.T, c *watchClass, key gossh.Signer, d termtest.Dialer, addr string) {
		ann := named(t, d.New(t).Open(t, termtest.At{}, 80, 24), "ann")
		prof := teacherOn(t, addr, key, 100, 30)

		prof.Send("W")
		screen := prof.WaitFor("watching ann (80x24, letterboxed) · P pair · R projector · esc leaves")
		own := ann.WaitFor("watched by Prof · ctrl+] ends it")
		// at 80x24 no row is spare: the line stands at the right end of a
		// blank row or a rule, never on the title row nor the last
		seenOn(t, own, 24)
		// the student moves: the instructor sees the move, as drawn for
		// the student (their seed)
		ann.Send("\r")
		own = ann.WaitFor("1-3 your prediction", "watched by Prof")
		tok := tokenOn.FindString(own)
		if tok == "" {
			t.Fatalf("no token on the student's screen:\n%s", own)
		}
		// the choices stay whole under the student's line, and the title
		// row (the scene's title, mode and seed) whole above it
		seenOn(t, own, 24)
		if r := row(own, 0); !strings.Contains(r, "seed ") {
			t.Fatalf("the scene's title row is covered: %q\n%s", r, own)
		}
		for _, c := range []string{"1) none", "2) exactly one", "3) two or more"} {
			if !strings.Contains(own, c) {
				t.Fatalf("the student's line covers the choice %q:\n%s", c, own)
			}
		}
		screen = prof.WaitFor("1-3 your prediction", tok, "watched by Prof")
		// 80x24 centred in the 100x29 under the instructor's header: two
		// rows down, ten columns in
		at := seenRow(own)
		if r := row(screen, at+3); !strings.HasPrefix(r, strings.Repeat(" ", 10)) || !strings.HasSuffix(r, "watched by Prof · ctrl+] ends it") || len([]rune(r)) != 90 {
			t.Fatalf("the student's 80x24 is not letterboxed in 100x30 (row %d: %q):\n%s", at+3, r, screen)
		}
		// read-only: the instructor's keys reach neither screen
		prof.Send("2")
		prof.Send("q")
		prof.WaitFor("watching ann")
		if s := ann.Screen(); !strings.Contains(s, "1-3 your prediction") {
			t.Fatalf("the instructor's key moved the student's screen:\n%s", s)
		}
		// esc leaves: the student's line goes
		prof.Send("\x1b")
		prof.WaitUntil("the instructor's own screen", func(s string) bool { return !strings.Contains(s, "watching ann") })
		ann.WaitUntil("no watched line", func(s string) bool { return !strings.Contains(s, "watched by") })

		// the student ends a watch
		prof.Send("W")
		prof.WaitFor("watching ann")
		ann.WaitFor("watched by Prof")
		ann.Send(endKey)
		ann.WaitUntil("no watched line", func(s string) bool { return !strings.Contains(s, "watched by") })
		prof.WaitFor("ann ended the watch")

		// the student's session ends a watch
		prof.Send("W")
		prof.WaitFor("watching ann")
		ann.WaitFor("watched by Prof")
		ann.Send("q")
		ann.WaitEnd()
		prof.WaitFor("ann's session ended")

		vs := c.records()
		if len(vs) != 3 {
			t.Fatalf("%d watches recorded, want 3: %+v", len(vs), vs)
		}
		for _, v := range vs {
			if v.TeacherName != "Prof" || v.StudentName != "ann" || v.End.Before(v.Start) || v.Pairs != 0 {
				t.Fatalf("recorded %+v", v)
			}
		}
	})
}

// seenRow is the row of screen the student's line is on; -1 for none.
func seenRow(screen string) int {
	for i, r := range strings.Split(screen, "\n") {
		if strings.Contains(r, "watched by") {
			return i
		}
	}
	return -1
}

// seenOn fails t unless the student's line on screen, a terminal h rows
// high, ends a row that is otherwise blank or a rule (── readout ──):
// not the title row, not the last row (the keys that answer a question),
// not a question's choice.
func seenOn(t *testing.T, screen string, h int) {
	t.Helper()
	i := seenRow(screen)
	r := row(screen, i)
	before, _, _ := strings.Cut(r, "watched by")
	if i <= 0 || i >= h-1 || strings.Trim(before, " ─") != "" && !strings.HasPrefix(before, "── ") {
		t.Fatalf("the student's line is on row %d (%q), not a spare one:\n%s", i, r, screen)
	}
}

// filterOn is the contents' filter line's text.
var filterOn = regexp.MustCompile(`Filter: (\S*)`)

// TestPair: the instructor asks to pair; the student says no with N, and
// the instructor's keys stay off their screen; asked again at an open
// question, the student's answer is theirs (the prompt takes only Y and
// N); with Y both type into the student's course, whole keys in the order
// they came, the student's line saying who typed last; two pastes at once
// are each taken whole, one after the other; the instructor's ctrl+c ends
// no one's session; the instructor's ctrl+] ends the pair (the watch goes
// on), the student's ends it all.
func TestPair(t *testing.T) {
	t.Parallel()
	watchServer(t, func(t *testing.T, c *watchClass, key gossh.Signer, d termtest.Dialer, addr string) {
		ann := named(t, d.New(t).Open(t, termtest.At{}, 80, 24), "ann")
		prof := teacherOn(t, addr, key, 100, 30)
		prof.Send("W")
		prof.WaitFor("watching ann")
		ann.WaitFor("watched by Prof")

		// refused
		prof.Send("P")
		ann.WaitFor("Y or N: may Prof type on your screen with you?")
		prof.WaitFor("asked to pair: waiting for their answer")
		ann.Send("N")
		ann.WaitFor("watched by Prof · ctrl+] ends it")
		prof.WaitFor("watching ann · they said no")
		prof.Send("/zz")
		// asked again: keys the instructor typed before the ask would have
		// reached the student's screen before the ask does
		prof.Send("P")
		screen := ann.WaitFor("may Prof type on your screen")
		if strings.Contains(screen, "Filter") || strings.Contains(screen, "zz") {
			t.Fatalf("the instructor's keys reached the student's screen unpaired:\n%s", screen)
		}
		// the prompt answers no question: the student's 2 is theirs
		ann.Send("\r")
		screen = ann.WaitFor("1-3 your prediction", "may Prof type on your screen")
		for _, ch := range []string{"1) none", "2) exactly one", "3) two or more"} {
			if !strings.Contains(screen, ch) {
				t.Fatalf("the prompt covers the choice %q:\n%s", ch, screen)
			}
		}
		ann.Send("2")
		ann.WaitFor("You predicted \"exactly one\"", "may Prof type on your screen")
		ann.Send("\x1b") // esc: the contents, the prompt still asking
		ann.WaitFor("1  race", "may Prof type on your screen")

		// accepted: both type, whole keys in the order they came
		ann.Send("Y")
		ann.WaitFor("paired with Prof · ctrl+] ends it")
		prof.WaitFor("paired with ann: your keys go to their screen")
		prof.Send("/")
		ann.WaitFor("Filter:", "Prof typed last")
		ann.Send("a")
		ann.WaitFor("Filter: a", "ann typed last")
		prof.Send("b")
		ann.WaitFor("Filter: ab", "Prof typed last")
		ann.Send("c")
		ann.WaitFor("Filter: abc", "ann typed last")
		prof.WaitFor("Filter: abc", "ann typed last") // the instructor sees it too

		// two pastes at once: each whole, one after the other
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); prof.Send("\x1b[200~XYZ\x1b[201~") }()
		go func() { defer wg.Done(); ann.Send("\x1b[200~123\x1b[201~") }()
		wg.Wait()
		screen = ann.WaitUntil("both pastes", func(s string) bool {
			m := filterOn.FindStringSubmatch(s)
			return m != nil && len(m[1]) == 9
		})
		if got := filterOn.FindStringSubmatch(screen)[1]; got != "abcXYZ123" && got != "abc123XYZ" {
			t.Fatalf("the pastes were cut into each other: %q", got)
		}

		// the instructor's ctrl+c quits nothing
		prof.Send("\x03")
		prof.Send("d")
		ann.WaitFor("Filter: abc", "d", "Prof typed last")
		screen = ann.WaitUntil("the d typed", func(s string) bool {
			m := filterOn.FindStringSubmatch(s)
			return m != nil && len(m[1]) == 10
		})

		// the instructor ends the pair: the watch goes on, read-only
		prof.Send(endKey)
		ann.WaitFor("watched by Prof · ctrl+] ends it")
		prof.WaitFor("watching ann (80x24")
		prof.Send("e")
		prof.Send("P")
		ann.WaitFor("may Prof type on your screen")
		if m := filterOn.FindStringSubmatch(ann.Screen()); m == nil || strings.Contains(m[1], "e") {
			t.Fatalf("a key reached the student after the pair ended:\n%s", ann.Screen())
		}

		// the student ends it all
		ann.Send("Y")
		ann.WaitFor("paired with Prof")
		ann.Send(endKey)
		ann.WaitUntil("no line of the watch", func(s string) bool { return !strings.Contains(s, "Prof") })
		prof.WaitFor("ann ended the watch")

		vs := c.records()
		if len(vs) != 1 || vs[0].Pairs != 2 || vs[0].Paired <= 0 {
			t.Fatalf("recorded %+v, want one watch with two pairs", vs)
		}
	})
}

// TestWatchEnds: a student's screen taller than the course needs gets a
// row of its own for the line, above the course laid out a row shorter;
// a watcher's smaller terminal shows its top left, cropped; a student
// asking to watch is told no; a watch takes no session of the server's;
// the instructor's session ending ends the watch, and the student's line
// goes.
func TestWatchEnds(t *testing.T) {
	t.Parallel()
	watchServer(t, func(t *testing.T, c *watchClass, key gossh.Signer, d termtest.Dialer, addr string) {
		ann := named(t, d.New(t).Open(t, termtest.At{}, 120, 40), "ann")
		ann.Send("\r")
		ann.WaitFor("1-3 your prediction")
		bob := named(t, d.New(t).Open(t, termtest.At{}, 80, 24), "bob")
		bob.Send("W") // a student's W asks the server too
		bob.WaitFor("only an instructor's key watches a student's screen")

		conn := termtest.Dial(t, addr, "prof", key)
		prof := named(t, termtest.Open(t, conn, "xterm-256color", 80, 24), "Prof")
		sessions := c.srv.Sessions()
		prof.Send("W")
		screen := prof.WaitFor("watching ann (120x40, cropped)")
		own := ann.WaitFor("watched by Prof")
		if r0, r1 := row(own, 0), row(own, 1); r0 != "watched by Prof · ctrl+] ends it" || !strings.Contains(r1, "seed ") {
			t.Fatalf("the line is not a row of its own above the course's title:\n%s", own)
		}
		if r := row(own, 39); !strings.HasPrefix(r, "1-3 your prediction") {
			t.Fatalf("the course's keys are not on the student's last row:\n%s", own)
		}
		// the watcher's 80x23 below its header: the student's last rows
		screen = prof.WaitFor("1-3 your prediction")
		if r := row(screen, 23); !strings.HasPrefix(r, "1-3 your prediction") || strings.Contains(screen, "watched by") {
			t.Fatalf("the watcher's last row is %q, want the student's:\n%s", r, screen)
		}
		if n := c.srv.Sessions(); n != sessions {
			t.Fatalf("a watch counted as a session: %d sessions, were %d", n, sessions)
		}
		prof.Send("q") // read-only: nothing
		prof.Send("\x03")
		prof.WaitUntil("back on its own screen", func(s string) bool { return !strings.Contains(s, "watching ann") })
		ann.WaitUntil("the line gone", func(s string) bool { return !strings.Contains(s, "watched by") })

		prof.Send("W")
		prof.WaitFor("watching ann")
		ann.WaitFor("watched by Prof")
		prof.Send("P")
		ann.WaitFor("may Prof type on your screen")
		conn.Close()
		ann.WaitUntil("the line gone", func(s string) bool { return !strings.Contains(s, "Prof") })
		ann.Send("Y") // no ask left: Y is the course's
		own = ann.WaitFor("1-3 your prediction")
		if n := len(c.records()); n != 2 {
			t.Fatalf("%d watches recorded, want 2", n)
		}
	})
}

// TestShowTheRoom: the instructor who watches asks to show the student's
// screen on the projectors (R): N says no, and nothing shows; with Y the
// projector draws the student's screen and the student's line names it;
// while the room's question is open the projector keeps its own screen
// and says the student's waits; R takes it off; the projector's session
// ending ends its show but not the watch; the student's ctrl+] ends it
// all.
func TestShowTheRoom(t *testing.T) {
	t.Parallel()
	watchServer(t, func(t *testing.T, c *watchClass, key gossh.Signer, d termtest.Dialer, addr string) {
		c.hold(false)
		ann := named(t, d.New(t).Open(t, termtest.At{}, 80, 24), "ann")
		room := named(t, d.New(t).Open(t, termtest.At{}, 80, 24), "projector")
		prof := teacherOn(t, addr, key, 100, 30)
		prof.Send("W")
		prof.WaitFor("watching ann", "R projector")
		prof.Send("R")
		ann.WaitFor("Y or N: may Prof show your screen to the room?")
		prof.WaitFor("asked to show their screen on the projector")
		ann.Send("N")
		prof.WaitFor("watching ann · they said no")
		ann.WaitFor("watched by Prof · ctrl+] ends it")
		if s := room.Screen(); strings.Contains(s, "ann") {
			t.Fatalf("the projector shows ann's screen after her no:\n%s", s)
		}

		prof.Send("R")
		ann.WaitFor("may Prof show your screen to the room")
		ann.Send("Y")
		room.WaitFor("ann's screen, shown with their yes", "1  race")
		ann.WaitFor("watched by Prof, the projector · ctrl+] ends it")
		prof.WaitFor("on the projector too · R takes it off")

		// the room's question open: held, on the projector's own screen
		c.hold(true)
		ann.Send("\r")
		ann.WaitFor("1-3 your prediction")
		screen := room.WaitFor("ann's screen waits: the room's question is open", "1  race")
		if strings.Contains(screen, "1-3 your prediction") {
			t.Fatalf("the held projector shows ann's screen:\n%s", screen)
		}
		c.hold(false)
		ann.Send("2")
		room.WaitFor("ann's screen, shown with their yes", "You predicted")

		prof.Send("R")
		room.WaitUntil("its own screen", func(s string) bool { return !strings.Contains(s, "ann's screen") })
		ann.WaitFor("watched by Prof · ctrl+] ends it")

		// the projector's session ends its show; the watch goes on
		prof.Send("R")
		ann.WaitFor("may Prof show your screen to the room")
		ann.Send("Y")
		room.WaitFor("ann's screen, shown with their yes")
		room.Send("q")
		room.WaitEnd()
		ann.WaitFor("watched by Prof · ctrl+] ends it")
		prof.WaitFor("watching ann")

		ann.Send(endKey)
		prof.WaitFor("ann ended the watch")
		ann.WaitUntil("no line", func(s string) bool { return !strings.Contains(s, "watched by") })
		if n := len(c.records()); n != 1 {
			t.Fatalf("%d watches recorded, want the instructor's one", n)
		}
	})
}
