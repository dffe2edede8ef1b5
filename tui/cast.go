package tui

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// CastOptions shape a recorded run (Cast, CastCourse).
type CastOptions struct {
	// Width and Height are the recorded terminal's size, at least
	// MinWidth x MinHeight; zero for 80x24.
	Width, Height int
	// NoQuiz records the story without its question (-no-quiz): no
	// question frame and no marker for it.
	NoQuiz bool
	// HighContrast draws with the high-contrast theme (-theme).
	HighContrast bool
}

// castPause is how long each frame of a cast shows before the next, on
// top of the story time the step took; castIdleLimit is the longest
// pause a player keeps (the header's idle_time_limit), so a 40 s wait of
// the story plays in a few seconds.
const (
	castPause     = 2 * time.Second
	castIdleLimit = 4 * time.Second
)

// castProfile is the colour profile of every cast: 256 colours on a dark
// background, whatever the terminal or the environment that records it,
// so one code makes the same bytes on every machine.
const castProfile = termenv.ANSI256

// Cast writes the story pos stands in as an asciicast v2 file (the format
// of asciinema 2 and 3, its web player, svg-term and agg) to w: a header
// with the size, the scene's title and an idle-time limit, and no
// timestamp or environment; then one full repaint of the screen per step,
// drawn by the real player at that size with 256 colours on a dark
// background, timed by story time (castPause per step plus the story time
// it took), not by the wall clock. It starts at the story's first step
// with the learner's own moves in place and ends at pos.Step; at the
// scene's question it shows the question with a marker ("m" event)
// labelled with it, then pos's prediction: the choice made, or the
// question put to the class (as when none was made). A position at or
// before its open question (play.Disclose, role Cast) ends at its step,
// at the latest at the question's frame and marker.
// The selection pos names is applied to the last frame. A quiz is one
// frame, of its place. On the embedded server the same pos makes the same
// bytes (a race only when pos carries its record); b must be embedded.
func Cast(ctx context.Context, w io.Writer, b *sim.Backend, pos play.Position, o CastOptions) error {
	if err := pos.Check(); err != nil {
		return err
	}
	c, err := newCaster(w, b, o)
	if err != nil {
		return err
	}
	dive, title := scenes.Heading(pos.Scene)
	c.header("locksim · " + pos.Scene + " · " + dive + " · " + title)
	if err := c.story(ctx, b, pos); err != nil {
		return err
	}
	return c.close()
}

// CastCourse writes the whole course as one asciicast v2 file (see Cast):
// each scene's first story played to its end with its question put to the
// class, a quiz's first situation, each scene opened by a marker that
// names it. Tokens come from seed.
func CastCourse(ctx context.Context, w io.Writer, b *sim.Backend, seed uint64, o CastOptions) error {
	c, err := newCaster(w, b, o)
	if err != nil {
		return err
	}
	c.header("locksim · the course")
	for i, sc := range scenes.All() {
		pos := play.Position{Version: play.PositionVersion, Scene: sc.ID, Seed: seed}
		if sc.Sends() {
			pos.Step = len(sc.Script(nil).Moves)
		}
		_, title := scenes.Heading(sc.ID)
		c.scene = fmt.Sprintf("scene %d of %d · %s: %s", i+1, len(scenes.All()), sc.ID, title)
		if err := c.story(ctx, b, pos); err != nil {
			return fmt.Errorf("scene %s: %w", sc.ID, err)
		}
	}
	return c.close()
}

// caster writes one cast: its header, then each event at a time that
// only rises.
type caster struct {
	w             *bufio.Writer
	o             CastOptions
	st            views.Styles
	at            time.Duration // the time of the latest event
	frames        int
	scene         string // a marker that goes with the next frame, if any
	width, height int
}

func newCaster(w io.Writer, b *sim.Backend, o CastOptions) (*caster, error) {
	if b.Live() {
		return nil, errors.New("a cast records the embedded server's story, whose clock is virtual: run it without -redis")
	}
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = MinWidth, MinHeight
	}
	if o.Width < MinWidth || o.Height < MinHeight {
		return nil, fmt.Errorf("a cast needs at least %dx%d, got %dx%d", MinWidth, MinHeight, o.Width, o.Height)
	}
	// a renderer of the cast's own: never the process's, whose profile
	// follows the terminal, TERM, COLORTERM and NO_COLOR
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(castProfile)
	r.SetHasDarkBackground(true)
	return &caster{w: bufio.NewWriter(w), o: o, st: views.NewStyles(r, o.HighContrast), width: o.Width, height: o.Height}, nil
}

// header writes the asciicast v2 header: no timestamp and no environment,
// so the file depends on the story alone.
func (c *caster) header(title string) {
	h := struct {
		Version       int     `json:"version"`
		Width         int     `json:"width"`
		Height        int     `json:"height"`
		IdleTimeLimit float64 `json:"idle_time_limit"`
		Title         string  `json:"title"`
	}{2, c.width, c.height, castIdleLimit.Seconds(), title}
	data, _ := json.Marshal(h)
	c.w.Write(append(data, '\n'))
}

// event writes one event after wait: [time, code, data].
func (c *caster) event(wait time.Duration, code, data string) {
	c.at += wait
	var s strings.Builder
	enc := json.NewEncoder(&s)
	enc.SetEscapeHTML(false)
	enc.Encode(data)
	fmt.Fprintf(c.w, "[%s, %q, %s]\n", strconv.FormatFloat(c.at.Seconds(), 'f', 3, 64), code, strings.TrimSuffix(s.String(), "\n"))
}

// frame writes the app's screen as one full repaint, wait after the last
// frame, with the scene's marker when one waits.
func (c *caster) frame(a *App, wait time.Duration) {
	if c.frames == 0 {
		wait = 0
	}
	lines := strings.Split(a.View(), "\n")
	lines = lines[:min(len(lines), c.height)]
	out := "\x1b[H\x1b[2J" + strings.Join(lines, "\r\n")
	if c.frames == 0 {
		// the player's terminal, as a full-screen program leaves it: the
		// alternate screen, with no cursor over it, until castEnd
		out = castStart + out
	}
	c.event(wait, "o", out)
	c.frames++
	if c.scene != "" {
		c.event(0, "m", c.scene)
		c.scene = ""
	}
}

// castStart and castEnd open and close the recorded screen: the cast plays
// on the alternate screen with the cursor hidden, and leaves the player's
// terminal as it found it (its cursor back, its own screen back, a shell
// prompt where it was), as a full-screen program does when it quits.
const (
	castStart = "\x1b[?1049h\x1b[?25l"
	castEnd   = "\x1b[?25h\x1b[?1049l"
)

// close ends the cast: the last frame stays a step's pause, then the
// player's terminal is given back.
func (c *caster) close() error {
	if c.frames > 0 {
		c.event(castPause, "o", castEnd)
	}
	return c.w.Flush()
}

// story opens pos's story at its start in an app of its own and records
// it to pos.Step (see Cast).
func (c *caster) story(ctx context.Context, b *sim.Backend, pos play.Position) error {
	start := pos
	start.Step, start.Prediction, start.Selected, start.Node = 0, nil, "", ""
	a, err := NewCourse(b, Options{Position: &start, Styles: &c.st, NoQuiz: c.o.NoQuiz})
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = a.pl.Run.Clear(sctx) // the next story starts on an empty server
		a.Shutdown(sctx)
	}()
	castRun(a, a.Update, tea.WindowSizeMsg{Width: c.width, Height: c.height})
	castDo(a, a.Init())
	if !a.pl.Sends() {
		c.frame(a, castPause)
		return c.err(a)
	}
	if err := c.err(a); err != nil {
		return err
	}
	c.frame(a, castPause)
	// a position past the question without an answer opens with it passed
	// (play.Open): so does its cast
	pred := play.Prediction{Chosen: -1, Passed: true}
	if pos.Prediction != nil {
		pred = *pos.Prediction
	}
	// the rule, asked for a cast's viewer: a position at or before its
	// open question records the story no further than the question, whose
	// answer (its author's, if any) is the viewer's to give
	last := pos.Step
	if d := play.Disclose(pos, play.Cast); d.Open && d.At >= 0 {
		last = min(last, d.At)
	}
	for a.pl.Snap.Pos < last {
		if err := ctx.Err(); err != nil {
			return err
		}
		from, before := a.pl.Snap.Pos, a.pl.Snap.Now
		castDo(a, a.pl.seekTo(from+1))
		if a.pl.Asking {
			// the question, for the class to think about
			c.frame(a, castPause)
			c.event(0, "m", "predict: "+strings.Join(strings.Fields(a.pl.Question("predict")), " "))
			if a.pl.Snap.Pos >= last {
				break // the position stands at the open question
			}
			c.answer(a, pred)
		}
		if err := c.err(a); err != nil {
			return err
		}
		if a.pl.Snap.Pos == from {
			return fmt.Errorf("the story did not move on from step %d", from)
		}
		c.frame(a, castPause+a.pl.Snap.Now-before)
	}
	if pos.Selected != "" || pos.Node != "" {
		// the moment as the learner saw it: the card and node picked
		a.pl.Select(slices.IndexFunc(a.pl.Snap.Actors, func(x sim.Actor) bool { return x.Name == pos.Selected }))
		a.pl.PickNode(slices.IndexFunc(a.pl.Snap.Nodes, func(n sim.NodeState) bool { return n.Name == pos.Node }))
		castRun(a, a.Update, tea.WindowSizeMsg{Width: c.width, Height: c.height})
		c.frame(a, castPause)
	}
	return nil
}

// answer gives the question on screen pred: the choice made, or, passed,
// the question put to the class (as a presenter's click does).
func (c *caster) answer(a *App, pred play.Prediction) {
	if pred.Chosen >= 0 && !pred.Passed {
		cmd, _ := a.pl.key(play.DoN(play.Select, pred.Chosen), a.com.Keys)
		castDo(a, cmd)
		return
	}
	o := a.pl.Options()
	o.Present = true
	a.pl.Configure(o)
	cmd, _ := a.pl.key(play.Do(play.Step), a.com.Keys)
	o.Present = false
	a.pl.Configure(o)
	castDo(a, cmd)
}

// err is the failure of the app's last move, if any.
func (c *caster) err(a *App) error {
	if a.pl.Err != "" {
		return errors.New(a.pl.Err)
	}
	return nil
}

// castDo runs cmd as the Bubble Tea runtime would, but with no timers:
// its message goes to the app, and the commands that leads to run in turn
// (a batch's one by one); a spinner's tick, which only turns the spinner,
// is dropped. The embedded server's moves need no timer to end.
func castDo(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case nil, tea.QuitMsg, spinner.TickMsg, healthTick:
	case tea.BatchMsg:
		for _, c := range m {
			castDo(a, c)
		}
	default:
		if !play.IsTimer(m) {
			castRun(a, a.Update, m)
		}
	}
}

// castRun hands msg to update and runs what it leads to.
func castRun(a *App, update func(tea.Msg) (tea.Model, tea.Cmd), msg tea.Msg) {
	_, cmd := update(msg)
	castDo(a, cmd)
}
