package serve

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/serve/termtest"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/x/ansi"
)

// sink keeps what frames wrote.
type sink struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// take returns what was written since the last take.
func (s *sink) take() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.b.String()
	s.b.Reset()
	return out
}

// TestFramesDrawOnlyWhatChanged: the first frame sets the terminal up and
// draws every line; the same view again sends nothing; a changed line is
// the only one sent; a resize clears and draws every line; a shorter view
// erases the rows below it; stop gives the terminal back.
func TestFramesDrawOnlyWhatChanged(t *testing.T) {
	out, clock := &sink{}, newFakeClock()
	f := newFrames(out, 20, 5, FPS, clock)
	f.draw("one\ntwo\nthree")
	first := out.take()
	for _, want := range []string{ansi.SetAltScreenSaveCursorMode, ansi.HideCursor, ansi.SetAnyEventMouseMode, ansi.EraseEntireScreen, "one", "two", "three"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first frame lacks %q: %q", want, first)
		}
	}

	clock.Advance(time.Second)
	f.draw("one\ntwo\nthree")
	if got := out.take(); got != "" {
		t.Errorf("the same view again sent %q", got)
	}
	f.draw("one\nTWO\nthree")
	if got, want := out.take(), ansi.CursorPosition(1, 2)+"TWO"+ansi.EraseLineRight; got != want {
		t.Errorf("one line changed: sent %q, want %q", got, want)
	}

	clock.Advance(time.Second)
	f.resize(30, 5)
	f.draw("one\nTWO\nthree")
	if got := out.take(); !strings.HasPrefix(got, ansi.EraseEntireScreen) || !strings.Contains(got, "one") || !strings.Contains(got, "three") {
		t.Errorf("after a resize: %q", got)
	}

	clock.Advance(time.Second)
	f.draw("one")
	if got, want := out.take(), ansi.CursorPosition(1, 2)+ansi.EraseScreenBelow; got != want {
		t.Errorf("a shorter view: sent %q, want %q", got, want)
	}

	f.stop()
	if got := out.take(); !strings.Contains(got, ansi.ResetAltScreenSaveCursorMode) || !strings.Contains(got, ansi.ShowCursor) || !strings.Contains(got, ansi.ResetAnyEventMouseMode) {
		t.Errorf("stop: %q", got)
	}
	f.draw("after")
	if got := out.take(); got != "" {
		t.Errorf("a view after stop sent %q", got)
	}
}

// TestFramesPace: FrameBurst frames go out at once; a view past them
// waits for the next 1/FPS, and only the newest of the views that came
// meanwhile is drawn; after a pause a burst goes out at once again; a stop
// drops a view that waits.
func TestFramesPace(t *testing.T) {
	out, clock := &sink{}, newFakeClock()
	f := newFrames(out, 20, 5, FPS, clock)
	for i := range FrameBurst {
		view := fmt.Sprintf("burst %d", i)
		f.draw(view)
		if got := out.take(); !strings.Contains(got, view) {
			t.Fatalf("frame %d of a burst waited: sent %q", i, got)
		}
	}
	f.draw("b")
	f.draw("c")
	if got := out.take(); got != "" {
		t.Fatalf("views past the burst went out at once: %q", got)
	}
	clock.Advance(time.Second / FPS)
	if got := out.take(); strings.Contains(got, "b") || !strings.Contains(got, "c") {
		t.Errorf("after 1/FPS: sent %q, want the newest view only", got)
	}
	clock.Advance(time.Second)
	for i := range FrameBurst {
		view := fmt.Sprintf("again %d", i)
		f.draw(view)
		if got := out.take(); !strings.Contains(got, view) {
			t.Fatalf("frame %d of a burst after a pause waited: sent %q", i, got)
		}
	}
	f.draw("e")
	f.stop()
	out.take()
	clock.Advance(time.Second)
	if got := out.take(); got != "" {
		t.Errorf("a view that waited past the stop sent %q", got)
	}
}

// TestNoFrameTicker: an open session runs no renderer of Bubble Tea's,
// whose ticker would wake it 60 times a second for its whole life
// (TestIdleIsQuiet, in the slow tier, checks that an idle session draws
// no view and sends no byte).
func TestNoFrameTicker(t *testing.T) {
	_, addr := testServer(t, Config{Clock: newFakeClock()})
	tm := termtest.Open(t, termtest.Dial(t, addr, "student", termtest.NewKey(t)), "xterm-256color", 100, 30)
	tm.WaitFor("the course: Redis distributed locks", "1  race")
	for _, g := range termtest.Goroutines() {
		if strings.Contains(g, "bubbletea.(*standardRenderer)") {
			t.Fatalf("a session runs Bubble Tea's renderer:\n%s", g)
		}
	}
}

// mover is a course that runs a move: start sets it running, done ends
// it; it counts the views it is asked for.
type mover struct {
	moving bool
	step   int
	views  int
}

type (
	startMove struct{}
	endMove   struct{}
)

func (m *mover) Init() tea.Cmd { return nil }

func (m *mover) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case startMove:
		m.moving = true
	case endMove:
		m.moving = false
		m.step++
	}
	return m, nil
}

func (m *mover) View() string { m.views++; return fmt.Sprintf("step %d", m.step) }

func (m *mover) Running() bool { return m.moving }

// TestViewsWaitForARunningMove: while the course runs a move that shows
// nothing on screen (a follower's step on the embedded server), the
// message that started it draws no view; the move's end draws the one
// after it. A move that runs past RunningWait is drawn then, and a
// wake-up for a wait already over draws nothing.
func TestViewsWaitForARunningMove(t *testing.T) {
	out, clock := &sink{}, newFakeClock()
	m := &mover{}
	d := newFrames(out, 20, 5, FPS, clock).model(m)
	var sent []tea.Msg
	d.send = func(msg tea.Msg) { sent = append(sent, msg) }
	update := func(msg tea.Msg) string {
		d.Update(msg)
		d.View()
		return out.take()
	}
	if got := update(tea.WindowSizeMsg{Width: 20, Height: 5}); !strings.Contains(got, "step 0") || m.views != 1 {
		t.Fatalf("the first frame: %q, %d views", got, m.views)
	}
	if got := update(startMove{}); got != "" || m.views != 1 {
		t.Errorf("a move started: sent %q, %d views, want none", got, m.views)
	}
	if got := update(endMove{}); !strings.Contains(got, "step 1") || m.views != 2 {
		t.Errorf("the move ended: sent %q, %d views, want step 1 in a second", got, m.views)
	}

	// the first move's wait ended before its wake-up: that draws nothing
	clock.Advance(RunningWait)
	if len(sent) != 1 {
		t.Fatalf("%d wake-ups, want 1", len(sent))
	}
	if got := update(sent[0]); got != "" || m.views != 2 {
		t.Errorf("a wake-up after its move ended: sent %q, %d views, want none past 2", got, m.views)
	}

	update(startMove{})
	clock.Advance(RunningWait - time.Millisecond)
	if len(sent) != 1 {
		t.Fatalf("a wake-up before RunningWait: %v", sent[1:])
	}
	clock.Advance(time.Millisecond)
	if len(sent) != 2 {
		t.Fatalf("after RunningWait: %d wake-ups, want 2", len(sent))
	}
	if update(sent[1]); m.views != 3 {
		t.Errorf("a move past RunningWait: %d views, want its view drawn (3)", m.views)
	}
	update(endMove{})
	if m.views != 4 {
		t.Errorf("the long move's end: %d views, want 4", m.views)
	}
}

// TestFramesCutWideLines: a line wider than the terminal is cut to its
// width, one with a wide rune across the edge a column short (and that
// column erased), and only a line short of the width has the rest of its
// row erased.
func TestFramesCutWideLines(t *testing.T) {
	out := &sink{}
	f := newFrames(out, 10, 4, FPS, newFakeClock())
	f.draw("0123456789ABC\n012345678世\n0123456789\nshort")
	frame := out.take()
	for _, c := range []struct {
		row       int
		line      string
		wantErase bool
	}{{1, "0123456789", false}, {2, "012345678", true}, {3, "0123456789", false}, {4, "short", true}} {
		at := ansi.CursorPosition(1, c.row) + c.line
		i := strings.Index(frame, at)
		if i < 0 {
			t.Fatalf("row %d is not %q: %q", c.row, c.line, frame)
		}
		rest := frame[i+len(at):]
		if erased := strings.HasPrefix(rest, ansi.EraseLineRight); erased != c.wantErase {
			t.Errorf("row %d %q: the rest of the row erased %v, want %v: %q", c.row, c.line, erased, c.wantErase, frame)
		}
		if c.row == 1 && strings.Contains(frame, "ABC") {
			t.Errorf("the wide line was not cut: %q", frame)
		}
		if c.row == 2 && strings.Contains(frame, "世") {
			t.Errorf("the wide rune across the edge was drawn: %q", frame)
		}
	}
}
