package serve

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/coder/websocket"
	"github.com/muesli/termenv"
)

// webTerminal is a browser tab's WebSocket as a Terminal: binary frames
// carry the terminal's input and output, text frames {"cols":…,"rows":…}
// its size. xterm.js draws in true colour on a dark background, so the
// renderer is set so rather than asked.
type webTerminal struct {
	conn   *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
	id     Identity
	remote string
	win    Window
	winch  chan Window
	// in is what the program reads: the binary frames, in order
	in  *io.PipeReader
	inW *io.PipeWriter
	out wsWriter
	// link is a story code's page on this server
	link func(code string) string

	closeOnce sync.Once
	mu        sync.Mutex
	said      string
}

// wsOpenWait is how long a tab has to say its size before the session
// opens at 80x24: the page sends it first thing.
const wsOpenWait = 5 * time.Second

// wsReadLimit bounds one frame from the tab: a paste, at most.
const wsReadLimit = 64 << 10

// newWebTerminal reads the tab's size (its first text frame) and starts
// reading its frames; ctx is the server's, and Close ends it.
func newWebTerminal(ctx context.Context, conn *websocket.Conn, id Identity, remote string, link func(string) string) *webTerminal {
	conn.SetReadLimit(wsReadLimit)
	t := &webTerminal{conn: conn, id: id, remote: remote, link: link, win: Window{Width: 80, Height: 24}, winch: make(chan Window, 1)}
	t.ctx, t.cancel = context.WithCancel(ctx)
	t.in, t.inW = io.Pipe()
	t.out = wsWriter{conn: conn, ctx: t.ctx}
	// the first frame the page sends is its size; a key before it is
	// kept for the program
	var early []byte
	wctx, cancel := context.WithTimeout(t.ctx, wsOpenWait)
	typ, data, err := conn.Read(wctx)
	cancel()
	switch {
	case err != nil:
		t.cancel()
	case typ == websocket.MessageText:
		if w, ok := parseSize(data); ok {
			t.win = w
		}
	default:
		early = data
	}
	go t.read(early)
	return t
}

// read hands the tab's frames on until it goes or the session ends:
// binary to the program's input, sizes to Resizes.
func (t *webTerminal) read(early []byte) {
	defer t.cancel()
	defer t.inW.Close()
	if len(early) > 0 {
		if _, err := t.inW.Write(early); err != nil {
			return
		}
	}
	for {
		typ, data, err := t.conn.Read(t.ctx)
		if err != nil {
			return
		}
		if typ == websocket.MessageBinary {
			if _, err := t.inW.Write(data); err != nil {
				return
			}
			continue
		}
		w, ok := parseSize(data)
		if !ok {
			continue
		}
		select {
		case t.winch <- w:
		case <-t.ctx.Done():
			return
		}
	}
}

// parseSize reads {"cols":…,"rows":…}, each from 1 to 1000.
func parseSize(data []byte) (Window, bool) {
	var m struct{ Cols, Rows int }
	if json.Unmarshal(data, &m) != nil || m.Cols < 1 || m.Rows < 1 || m.Cols > 1000 || m.Rows > 1000 {
		return Window{}, false
	}
	return Window{Width: m.Cols, Height: m.Rows}, true
}

func (t *webTerminal) Context() context.Context { return t.ctx }
func (t *webTerminal) Identity() Identity       { return t.id }
func (t *webTerminal) Remote() string           { return t.remote }
func (t *webTerminal) Kind() string             { return "web" }
func (t *webTerminal) Window() Window           { return t.win }
func (t *webTerminal) Resizes() <-chan Window   { return t.winch }
func (t *webTerminal) Via() string              { return "the web" }
func (t *webTerminal) Fetch() func(string) string {
	if t.link == nil {
		return nil
	}
	return func(code string) string { return "-story " + code + " · " + t.link(code) }
}

func (t *webTerminal) ProgramOptions() []tea.ProgramOption {
	// the session's first size arrives as the first resize, as an SSH
	// pty's does
	select {
	case t.winch <- t.win:
	default:
	}
	return []tea.ProgramOption{tea.WithInput(t.in), tea.WithOutput(t.out)}
}

func (t *webTerminal) Output() io.Writer { return t.out }

// RawInput has nothing to do: a tab's keys come as they are typed.
func (t *webTerminal) RawInput() (restore func(), err error) { return func() {}, nil }

func (t *webTerminal) Renderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(t.out, termenv.WithProfile(termenv.TrueColor))
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	return r
}

// Say writes line on the terminal, below what is left of the screen,
// and keeps it as the reason the connection closes with.
func (t *webTerminal) Say(line string) {
	t.mu.Lock()
	t.said = line
	t.mu.Unlock()
	_, _ = t.out.Write([]byte("\r\n" + line + "\r\n"))
}

// Said is the last line Say said, "" for none.
func (t *webTerminal) Said() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.said
}

// Close ends the tab's connection with line as the close frame's reason
// (cut to what a close frame holds), so the page can show it.
func (t *webTerminal) Close(line string) {
	t.closeOnce.Do(func() {
		// the reading goroutine may wait on the program's input: let it
		// go, then say goodbye, and only then cancel (a cancelled read
		// drops the connection without its close frame)
		t.in.Close()
		if len(line) > 120 {
			line = line[:120]
		}
		_ = t.conn.Close(websocket.StatusNormalClosure, line)
		t.cancel()
	})
}

// wsWriter writes each write as one binary frame: the renderer writes
// once a frame.
type wsWriter struct {
	conn *websocket.Conn
	ctx  context.Context
}

func (w wsWriter) Write(p []byte) (int, error) {
	if err := w.conn.Write(w.ctx, websocket.MessageBinary, p); err != nil {
		return 0, err
	}
	return len(p), nil
}
