package serve

import (
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"locksim/views"
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

// RunningWait is the longest a session's view waits for a running move
// (see running) before it is drawn anyway.
const RunningWait = 200 * time.Millisecond

// running is a program's model that can say a move of the story runs
// with nothing on screen saying so (the embedded server's moves, which
// show no spinner): the view drawn now would be the one before the move,
// drawn again moments later when the move's message comes. A class's
// step gives each follower a message that starts the move and one when
// it is done; drawing once, after it, halves the views a step costs
// (docs/benchmarks.md).
type running interface{ Running() bool }

// model wraps the program's model: each view it returns is drawn, and a
// window size message sets the terminal's size. Bubble Tea calls View
// once after each message, which is when a frame can have changed. Set
// the returned model's send to the program's Send before it runs.
func (f *frames) model(inner tea.Model) *drawn { return &drawn{inner: inner, f: f} }

type drawn struct {
	inner tea.Model
	f     *frames
	// send is the program's Send, for the wake-up after RunningWait
	send func(tea.Msg)
	// sized is set once the session's size has reached the inner model.
	// Bubble Tea asks for a view before Init's size message arrives: that
	// view is the course's "needs a terminal of at least 80x24; this one
	// is 0x0", and a browser tab that paints only its first frame (a
	// background tab, a screenshot taken early) kept showing it.
	sized bool
	// waiting is set while the views wait for a running move, and late
	// once that wait has lasted RunningWait; waits counts the waits, so
	// that a wake-up names the one it ends
	waiting, late bool
	waits         int
	// last is the last view drawn; stale is set while a newer one was
	// not drawn
	last  string
	stale bool
}

// wake is the message that ends a wait for a running move after
// RunningWait: the view is drawn then, running or not.
type wake struct{ wait int }

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
	switch m := msg.(type) {
	case wake:
		d.late = d.late || d.waiting && m.wait == d.waits
		return d, nil
	case tea.WindowSizeMsg:
		if changed := d.f.resize(m.Width, m.Height); d.sized && !changed {
			// the size the view has already: an SSH client's first window
			// change and a tab's first size frame repeat the size the
			// session opened with, and each view lays out the whole screen
			return d, nil
		}
		d.sized = true
	}
	d.stale = true
	var cmd tea.Cmd
	d.inner, cmd = d.inner.Update(msg)
	return d, cmd
}

func (d *drawn) View() string {
	if !d.stale {
		return d.last // a wake-up after the wait ended: nothing new
	}
	if r, ok := d.inner.(running); ok && d.sized && d.send != nil && !d.late && r.Running() {
		if !d.waiting {
			d.waiting, d.waits = true, d.waits+1
			wait, send := d.waits, d.send
			d.f.clock.AfterFunc(RunningWait, func() { send(wake{wait}) })
		}
		return d.last
	}
	d.waiting, d.late = false, false
	v := d.inner.View()
	if d.sized {
		d.f.draw(v)
		d.last, d.stale = v, false
	}
	return v
}

// resize sets the terminal's size, and reports whether it changed; the
// next frame after a change draws every line on a cleared screen, as the
// old lines may have wrapped or moved.
func (f *frames) resize(w, h int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w == f.w && h == f.h {
		return false
	}
	f.w, f.h, f.shown = w, h, nil
	return true
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
		// a line is measured once, and cut and measured again only when
		// wider than the terminal (most lines fit)
		width := views.Width(line)
		if f.w > 0 && width > f.w {
			line = ansi.Truncate(line, f.w, "")
			width = views.Width(line) // a wide rune at the edge leaves a column
		}
		line, width = blankTail(line, width)
		b.WriteString(line)
		if width < f.w {
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

// blankTail is line without the spaces it ends with, and its width
// without them, when those spaces are drawn in the terminal's default
// colours: after no escape sequence, or after an SGR reset as the last
// one. The erase to the row's end that follows a line narrower than the
// terminal blanks those cells as the spaces would, in fewer bytes: a
// view pads its rows to the width, and an empty row was as many spaces
// (a fifth of a session's bytes, each one parsed by the terminal).
func blankTail(line string, width int) (string, int) {
	trimmed := strings.TrimRight(line, " ")
	n := len(line) - len(trimmed)
	if n == 0 {
		return line, width
	}
	if i := strings.LastIndexByte(trimmed, '\x1b'); i >= 0 {
		if rest := trimmed[i:]; !strings.HasPrefix(rest, "\x1b[0m") && !strings.HasPrefix(rest, "\x1b[m") {
			return line, width // the spaces may be styled: a background, an underline
		}
	}
	return trimmed, width - n
}
