package serve

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/serve/termtest"
	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
	gossh "golang.org/x/crypto/ssh"
)

// recordingClass is a Class that keeps who joined and left, wraps the
// course in a pane of one line, and greets each student through Send.
type recordingClass struct {
	mu     sync.Mutex
	joined []Identity
	left   []string
}

type greeting struct{ text string }

type pane struct {
	app   *tui.App
	greet string
}

func (p *pane) Init() tea.Cmd { return p.app.Init() }

func (p *pane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if g, ok := msg.(greeting); ok {
		p.greet = g.text
		return p, nil
	}
	_, cmd := p.app.Update(msg)
	return p, cmd
}

func (p *pane) View() string {
	v := p.app.View()
	if p.greet == "" {
		return v
	}
	lines := strings.Split(v, "\n")
	lines[0] = p.greet
	return strings.Join(lines, "\n")
}

func (c *recordingClass) Model(s *Session, app *tui.App) tea.Model { return &pane{app: app} }

func (c *recordingClass) Join(s *Session) {
	c.mu.Lock()
	c.joined = append(c.joined, s.Identity)
	c.mu.Unlock()
	if s.User == "nosuch" {
		go s.Send(End{"locksim: there is no class nosuch here"})
		return
	}
	go s.Send(greeting{"welcome to class " + s.User + ", " + s.Name})
}

func (c *recordingClass) Leave(s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.left = append(c.left, s.ID)
}

func (c *recordingClass) last() Identity {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.joined[len(c.joined)-1]
}

// TestClassHook: the class's model draws the session, Join comes once the
// name is given, Send reaches the program, Leave comes at the end; an
// instructor is a key in the instructors file as it is when the session
// opens.
func TestClassHook(t *testing.T) {
	t.Parallel()
	teacher, student := termtest.NewKey(t), termtest.NewKey(t)
	file := filepath.Join(t.TempDir(), "instructors")
	writeKeys(t, file, teacher)
	class := &recordingClass{}
	_, addr := testServer(t, Config{Class: class, Instructors: file, AskName: true})

	open := func(key gossh.Signer, name string) Identity {
		tm := termtest.Open(t, termtest.Dial(t, addr, "k7q2", key), "xterm", 80, 24)
		tm.WaitFor("Your name")
		tm.Send(name + "\r")
		tm.WaitFor("welcome to class k7q2, "+name, "2  options")
		id := class.last()
		tm.Send("q")
		tm.WaitEnd()
		return id
	}
	if id := open(teacher, "Grace"); !id.Instructor || id.Name != "Grace" || id.KeyHash != keyHash(teacher.PublicKey()) || id.User != "k7q2" {
		t.Fatalf("the instructor joined as %+v", id)
	}
	if id := open(student, "Alan"); id.Instructor {
		t.Fatalf("a student's key was taken for an instructor's: %+v", id)
	}
	// the file changes: the student's key is in it now, the teacher's gone
	writeKeys(t, file, student)
	// a key is as long as the other: the modification time tells the change
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	tm := termtest.Open(t, termtest.Dial(t, addr, "k7q2", student), "xterm", 80, 24)
	tm.WaitFor("welcome to class k7q2, Alan") // the name is asked once per key
	if id := class.last(); !id.Instructor {
		t.Fatalf("a key added to the file was not an instructor's: %+v", id)
	}
	tm.Send("q")
	tm.WaitEnd()
	tm = termtest.Open(t, termtest.Dial(t, addr, "k7q2", teacher), "xterm", 80, 24)
	tm.WaitFor("welcome to class k7q2, Grace")
	if id := class.last(); id.Instructor {
		t.Fatalf("a key removed from the file was still an instructor's: %+v", id)
	}
	tm.Send("q")
	tm.WaitEnd()
	// the class ends a session with a line
	tm = termtest.Open(t, termtest.Dial(t, addr, "nosuch", teacher), "xterm", 80, 24)
	if code := tm.WaitEnd(); code != 1 || !strings.Contains(tm.Stderr(), "locksim: there is no class nosuch here") {
		t.Fatalf("ended by the class: status %d, stderr %q", code, tm.Stderr())
	}
	class.mu.Lock()
	defer class.mu.Unlock()
	if len(class.left) != 5 {
		t.Fatalf("Leave was called %d times for 5 sessions", len(class.left))
	}
}

func writeKeys(t testing.TB, path string, keys ...gossh.Signer) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# instructors\n")
	for _, k := range keys {
		b.Write(gossh.MarshalAuthorizedKey(k.PublicKey()))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}
