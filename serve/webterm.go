package serve

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// webTransport is a browser tab's WebSocket as a Transport: binary
// frames carry the terminal's input and output, text frames
// {"cols":…,"rows":…} its size.
type webTransport struct {
	conn   *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
	client Client
	win    Window
	winch  chan Window
	// in is what the program reads: the binary frames, in order
	in  *io.PipeReader
	inW *io.PipeWriter
	out wsWriter

	closeOnce sync.Once
}

// wsOpenWait is how long a tab has to say its size before the session
// opens at 80x24: the page sends it first thing.
const wsOpenWait = 5 * time.Second

// wsReadLimit bounds one frame from the tab: a paste, at most.
const wsReadLimit = 64 << 10

// newWebTransport reads the tab's size (its first text frame) and starts
// reading its frames; ctx is the server's, and Close ends it.
func newWebTransport(ctx context.Context, conn *websocket.Conn, c Client) *webTransport {
	conn.SetReadLimit(wsReadLimit)
	t := &webTransport{conn: conn, client: c, win: Window{Width: 80, Height: 24}, winch: make(chan Window, 1)}
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
	// the session's first size arrives as the first resize, as an SSH
	// pty's does
	t.winch <- t.win
	go t.read(early)
	return t
}

// read hands the tab's frames on until it goes or the session ends:
// binary to the program's input, sizes to Resizes.
func (t *webTransport) read(early []byte) {
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

// parseSize reads {"cols":…,"rows":…}, each at least 1; a size beyond
// MaxCols x MaxRows is drawn at that, as an SSH window change is.
func parseSize(data []byte) (Window, bool) {
	var m struct{ Cols, Rows int }
	if json.Unmarshal(data, &m) != nil || m.Cols < 1 || m.Rows < 1 {
		return Window{}, false
	}
	return capWindow(Window{Width: m.Cols, Height: m.Rows}), true
}

func (t *webTransport) Read(p []byte) (int, error)  { return t.in.Read(p) }
func (t *webTransport) Write(p []byte) (int, error) { return t.out.Write(p) }
func (t *webTransport) Context() context.Context    { return t.ctx }
func (t *webTransport) Client() Client              { return t.client }
func (t *webTransport) Window() Window              { return t.win }
func (t *webTransport) Resizes() <-chan Window      { return t.winch }

// Close writes the line on the terminal and ends the tab's connection
// with it as the close frame's reason (without its "locksim: ", cut to
// what a close frame holds), so the page can show it. A refusal's line
// is the tab's first output and its close frame says policy violation.
func (t *webTransport) Close(e Exit) {
	t.closeOnce.Do(func() {
		if !e.Refused && e.Line != "" {
			_, _ = t.out.Write([]byte("\r\n" + e.Line + "\r\n"))
		}
		// the reading goroutine may wait on the program's input: let it
		// go, then say goodbye, and only then cancel (a cancelled read
		// drops the connection without its close frame)
		t.in.Close()
		if e.Refused {
			refuseTab(t.ctx, t.conn, e.Line)
		} else {
			_ = t.conn.Close(websocket.StatusNormalClosure, closeReason(strings.TrimPrefix(e.Line, "locksim: ")))
		}
		t.cancel()
	})
}

// closeReason is line cut to what a close frame holds.
func closeReason(line string) string {
	if len(line) > 120 {
		return line[:120]
	}
	return line
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
