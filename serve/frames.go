package serve

import (
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// FPS is the most frames a second a served session draws over time, and
// FrameBurst the frames it may draw at once beyond that pace. A key
// usually changes the view two or three times within milliseconds (the
// key, the move's reply, the keys read back): each of those goes out at
// once, and only a longer burst (a mouse drag, a replay) is held to FPS,
// its newest view drawn when its turn comes. Nothing waits while the
// view stays the same.
const (
	FPS        = 30
	FrameBurst = 4
)

// frames draws a served session's view on its terminal as it changes, in
// place of Bubble Tea v1's renderer: that one flushes on a ticker, 60
// times a second unless tea.WithFPS says otherwise, for the program's
// whole life: 60 idle sessions' tickers cost 5 % of a core at 60 and still
// 3 to 4 % at 15 (docs/benchmarks.md), while at 15 a key waits up to 67 ms
// for its frame. Here nothing runs while the view stays the same.
//
// It draws what the course asked Bubble Tea for: the alternate screen,
// the cursor hidden, the mouse reported (all motion, SGR) and bracketed
// paste; stop puts the terminal back. A frame is the lines that changed,
// each at its row, cut to the terminal's width, with the last rows of a
// view taller than the terminal, as Bubble Tea's renderer draws them.
type frames struct {
	out   io.Writer
	every time.Duration // the least time between two frames
	clock Clock

	mu      sync.Mutex
	w, h    int
	started bool
	stopped bool
	shown   []string    // the lines on the screen; nil: draw every line
	pending string      // the newest view, when waiting is set
	waiting func() bool // stops the wait for the pending view; nil: none
	// tokens are the frames that may go out now, up to FrameBurst, one
	// more each 1/FPS since filled
	tokens float64
	filled time.Time
	// taps are the instructors' watches of this screen (watch.go)
	taps map[*watch]bool
}

// newFrames draws on out, a terminal of w×h, at most fps frames a second
// counted on clock.
func newFrames(out io.Writer, w, h, fps int, clock Clock) *frames {
	return &frames{out: out, every: time.Second / time.Duration(fps), clock: clock, w: w, h: h, tokens: FrameBurst, filled: clock.Now()}
}

// model wraps the program's model: each view it returns is drawn, and a
// window size message sets the terminal's size. Bubble Tea calls View
// once after each message, which is when a frame can have changed.
func (f *frames) model(inner tea.Model) tea.Model { return &drawn{inner: inner, f: f} }

type drawn struct {
	inner tea.Model
	f     *frames
	// sized is set once the session's size has reached the inner model.
	// Bubble Tea asks for a view before Init's size message arrives: that
	// view is the course's "needs a terminal of at least 80x24; this one
	// is 0x0", and a browser tab that paints only its first frame (a
	// background tab, a screenshot taken early) kept showing it.
	sized bool
}

func (d *drawn) Init() tea.Cmd {
	// without its own renderer Bubble Tea does not read the terminal's
	// size: the size the session opened with is the first message
	f := d.f
	f.mu.Lock()
	size := tea.WindowSizeMsg{Width: f.w, Height: f.h}
	f.mu.Unlock()
	return tea.Batch(func() tea.Msg { return size }, d.inner.Init())
}

func (d *drawn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.WindowSizeMsg); ok {
		d.f.resize(m.Width, m.Height)
		d.sized = true
	}
	var cmd tea.Cmd
	d.inner, cmd = d.inner.Update(msg)
	return d, cmd
}

func (d *drawn) View() string {
	v := d.inner.View()
	if d.sized {
		d.f.draw(v)
	}
	return v
}

// resize sets the terminal's size; the next frame draws every line on a
// cleared screen, as the old lines may have wrapped or moved.
func (f *frames) resize(w, h int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w == f.w && h == f.h {
		return
	}
	f.w, f.h, f.shown = w, h, nil
}

// draw draws view now if a frame may go out now (tokens), or else when
// the next may.
func (f *frames) draw(view string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	if f.waiting != nil {
		f.pending = view
		return
	}
	f.fill()
	if f.tokens < 1 {
		f.pending = view
		f.waiting = f.clock.AfterFunc(time.Duration((1-f.tokens)*float64(f.every)), f.drawPending)
		return
	}
	f.paint(view)
}

// fill adds the tokens earned since filled. The caller holds mu.
func (f *frames) fill() {
	now := f.clock.Now()
	f.tokens = min(FrameBurst, f.tokens+float64(now.Sub(f.filled))/float64(f.every))
	f.filled = now
}

func (f *frames) drawPending() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waiting = nil
	if !f.stopped {
		f.fill()
		f.paint(f.pending)
	}
	f.pending = ""
}

// paint writes the lines of view that differ from those on the screen.
// The caller holds mu.
func (f *frames) paint(view string) {
	var b strings.Builder
	if !f.started {
		f.started = true
		b.WriteString(ansi.SetAltScreenSaveCursorMode + ansi.HideCursor + ansi.SetBracketedPasteMode +
			ansi.SetAnyEventMouseMode + ansi.SetSgrExtMouseMode)
	}
	if f.shown == nil {
		b.WriteString(ansi.EraseEntireScreen)
	}
	lines := strings.Split(view, "\n")
	if f.h > 0 && len(lines) > f.h {
		lines = lines[len(lines)-f.h:]
	}
	for i, line := range lines {
		if f.shown != nil && i < len(f.shown) && f.shown[i] == line {
			continue
		}
		b.WriteString(ansi.CursorPosition(1, i+1))
		if f.w > 0 {
			line = ansi.Truncate(line, f.w, "")
		}
		b.WriteString(line)
		if ansi.StringWidth(line) < f.w {
			b.WriteString(ansi.EraseLineRight)
		}
	}
	if len(lines) < len(f.shown) {
		b.WriteString(ansi.CursorPosition(1, len(lines)+1) + ansi.EraseScreenBelow)
	}
	f.shown = lines
	if b.Len() == 0 {
		return // the same view again: nothing to send, nothing spent
	}
	if len(f.taps) > 0 {
		f.tell(lines)
	}
	_, _ = io.WriteString(f.out, b.String())
	f.tokens--
}

// stop ends the drawing and gives the terminal back as it was: the main
// screen, the cursor shown, the mouse and bracketed paste off.
func (f *frames) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.stopped = true
	if f.waiting != nil {
		f.waiting()
	}
	if f.started {
		_, _ = io.WriteString(f.out, ansi.ResetSgrExtMouseMode+ansi.ResetAnyEventMouseMode+ansi.ResetBracketedPasteMode+
			ansi.ShowCursor+ansi.ResetAltScreenSaveCursorMode)
	}
}
