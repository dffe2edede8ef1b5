package termtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Light is a terminal for benchmarks, over either transport: no emulator,
// it answers the background-colour and device-attribute queries itself
// and looks for text in the bytes the server sends.
type Light struct {
	// In is the terminal's input: keys written to it are typed
	In io.Writer
	// resize tells the server a new size
	resize func(w, h int) error
	mu     sync.Mutex
	buf    []byte // what came since the last mark
	seen   chan struct{}
	n      int // bytes in all
}

func newLight(in io.Writer) *Light { return &Light{In: in, seen: make(chan struct{}, 1)} }

// got takes a chunk the server sent, answering its queries.
func (lt *Light) got(chunk []byte) {
	if bytes.Contains(chunk, []byte("\x1b]11;?")) {
		_, _ = io.WriteString(lt.In, "\x1b]11;rgb:0000/0000/0000\x1b\\")
	}
	if bytes.Contains(chunk, []byte("\x1b[c")) {
		_, _ = io.WriteString(lt.In, "\x1b[?62;c")
	}
	lt.mu.Lock()
	lt.buf = append(lt.buf, chunk...)
	lt.n += len(chunk)
	lt.mu.Unlock()
	select {
	case lt.seen <- struct{}{}:
	default:
	}
}

// OpenLight asks for a pty of w×h (xterm-256color) and starts the course
// on it, or cmd on it when cmd is not "" (ssh -t HOST cmd).
func OpenLight(tb testing.TB, c *gossh.Client, w, h int, cmd string) *Light {
	tb.Helper()
	s, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		tb.Fatal(err)
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	lt := newLight(in)
	// a refusal's line comes on stderr: it is looked for as the screen is
	s.Stderr = lightErr{lt}
	if cmd != "" {
		err = s.Start(cmd)
	} else {
		err = s.Shell()
	}
	if err != nil {
		tb.Fatal(err)
	}
	lt.resize = func(w, h int) error { return s.WindowChange(h, w) }
	go func() {
		p := make([]byte, 32<<10)
		for {
			n, err := out.Read(p)
			if n > 0 {
				lt.got(p[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	return lt
}

// lightErr hands an SSH session's stderr to its light terminal.
type lightErr struct{ lt *Light }

func (e lightErr) Write(p []byte) (int, error) {
	e.lt.got(append([]byte(nil), p...))
	return len(p), nil
}

// OpenLight opens route at w×h as a light tab.
func (b *Browser) OpenLight(tb testing.TB, base, route string, w, h int) *Light {
	tb.Helper()
	conn, _, err := b.Dial(base, route, base)
	if err != nil {
		tb.Fatalf("opening %s: %v", route, err)
	}
	conn.SetReadLimit(-1)
	tb.Cleanup(func() { _ = conn.CloseNow() })
	p := wsPipe{conn}
	if err := p.resize(w, h); err != nil {
		tb.Fatal(err)
	}
	lt := newLight(p)
	lt.resize = p.resize
	go func() {
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			lt.got(data)
		}
	}()
	return lt
}

// Send types keys.
func (lt *Light) Send(keys string) error {
	_, err := io.WriteString(lt.In, keys)
	return err
}

// Resize tells the server the terminal is now w×h (an SSH window
// change, a tab's size frame).
func (lt *Light) Resize(w, h int) error { return lt.resize(w, h) }

// Mark forgets what came so far.
func (lt *Light) Mark() {
	lt.mu.Lock()
	lt.buf = lt.buf[:0]
	lt.mu.Unlock()
}

// Wait waits until text came since the mark; past Hang it reports the
// miss on tb (tb.Errorf: it may be called from any goroutine) and returns
// false.
func (lt *Light) Wait(tb testing.TB, text string) bool {
	deadline := time.After(Hang)
	for {
		lt.mu.Lock()
		ok := bytes.Contains(lt.buf, []byte(text))
		lt.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-lt.seen:
		case <-deadline:
			tb.Errorf("never saw %q", text)
			return false
		}
	}
}

// WaitAny waits until one of texts came since the mark and returns it;
// past Hang it reports the miss on tb and returns "".
func (lt *Light) WaitAny(tb testing.TB, texts ...string) string {
	deadline := time.After(Hang)
	for {
		lt.mu.Lock()
		for _, text := range texts {
			if bytes.Contains(lt.buf, []byte(text)) {
				lt.mu.Unlock()
				return text
			}
		}
		lt.mu.Unlock()
		select {
		case <-lt.seen:
		case <-deadline:
			tb.Errorf("never saw any of %q", texts)
			return ""
		}
	}
}

// Bytes is how many bytes the server has written in all.
func (lt *Light) Bytes() int {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return lt.n
}

// FencingBar is the text of the bar's step counter at step n of the fencing
// story the benchmarks step through: its question stays open for as long
// as they step back and forth before it, so the story's length reads "?"
// (play.Disclosure.Ahead), never "n/10".
func FencingBar(n int) string { return fmt.Sprintf(" %d/?  t=", n) }
