package tui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/views"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// speeds are the pauses between moves while playing, slowest first.
var speeds = []time.Duration{2400 * time.Millisecond, 1200 * time.Millisecond, 600 * time.Millisecond, 250 * time.Millisecond}

// Player plays one scene: it owns the scene's run and hands it to one
// command at a time (busy), and draws from the last snapshot it got back.
type Player struct {
	sc   *scenes.Scene
	text content.Text
	b    *sim.Backend
	seed uint64
	p    scenes.Params

	run     *sim.Run
	snap    sim.Snapshot
	led     *ledger.Ledger // the fold of snap: once per engine message
	sel     int
	node    int // the node picked in a distributed story, -1 for none
	busy    bool
	playing bool
	speed   int
	err     string
	ops     *sync.WaitGroup
	ctx     context.Context
	id      int    // tells this player's messages from a previous scene's
	note    string // what a busy live run is doing, for the screen
	gen     int    // counts snapshots, so only the newest live refresh chain runs
	// scroll is how many log lines back from the newest the log shows.
	scroll int
	// refreshFails counts failed read-backs in a row; stale is set while
	// the keys on screen are the last ones read, not the server's now.
	refreshFails int
	stale        bool
	// banner is the app's word on the server's health, shown over the verdict
	banner string
	// flash is a one-time note, shown over the verdict until the next key
	flash string
	// logRows is how many log lines the last drawing had room for, zones
	// where it drew the cards (the mouse selects by them)
	logRows int
	zones   []views.Zone
	// serverDown is set while the heartbeat says the server does not answer
	serverDown bool
	// spin turns while a live step or a race runs; spinning is set while
	// its tick chain is alive
	spin     spinner.Model
	spinning bool
	// cancelOp cancels the running command
	cancelOp context.CancelFunc

	// The prediction at the scene's decisive point: quiz is off with
	// -no-quiz; asking while the question is on screen and the story waits;
	// guess is the learner's choice (-1 before); actual is what the replies
	// made true, once the move has run; hints counts the hints shown.
	quiz     bool
	present  bool // presenter mode: the clicker passes a question to the class
	passed   bool // the question was put to the class, with no answer typed
	notes    bool // the speaker notes pane is open
	asking   bool
	guess    int
	actual   int
	revealed bool
	hints    int
	hinting  bool // the latest hint is on screen until the next step
	// answered reports a prediction and whether it was right, once.
	answered func(id string, chosen int, right bool)
	// qz is a quiz scene's state; scored reports a quiz's score once every
	// situation of an attempt is answered.
	qz     *quizState
	scored func(id string, right, of int)
	// pending holds the keys pressed while a move ran; they run in order
	// once it is done, so nothing the learner typed is lost or reordered.
	pending []play.Action
	// own are the learner's moves in the schedule, as data, in the order
	// made: a Position carries them, and opening one puts them back (reown,
	// until the run has been reset)
	own   []play.Own
	reown []play.Own
}

// runMsg carries a snapshot back from a command that used the run.
type runMsg struct {
	id   int
	snap sim.Snapshot
	err  error
}

type tickMsg struct{ id int }

// refreshMsg carries keys read back while idle on a live server, where
// leases run down in real time between moves; err is set when the read
// failed, and the next one is tried after a longer wait.
type refreshMsg struct {
	id, gen int
	keys    []sim.KeyState
	err     error
}

type refreshTick struct{ id, gen int }

// refreshEvery is how often a live screen re-reads its keys; after a
// failed read it waits twice as long each time, up to refreshMax.
const (
	refreshEvery = 250 * time.Millisecond
	refreshMax   = 4 * time.Second
)

// refreshLater schedules the next read-back, only while something on the
// screen can change by itself: a key with a positive PTTL on a live server.
func (p *Player) refreshLater() tea.Cmd {
	if !p.snap.Live || p.snap.Held || (!p.counting() && p.refreshFails == 0) {
		return nil
	}
	wait := refreshEvery
	for i := 0; i < p.refreshFails && wait < refreshMax; i++ {
		wait *= 2
	}
	id, gen := p.id, p.gen
	return tea.Tick(min(wait, refreshMax), func(time.Time) tea.Msg { return refreshTick{id, gen} })
}

// counting reports a key whose PTTL is running down on the server.
func (p *Player) counting() bool {
	for _, k := range p.snap.Keys {
		if k.PTTL > 0 {
			return true
		}
	}
	return false
}

func (p *Player) refresh() tea.Cmd {
	b, id, gen, ctx := p.b, p.id, p.gen, p.ctx
	// a distributed story's node keys live on servers of their own: the
	// refresh reads the lock service's keys, the nodes' come with each move
	var names []string
	for _, k := range p.snap.Keys {
		if k.Node == "" {
			names = append(names, k.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return func() tea.Msg {
		keys, err := sim.ReadKeys(ctx, b, names)
		return refreshMsg{id: id, gen: gen, keys: keys, err: err}
	}
}

// newPlayer prepares scene sc; id must differ from every earlier player's,
// so that messages still in flight for a closed scene are dropped.
func newPlayer(ctx context.Context, id int, sc *scenes.Scene, b *sim.Backend, seed uint64, ops *sync.WaitGroup) (*Player, error) {
	text, err := content.Load(sc.ID)
	if err != nil {
		return nil, err
	}
	p := &Player{sc: sc, text: text, b: b, seed: seed, p: scenes.Params{}, sel: -1, node: -1, speed: 1, ops: ops, ctx: ctx, id: id,
		guess: -1, actual: -1, spin: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
	if sc.Kind == scenes.Quiz {
		items, err := scenes.Situations(text)
		if err != nil {
			return nil, fmt.Errorf("content/text/%s.txt: %w", sc.ID, err)
		}
		p.qz = newQuiz(items)
	}
	p.run = sim.NewRun(b, sc.Script(p.p), seed)
	p.led = scenes.Fold(p.snap)
	return p, nil
}

// do runs f on the run in a command and reports the snapshot afterwards.
//
// On a live server, unless the story is playing, the run then holds the
// story's clock (sim.Run.Hold) so leases wait while the learner reads. esc
// cancels the command (a replay from the start).
func (p *Player) do(f func(ctx context.Context, r *sim.Run) error) tea.Cmd {
	if !p.busy && p.note == "" {
		p.note = "running on the live server…"
	}
	p.busy = true
	run, id, hold := p.run, p.id, !p.playing
	ctx, cancel := context.WithCancel(p.ctx)
	p.cancelOp = cancel
	p.ops.Add(1)
	var spin tea.Cmd
	if (p.b.Live() || p.sc.Kind == scenes.Race) && !p.spinning {
		p.spinning, spin = true, p.spin.Tick
	}
	return tea.Batch(spin, func() tea.Msg {
		defer p.ops.Done()
		defer cancel()
		err := f(ctx, run)
		if errors.Is(err, context.Canceled) && p.ctx.Err() == nil {
			// esc cut a replay short: the half-played move (a wait cut
			// short) is not the story, so it starts again from the top
			err = run.Reset(context.WithoutCancel(ctx))
		}
		if hold && err == nil {
			// the leases wait while the learner reads
			err = run.Hold(context.WithoutCancel(ctx))
		}
		return runMsg{id: id, snap: run.Snapshot(p.ctx), err: err}
	})
}

// replayHere rebuilds the run and replays it to the current position: after
// an outage, the server's state is the story's again.
func (p *Player) replayHere() tea.Cmd {
	if p.busy {
		return nil // the caller tries again at the next health tick
	}
	pos := p.snap.Pos
	cmd := p.restart()
	if pos > 0 && p.sc.Kind == scenes.Story {
		p.pending = append([]play.Action{play.DoN(play.Seek, pos)}, p.pending...)
	}
	return cmd
}

// cancel stops a running command (a live replay), if any.
func (p *Player) cancel() bool {
	if !p.busy || p.cancelOp == nil {
		return false
	}
	p.cancelOp()
	return true
}

// Start resets the run (and fires a race scene). old, if not nil, is the
// previous scene's run: its keys are deleted and its connections closed
// first, in the same command, so no Redis call runs inside Update.
func (p *Player) Start(old *sim.Run) tea.Cmd { return p.begin(old) }

// begin resets the run, after clearing and closing old if it is not nil,
// and fires a race scene.
func (p *Player) begin(old *sim.Run) tea.Cmd {
	// decided here, in Update: the command must not read the player
	fire := p.sc.Kind == scenes.Race && !p.mustAsk(0)
	own := p.reown
	p.reown = nil
	return p.do(func(ctx context.Context, r *sim.Run) error {
		if old != nil {
			// the old scene's keys go even when the program is quitting
			_ = old.Clear(context.WithoutCancel(ctx))
			old.Close()
		}
		if err := r.Reset(ctx); err != nil {
			return err
		}
		if err := play.Redo(ctx, r, own); err != nil {
			return err
		}
		if fire {
			return r.Seek(ctx, 1)
		}
		return nil
	})
}

// mustAsk reports that the story may not pass position at before the
// learner answers the prediction: at is where the question stands.
func (p *Player) mustAsk(at int) bool {
	return p.asksHere() && p.guess < 0 && !p.passed && at >= 0 && at == p.sc.PredictAt(p.moveLabels())
}

// asksHere reports that the story asks its question on this server: a
// story only embedded nodes can play does not happen on a live one.
func (p *Player) asksHere() bool {
	return p.quiz && !(p.b.Live() && p.sc.NeedsEmbedded(p.p))
}

// moveLabels are the timeline labels of the run's schedule, read from the
// run itself before the first snapshot arrives.
func (p *Player) moveLabels() []string {
	if p.snap.Moves != nil {
		return p.snap.Moves
	}
	var out []string
	for _, m := range p.run.Moves() {
		out = append(out, sim.MoveLabel(m))
	}
	return out
}

// choices are the prediction's answers, from the course text.
func (p *Player) choices() []string {
	if !p.text.Has("choices") {
		return nil
	}
	return strings.Split(p.text.Get("choices"), "\n")
}

// answer takes the learner's prediction and lets the story run the move.
func (p *Player) answer(n int) tea.Cmd {
	if n < 0 || n >= len(p.choices()) {
		return nil
	}
	p.asking, p.guess, p.hinting = false, n, false
	at := p.sc.PredictAt(p.snap.Moves)
	return p.seekTo(at + 1)
}

// reveal, once the decisive move has run, reads what the replies made true.
func (p *Player) reveal() {
	at := p.sc.PredictAt(p.snap.Moves)
	if (p.guess < 0 && !p.passed) || at < 0 || p.snap.Pos <= at {
		return
	}
	p.actual = p.sc.Predict.Answer(scenes.Frame{Snap: p.snap, L: p.led, P: p.p, Sel: -1, Text: p.text})
	if !p.revealed && p.answered != nil && p.guess >= 0 {
		p.answered(p.sc.ID, p.guess, p.actual == p.guess)
	}
	p.revealed = true
}

// restart builds a new run from the current settings and seed: a setting
// can change the actors' programs (the PX a step sends, how it releases),
// not only the schedule.
func (p *Player) restart() tea.Cmd {
	// a question left open belongs to the story as it stood: the new one
	// asks again when it gets there
	p.asking, p.hinting, p.hints = false, false, 0
	p.own, p.reown = nil, nil // the story as written
	old := p.run
	p.run = sim.NewRun(p.b, p.sc.Script(p.p), p.seed)
	return p.begin(old)
}

// Close deletes the run's keys within ctx and releases its connections;
// call it only when no command is using the run.
func (p *Player) Close(ctx context.Context) {
	_ = p.run.Clear(ctx)
	p.run.Close()
}

// seekTo brings the run to position target. On a live server time runs
// between key presses, so a step forward replays the story from the start
// in real time: the leases then lapse where the story says, not while the
// learner reads, and a step back shows the same history.
func (p *Player) seekTo(target int) tea.Cmd {
	target = max(0, min(target, len(p.snap.Moves)))
	// the story stops at its decisive point until the learner predicts
	if at := p.sc.PredictAt(p.snap.Moves); p.asksHere() && p.guess < 0 && !p.passed && at >= p.snap.Pos && at < target {
		target = at
		if target == p.snap.Pos {
			p.asking, p.playing = true, false
			return nil
		}
	}
	if target == p.snap.Pos {
		return nil
	}
	if p.snap.Live && target < p.snap.Pos {
		// a step back replays from the start, for real: say how much story
		// time that takes
		p.note = fmt.Sprintf("replaying %s of story · esc cancels", storyTime(p.run.Moves()[:target]))
	}
	return p.do(func(ctx context.Context, r *sim.Run) error { return r.Seek(ctx, target) })
}

func (p *Player) tick() tea.Cmd {
	id := p.id
	return tea.Tick(speeds[p.speed], func(time.Time) tea.Msg { return tickMsg{id} })
}

// Update handles a message meant for the player; keys come already matched
// by the app.
func (p *Player) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case runMsg:
		if msg.id != p.id {
			return nil
		}
		p.busy, p.note, p.scroll = false, "", 0
		p.gen++ // a new snapshot: older refresh chains stop
		keys := p.snap.Keys
		p.snap = msg.snap
		if msg.snap.Err != "" {
			// the keys were not read: show the last ones that were
			p.snap.Keys = keys
		}
		p.led = scenes.Fold(p.snap)
		p.hinting = false
		if at := p.sc.PredictAt(p.snap.Moves); p.mustAsk(at) && p.snap.Pos == at {
			p.asking, p.playing = true, false
		}
		p.reveal()
		if p.sel >= len(p.snap.Actors) {
			p.sel = -1
		}
		p.err, p.stale = "", msg.snap.Err != ""
		if msg.err != nil && msg.err != context.Canceled {
			p.err = oneLine(msg.err)
		} else if msg.snap.Err != "" {
			p.err = "reading the keys back: " + msg.snap.Err
		}
		if p.playing {
			if p.snap.Pos >= len(p.snap.Moves) || msg.err != nil {
				p.playing = false
				if p.snap.Live && msg.err == nil {
					// played through: hold the clock while the learner reads
					return p.do(func(context.Context, *sim.Run) error { return nil })
				}
				return p.refreshLater()
			}
			if p.snap.Live {
				// no pause on a live server: real time is the story's time
				return p.seekTo(p.snap.Pos + 1)
			}
			return p.tick()
		}
		if p.snap.Live && !p.snap.Held && msg.err == nil && len(p.pending) == 0 {
			// playback was paused while its move ran: hold the clock now
			return p.do(func(context.Context, *sim.Run) error { return nil })
		}
		if msg.err != nil {
			p.pending = nil // after a failure, start again from what is on screen
		}
		return p.next()
	case spinner.TickMsg:
		if !p.busy {
			p.spinning = false // the chain ends with the work
			return nil
		}
		var cmd tea.Cmd
		p.spin, cmd = p.spin.Update(msg)
		return cmd
	case refreshTick:
		if msg.id != p.id || msg.gen != p.gen || p.busy {
			return nil
		}
		return p.refresh()
	case refreshMsg:
		if msg.id != p.id || msg.gen != p.gen || p.busy {
			return nil
		}
		if msg.err != nil {
			// never show a state that was not read: keep the last read, and
			// the screen says the server is not answering
			p.refreshFails++
			p.stale = true
			return p.refreshLater()
		}
		p.refreshFails, p.stale = 0, false
		for _, k := range p.snap.Keys {
			if k.Node != "" {
				msg.keys = append(msg.keys, k)
			}
		}
		p.snap.Keys = msg.keys
		p.led = scenes.Fold(p.snap)
		return p.refreshLater()
	case tickMsg:
		if msg.id != p.id || !p.playing || p.busy {
			return nil
		}
		return p.seekTo(p.snap.Pos + 1)
	}
	return nil
}

// next runs the keys pressed while the last move ran. A run of steps and
// steps back becomes one seek, so a burst of → on a live server replays
// once, to where the learner wanted to be.
func (p *Player) next() tea.Cmd {
	delta := 0
	for len(p.pending) > 0 && (p.pending[0].Verb == play.Step || p.pending[0].Verb == play.Back) {
		if p.pending[0].Verb == play.Step {
			delta++
		} else {
			delta--
		}
		p.pending = p.pending[1:]
	}
	if delta != 0 {
		if cmd := p.seekTo(p.snap.Pos + delta); cmd != nil {
			return cmd
		}
	}
	if len(p.pending) > 0 && p.pending[0].Verb == play.Seek {
		// opening at a step: -step N, or where the learner left the scene
		k := p.pending[0]
		p.pending = p.pending[1:]
		if cmd := p.seekTo(k.N); cmd != nil {
			return cmd
		}
	}
	for len(p.pending) > 0 {
		k := p.pending[0]
		p.pending = p.pending[1:]
		if cmd, _ := p.key(k); cmd != nil {
			return cmd
		}
	}
	return p.refreshLater()
}

// key applies one of the scene's controls; it returns false if the key
// means nothing here.
func (p *Player) key(act play.Action) (tea.Cmd, bool) {
	action, arg := act.Verb, act.N
	if p.sc.Kind == scenes.Quiz {
		return p.quizKey(act) // no run to wait for: a quiz sends nothing
	}
	n := len(p.snap.Actors)
	switch action {
	case play.Select, play.Next, play.Prev:
		if p.busy && len(p.pending) > 0 {
			// keys run in the order typed: after the moves already waiting
			p.pending = append(p.pending, act)
			return nil, true
		}
	}
	switch action {
	case play.Select:
		if p.asking {
			if p.busy {
				return nil, true // the question waits for the running move
			}
			return p.answer(arg), true
		}
		if arg >= 0 && arg < n {
			p.sel = arg
		}
		return nil, true
	case play.Next:
		if n > 0 {
			p.sel = (p.sel + 1 + n) % n
		}
		return nil, true
	case play.Prev:
		if n > 0 {
			p.sel = (max(p.sel, 0) - 1 + n) % n
		}
		return nil, true
	case play.Hint:
		hints := 0
		for p.text.Has("hint-" + itoa(int64(hints+1))) {
			hints++
		}
		if hints == 0 {
			return nil, false
		}
		if p.hints >= hints {
			// each hint is shown once: say so rather than show the last again
			p.flash = p.text.Get("hints-none")
			return nil, true
		}
		p.hints++
		p.hinting = true
		return nil, true
	case play.Faster:
		p.speed = min(p.speed+1, len(speeds)-1)
		return nil, true
	case play.Slower:
		p.speed = max(p.speed-1, 0)
		return nil, true
	case play.Step, play.Back:
		if p.asking && p.present && action == play.Step && !p.busy {
			// the clicker: the class has seen the question; run the move
			p.asking, p.passed = false, true
			return p.seekTo(p.sc.PredictAt(p.snap.Moves) + 1), true
		}
		if p.sc.Kind != scenes.Story {
			return nil, false
		}
		// the readout follows the story again; select an actor to ask about it
		p.playing, p.sel = false, -1
		if p.busy {
			p.pending = append(p.pending, act)
			return nil, true // run in turn when the running move is done
		}
		delta := 1
		if action == play.Back {
			delta = -1
		}
		return p.seekTo(p.snap.Pos + delta), true
	case play.Play:
		if p.sc.Kind != scenes.Story {
			return nil, false
		}
		p.playing, p.sel = !p.playing, -1
		if p.playing && !p.busy {
			if p.snap.Pos >= len(p.snap.Moves) {
				return p.begin(nil), true // from the top
			}
			// a live story's clock was held where it stopped: go on from there
			return p.seekTo(p.snap.Pos + 1), true
		}
		return nil, true
	}
	if action == play.Node {
		if p.sc.Kind != scenes.Story || arg >= len(p.snap.Nodes) {
			return nil, false
		}
		p.node = arg
		return nil, true
	}
	switch action {
	case play.Home, play.Replay, play.Knob, play.Defaults:
	case play.Crash, play.Pause, play.Wait, play.Move, play.Stop, play.Cut, play.Slow, play.Jump, play.Hang:
		if p.sc.Kind != scenes.Story {
			return nil, false
		}
	default:
		return nil, false
	}
	if p.busy {
		p.pending = append(p.pending, act)
		return nil, true
	}
	p.note, p.err = "", ""
	switch action {
	case play.Home:
		p.playing, p.sel = false, -1
		return p.restart(), true // the story as written, without the learner's moves
	case play.Replay:
		p.playing = false
		p.seed++
		return p.restart(), true
	case play.Knob:
		k := p.sc.Knobs[arg]
		p.p[k.Name] = (p.p[k.Name] + 1) % len(k.Values)
		// the new story replays to the moment the learner was at, so the
		// setting's effect shows at once
		return p.resettle(), true
	case play.Defaults:
		if scenes.FormatSettings(p.sc, p.p) == "" {
			p.flash = "the settings are at their defaults already"
			return nil, true
		}
		p.p = scenes.Params{}
		p.flash = "the settings are back to their defaults"
		return p.resettle(), true
	case play.Crash, play.Pause, play.Wait, play.Move, play.Stop, play.Cut, play.Slow, play.Jump, play.Hang:
		own, msg := p.learnerMove(action)
		if msg != "" {
			p.err = msg
			return nil, true
		}
		m, err := own.Move()
		if err != nil {
			p.err = err.Error()
			return nil, true
		}
		own.At = p.snap.Pos
		p.own = append(p.own, own)
		p.playing = false
		return p.do(func(ctx context.Context, r *sim.Run) error { return r.Insert(ctx, m) }), true
	}
	return nil, false
}

// learnerMove is the move the learner asked for with the selected actor,
// as data, or a one-line reason it cannot be made.
func (p *Player) learnerMove(action play.Verb) (play.Own, string) {
	if action == play.Wait {
		return play.Own{Kind: "wait", MS: p.sc.Wait.Milliseconds()}, ""
	}
	switch action {
	case play.Stop, play.Cut, play.Slow, play.Jump, play.Hang:
		return p.nodeMove(action)
	}
	if p.sel < 0 || p.sel >= len(p.snap.Actors) {
		return play.Own{}, fmt.Sprintf("select an actor first (1-%d or tab)", len(p.snap.Actors))
	}
	a := p.snap.Actors[p.sel]
	switch {
	case a.Status == sim.Crashed && action != play.Move:
		return play.Own{}, a.Name + " has crashed: nothing more can happen to it"
	case action == play.Crash:
		return play.Own{Kind: "crash", Actor: a.Name}, ""
	case action == play.Pause && a.Status == sim.Paused:
		return play.Own{Kind: "resume", Actor: a.Name}, ""
	case action == play.Pause:
		return play.Own{Kind: "pause", Actor: a.Name}, ""
	}
	return play.Own{Kind: "step", Actor: a.Name}, ""
}

// View draws the scene in w columns and h rows.
func (p *Player) View(st views.Styles, w, h int, helpLine, overlayTitle, overlay string) string {
	header := p.header(st, w)
	if overlay != "" {
		// a page of its own: the story or the keys get the whole screen
		return header + "\n" + views.Rule(st, overlayTitle, w) + "\n" + fitRows(overlay, h-3) + "\n" + helpLine
	}
	if p.sc.Kind == scenes.Quiz {
		return p.quizView(st, w, h, header, helpLine)
	}
	ex := scenes.Explain(p.sc, scenes.Frame{Snap: p.snap, L: p.led, P: p.p, Sel: p.sel, Text: p.text})
	top := []string{header}
	cards := views.Cards(st, ex.Cards, p.sel, w)
	p.zones = views.CardZones(cards, len(ex.Cards), len(joinLines(top)))
	top = append(top, cards)
	// at 80 columns the run's key prefix would push the values off the
	// line: the rule over the log names it once instead
	strip := p.snap.Prefix != "" && w < 120
	var hiddenKeys []string
	for _, k := range p.snap.Keys {
		if strip {
			k.Name = strings.TrimPrefix(k.Name, p.snap.Prefix)
		}
		line := keyLine(st, k, p.snap, w)
		if k.Node != "" {
			line = p.nodeLine(st, k, w)
		}
		if p.hiding() && k.Node == "" {
			// the keys as they stand would give the answer away; their names
			// share one row, which leaves the log rows for the setup move
			hiddenKeys = append(hiddenKeys, strings.TrimPrefix(k.Name, p.snap.Prefix))
			continue
		}
		if p.stale || p.serverDown {
			// the server did not answer: this is the last read, not now
			line = st.Dim.Render(truncate(ansi.Strip(line), w-12)) + st.Warn.Render(" (last read)")
		}
		top = append(top, line)
	}
	if len(hiddenKeys) > 0 {
		line := st.Bold.Render(hiddenKeys[0]) + st.Dim.Render("  "+p.hiddenNote())
		if len(hiddenKeys) > 1 {
			line = st.Bold.Render("keys ") + st.Dim.Render(p.hiddenNote()+" ") + strings.Join(hiddenKeys, " · ")
		}
		top = append(top, truncate(line, w))
	}
	if r := p.snap.Resource; r != nil {
		top = append(top, resourceLine(st, *r, w))
	}
	if len(p.sc.Knobs) > 0 {
		var parts []string
		for _, k := range p.sc.Knobs {
			parts = append(parts, st.Key.Render("["+k.Key+"]")+" "+k.Name+": "+st.Bold.Render(p.sc.Value(p.p, k.Name)))
		}
		if p.sc.NeedsEmbedded(p.p) {
			parts = append(parts, st.Warn.Render("needs the embedded server"))
		}
		top = append(top, truncate(strings.Join(parts, "  "), w))
	}

	var bottom []string
	if p.present && h >= 30 {
		bottom = append(bottom, "") // room to breathe on a projector
	}
	bottom = append(bottom, views.Rule(st, "readout", w))
	readout := ex.Readout
	switch {
	case p.err != "" && (p.banner != "" || p.stale):
		// a failure of the server, not of the lock: say so, not a lock outcome
		readout = p.text.Fill("outage", map[string]string{"err": p.err})
	case p.asking && p.present:
		readout = p.text.Get("ask-present")
	case p.asking && p.hints > 0:
		// the question's panel may have no row left for it: the readout has
		readout = "hint: " + p.text.Get("hint-"+itoa(int64(p.hints)))
	case p.asking:
		readout = p.text.Get("ask")
	case p.hinting:
		readout = "hint: " + p.text.Get("hint-"+itoa(int64(p.hints)))
	case p.revealed && p.sel < 0 && p.sc.PredictAt(p.snap.Moves) >= 0 && p.snap.Pos == p.sc.PredictAt(p.snap.Moves)+1:
		// just after the decisive move: the real replies answer the question
		readout = p.verdictOnGuess() + " " + readout
	}
	readoutAt := len(bottom)
	bottom = append(bottom, views.Wrap(readout, w, 3))
	status := ex.Verdict
	if p.hiding() {
		// the verdict, the alarm and the properties as they stand could give
		// the answer away, or contradict the question's premise
		status, ex.Alarm = p.hiddenNote(), ""
	}
	if ex.Alarm != "" && p.banner == "" && p.flash == "" && p.err == "" {
		// the alarm and the verdict both: the scene's verdict line is how
		// a setting is judged
		bottom = append(bottom, truncate(st.Bad.Render("⚠ "+ex.Alarm), w))
		ex.Alarm = ""
	}
	switch {
	case p.banner != "":
		status = st.Bad.Render(p.banner)
	case p.flash != "":
		status = st.Warn.Render(p.flash)
	case p.err != "":
		status = st.Bad.Render("error: " + p.err)
	case ex.Alarm != "":
		status = st.Bad.Render("⚠ " + ex.Alarm)
	case status == "":
		status = st.Bold.Render("verdict ") + st.Dim.Render("nothing observed yet")
	default:
		status = st.Bold.Render("verdict ") + renderTone(st, ex.VerdictTone, status)
	}
	bottom = append(bottom, truncate(status, w))
	if p.hiding() {
		bottom = append(bottom, truncate(st.Bold.Render("properties ")+st.Dim.Render(p.hiddenNote()), w))
	} else {
		bottom = append(bottom, views.Scoreboard(st, ex.Props, w))
	}
	if p.sc.Kind == scenes.Story {
		state := ""
		switch {
		case p.busy && p.snap.Live:
			state = " · " + p.spin.View() + " " + p.note
		case p.playing:
			state = fmt.Sprintf(" · playing, speed %d/%d", p.speed+1, len(speeds))
		}
		bottom = append(bottom, views.Timeline(st, timelineMarks(p.snap), p.snap.Pos, "+"+sim.FormatDuration(p.snap.Now), state, w))
	} else if p.busy {
		bottom = append(bottom, st.Dim.Render(p.spin.View()+" racing…"))
	}
	bottom = append(bottom, helpLine)

	logW, readoutW := logWidth(w, h, !p.asking && !p.notes)
	wide := readoutW > 0
	if wide {
		bottom = append(bottom[:readoutAt-1:readoutAt-1], bottom[readoutAt+1:]...)
	}
	logH := h - len(joinLines(top)) - len(joinLines(bottom)) - 1
	// a readout longer than its three rows takes rows the log leaves empty
	need := strings.Count(lipgloss.NewStyle().Width(max(w, 1)).Render(readout), "\n") + 1
	// (and two rows of a full log, which then scrolls: the readout is the lesson)
	if free := logH - len(p.snap.Events); need > 3 && !p.asking && !p.notes && !wide {
		// a taller screen than 80x24 gives its rows to the readout
		extra := min(need-3, max(free, 2), 3+max(0, h-24))
		bottom[readoutAt] = views.Wrap(readout, w, 3+extra)
		logH -= extra
	}
	// each hint shows once: in the panel, or (the latest, when the panel
	// has no room for it) in the readout instead
	listed := p.hints
	if p.asking && !p.present && p.hints > 0 {
		if len(p.questionLines(st, w, p.hints)) <= logH {
			bottom[readoutAt] = views.Wrap(p.text.Get("ask"), w, 3)
		} else {
			listed--
		}
	}
	sel := ""
	if p.sel >= 0 && p.sel < len(p.snap.Actors) {
		sel = p.snap.Actors[p.sel].Name
	}
	digits := 8
	if logW >= 160 {
		// room for more of each token; a narrower log would cut the
		// longer tokens' heads, which 80 columns show
		digits = 16
	}
	lines := logLines(p.snap, sel, strip, digits)
	// rows a taller screen leaves below the log show a script's source
	script := ""
	if h > 24 && !p.asking && !p.notes {
		script = scriptPanel(st, p.snap, sel, logW, logH-len(lines))
		logH -= strings.Count(script, "\n") + min(len(script), 1)
	}
	p.logRows = max(logH, 0)
	// the whole log in a viewport, which keeps the window inside the ends
	vp := viewport.New(logW, max(logH, 0))
	vp.SetContent(views.Log(st, lines, logW, max(len(lines), logH), 0))
	vp.SetYOffset(len(lines) - logH - p.scroll)
	back := max(0, len(lines)-logH-vp.YOffset)
	rule := "commands, as sent · replies, as redis-cli prints them"
	if strip {
		rule = "commands, as sent under " + p.snap.Prefix + " · replies"
	}
	if back > 0 {
		rule = fmt.Sprintf("commands · %d newer below: ] or the wheel", back)
	} else if len(lines) > logH {
		rule += fmt.Sprintf(" · %d earlier: [", len(lines)-logH)
	}
	middle := views.Rule(st, rule, logW) + "\n" + vp.View()
	if script != "" {
		middle += "\n" + script
	}
	if wide {
		rw := readoutW
		panel := views.Rule(st, "readout", rw) + "\n" + views.Wrap(readout, rw, logH)
		middle = lipgloss.JoinHorizontal(lipgloss.Top, middle, " ", panel)
	}
	switch {
	case p.notes && p.notesRows(w) > logH:
		// more notes than the log has rows: they take the screen, whole
		return top[0] + "\n" + views.Rule(st, "speaker notes · N hides them", w) + "\n" +
			fitRows(views.Wrap(p.text.Get("notes"), w, h-3), h-3) + "\n" + helpLine
	case p.notes:
		middle = views.Rule(st, "speaker notes · N hides them", w) + "\n" + views.Wrap(p.text.Get("notes"), w, logH)
	case p.asking:
		middle = p.questionWithLog(st, lines, listed, w, logH)
	}
	return strings.Join(top, "\n") + "\n" + middle + "\n" + strings.Join(bottom, "\n")
}

// header is the scene's title line, with the server (for a quiz: that it
// sends nothing) on the right.
func (p *Player) header(st views.Styles, w int) string {
	mode := p.snap.Backend
	if len(p.snap.Nodes) > 0 && p.snap.Live && !p.snap.SharedNodes {
		// the story's nodes are servers of their own (-redlock)
		mode = fmt.Sprintf("%d live nodes", len(p.snap.Nodes))
	}
	if p.snap.Live {
		mode += fmt.Sprintf(" ÷%d", p.snap.Scale)
		if p.snap.Capped {
			mode += " (capped)"
		}
	}
	mode += fmt.Sprintf(" · seed %d", p.seed)
	if p.sc.Kind == scenes.Quiz {
		mode = "quiz · sends no command"
	}
	if p.present {
		mode = "presenter · " + mode
	}
	title := st.Title.Render("locksim") + " " + st.Bold.Render(p.sc.ID) + st.Dim.Render(" · "+p.text.Get("dive")+" · ") + p.text.Get("title")
	if ansi.StringWidth(title)+ansi.StringWidth(mode)+1 > w {
		// the dive is on the story page and in the contents: the title stays whole
		title = st.Title.Render("locksim") + " " + st.Bold.Render(p.sc.ID) + st.Dim.Render(" · ") + p.text.Get("title")
	}
	return spread(title, st.Dim.Render(mode), w)
}

// hiding reports that an open question hides what would answer it: the
// keys as read, the verdict, the alarm and the properties. One rule for
// both modes: a presenter's class must not read the answer either.
func (p *Player) hiding() bool { return p.asking }

// hiddenNote stands where a hidden value would be, worded for who answers.
func (p *Player) hiddenNote() string {
	if p.present {
		return "(hidden until the next click)"
	}
	return p.text.Get("verdict-hidden")
}

// questionWithLog is the prediction panel with its first hints hints, in
// rows lines, under the newest log lines when there is room for them: the
// move that set the question up stays in view while the class thinks.
func (p *Player) questionWithLog(st views.Styles, lines []views.LogLine, hints, w, rows int) string {
	ql := p.questionLines(st, w, hints)
	q := fitRows(strings.Join(ql, "\n"), rows)
	tail := min(len(lines), rows-len(ql)-1) // and a rule over the log
	if tail <= 0 {
		return views.Rule(st, "predict", w) + "\n" + q
	}
	return fitRows(views.Rule(st, "commands, newest last", w)+"\n"+views.Log(st, lines, w, tail, 0)+"\n"+
		views.Rule(st, "predict", w)+"\n"+q, rows+1)
}

// questionLines are the prediction panel's rows: the question, the
// numbered choices, and the first hints hints.
func (p *Player) questionLines(st views.Styles, w, hints int) []string {
	var lines []string
	lines = append(lines, strings.Split(views.Wrap(p.text.Get("predict"), w, 3), "\n")...)
	for i, c := range p.choices() {
		lines = append(lines, truncate(st.Key.Render(itoa(int64(i+1)))+") "+c, w))
	}
	for i := 1; i <= hints; i++ {
		lines = append(lines, strings.Split(st.Dim.Render(views.Wrap("hint: "+p.text.Get("hint-"+itoa(int64(i))), w, 2)), "\n")...)
	}
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// verdictOnGuess says whether the prediction came true.
func (p *Player) verdictOnGuess() string {
	choices := p.choices()
	if p.guess < 0 {
		// put to the class: say what the replies answered
		if p.actual < 0 || p.actual >= len(choices) {
			return p.text.Get("reveal-class-none")
		}
		return p.text.Fill("reveal-class", map[string]string{"actual": choices[p.actual]})
	}
	vars := map[string]string{"guess": choices[p.guess]}
	switch {
	case p.actual < 0 || p.actual >= len(choices):
		return p.text.Fill("reveal-none", vars)
	case p.actual == p.guess:
		return p.text.Fill("reveal-right", vars)
	}
	vars["actual"] = choices[p.actual]
	return p.text.Fill("reveal-wrong", vars)
}

func keyLine(st views.Styles, k sim.KeyState, snap sim.Snapshot, w int) string {
	var s string
	if !k.Exists() {
		s = st.Bold.Render(k.Name) + st.Dim.Render("  (no such key)  PTTL -2")
	} else {
		val := k.Value
		if k.Type == "string" {
			val = fmt.Sprintf("%q", scenes.ShortenTokens(val, snap.Actors, snap.Events))
			if who := tokenOwner(k.Value, snap.Events); who != "" {
				val += " (" + who + "'s token)"
			}
		} else if k.Type == "zset" && k.Clock > 0 {
			val = scenes.ShortenTokens(scoreDeadlines(k, snap), snap.Actors, snap.Events)
		} else {
			val = scenes.ShortenTokens(val, snap.Actors, snap.Events)
		}
		ttl := fmt.Sprintf("PTTL %d ms", k.PTTL)
		if snap.Live && snap.Scale > 1 && k.PTTL > 0 {
			ttl += fmt.Sprintf(" (%.1f s of story)", float64(k.PTTL*int64(snap.Scale))/1000)
		}
		if k.PTTL == -1 {
			ttl = st.Warn.Render("PTTL -1 (no expiry)")
		}
		s = st.Bold.Render(k.Name) + " = " + val + "  " + ttl
	}
	return truncate(s, w)
}

// nodeLine is one node of a distributed story: its name (marked when
// picked), its key as read back, and its faults.
func (p *Player) nodeLine(st views.Styles, k sim.KeyState, w int) string {
	mark := "  "
	var n sim.NodeState
	for i, s := range p.snap.Nodes {
		if s.Name == k.Node {
			n = s
			if i == p.node {
				mark = st.Key.Render("▸ ")
			}
		}
	}
	var faults []string
	if n.Slow {
		faults = append(faults, "slow")
	}
	if n.Hung {
		faults = append(faults, fmt.Sprintf("hung · %d waiting", n.Waiting))
	}
	for _, a := range n.Cut {
		faults = append(faults, a+" cut off")
	}
	if n.Skew > 0 {
		faults = append(faults, "clock +"+sim.FormatDuration(n.Skew))
	}
	tail := ""
	if len(faults) > 0 {
		tail = st.Warn.Render(" · " + strings.Join(faults, " · "))
	}
	head := mark + st.Bold.Render(n.Name) + " "
	if k.Down {
		return truncate(head+st.Bad.Render("stopped: answers nothing")+tail, w)
	}
	k.Name = strings.TrimPrefix(k.Name, p.snap.Prefix)
	if p.hiding() {
		// the node's faults are the question's premise; its key may be the answer
		return truncate(head+st.Bold.Render(k.Name)+st.Dim.Render("  "+p.hiddenNote())+tail, w)
	}
	return truncate(head+keyLine(st, k, p.snap, w)+tail, w)
}

// scoreDeadlines shows a sorted set's members; a score that is a time (epoch
// ms, 13 digits) is shown as the time left until it on the server's clock
// as read with the set, in story time, rather than as the raw number.
func scoreDeadlines(k sim.KeyState, snap sim.Snapshot) string {
	var parts []string
	for _, f := range k.Fields {
		score, err := strconv.ParseFloat(f.Value, 64)
		if err != nil || score < 1e12 {
			parts = append(parts, f.Name+"="+f.Value)
			continue
		}
		left := time.Duration(int64(score)-k.Clock) * time.Millisecond * time.Duration(max(snap.Scale, 1))
		switch {
		case left >= 0:
			parts = append(parts, f.Name+" deadline in "+sim.FormatDuration(left))
		default:
			parts = append(parts, f.Name+" deadline passed "+sim.FormatDuration(-left)+" ago")
		}
	}
	return strings.Join(parts, ", ")
}

func resourceLine(st views.Styles, r sim.ResourceState, w int) string {
	s := st.Bold.Render("resource") + " no writes yet"
	if r.Writer != "" {
		s = st.Bold.Render("resource") + fmt.Sprintf(" last write %q by %s", r.Value, r.Writer)
	}
	s += fmt.Sprintf(" · accepted %d · rejected %d", r.Accepted, r.Rejected)
	if r.MaxToken > 0 {
		s += fmt.Sprintf(" · largest token %d", r.MaxToken)
	}
	return truncate(s, w)
}

// timelineMarks turns the schedule into timeline glyphs.
func timelineMarks(s sim.Snapshot) []views.Mark {
	out := make([]views.Mark, len(s.Moves))
	for i, label := range s.Moves {
		g := "●"
		switch s.Kinds[i] {
		case sim.MoveAdvance:
			g = "~"
		case sim.MoveCrash:
			g = "✗"
		case sim.MovePause:
			g = "‖"
		case sim.MoveResume:
			g = "›"
		}
		out[i] = views.Mark{Glyph: g, Label: label}
	}
	return out
}

// about is the scene's introduction, its settings and the source of every
// script the log names by <name>, wrapped to w columns.
func (p *Player) about(w int) string {
	text := p.text.Get("intro")
	for _, k := range p.sc.Knobs {
		text += fmt.Sprintf("\n[%s] %s: %s", k.Key, k.Name, strings.Join(k.Values, " / "))
	}
	if p.sc.Shortest > 0 {
		text += fmt.Sprintf("\nOn a live server this scene runs at ÷%d at most: its %s margin must stay at least %v on the wire.",
			p.sc.Shortest/scenes.MinWire, sim.FormatDuration(p.sc.Shortest), scenes.MinWire)
	}
	lines := strings.Split(lipgloss.NewStyle().Width(max(w, 1)).Render(text), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	out := strings.Join(lines, "\n")
	for _, name := range slices.Sorted(maps.Keys(p.snap.Scripts)) {
		out += "\n\n<" + name + "> as sent with EVAL:\n" + p.snap.Scripts[name].Src
	}
	return out
}

// storyTime is the story time a schedule prefix waits, in seconds.
func storyTime(moves []sim.Move) string {
	var d time.Duration
	for _, m := range moves {
		if m.Kind == sim.MoveAdvance {
			d += m.D
		}
	}
	return fmt.Sprintf("%d s", int(d.Seconds()))
}

// tokenOwner names the actor whose granted acquire wrote value, "" if none:
// a constant value written by several is nobody's in particular.
func tokenOwner(value string, events []sim.Event) string {
	owner := ""
	for _, e := range events {
		if e.Op != nil && e.Op.Kind == sim.OpAcquire && e.Op.Token == value && value != "" {
			if owner != "" && owner != e.Actor {
				return ""
			}
			owner = e.Actor
		}
	}
	return owner
}

// scrollLog moves the log view by d lines (positive: back in time), no
// further back than the first line: the view stops at both ends.
func (p *Player) scrollLog(d int) {
	p.scroll = max(0, min(p.scroll+d, len(p.snap.Events)-p.logRows))
}

// nodeMove is the fault the learner asked for on the picked node (and, to
// cut a link, the selected client), or a one-line reason it cannot be made.
func (p *Player) nodeMove(action play.Verb) (play.Own, string) {
	if p.node < 0 || p.node >= len(p.snap.Nodes) {
		return play.Own{}, "pick a node first (A-" + string(rune('A'+max(len(p.snap.Nodes)-1, 0))) + ")"
	}
	n := p.snap.Nodes[p.node]
	switch action {
	case play.Stop:
		if n.Down {
			return play.Own{Kind: "restart", Node: n.Name}, ""
		}
		return play.Own{Kind: "stop", Node: n.Name}, ""
	case play.Slow:
		return play.Own{Kind: pick(n.Slow, "prompt", "slow"), Node: n.Name}, ""
	case play.Hang:
		return play.Own{Kind: pick(n.Hung, "wake", "hang"), Node: n.Name}, ""
	case play.Jump:
		if n.Simulated {
			return play.Own{}, sim.ErrClockFixed.Error()
		}
		// a TTL and a second more: a key set within that second expires too
		return play.Own{Kind: "jump", Node: n.Name, MS: (p.sc.Wait + time.Second).Milliseconds()}, ""
	}
	if p.sel < 0 || p.sel >= len(p.snap.Actors) {
		return play.Own{}, fmt.Sprintf("select a client first (1-%d), then u cuts it off node %s", len(p.snap.Actors), n.Name)
	}
	a := p.snap.Actors[p.sel].Name
	return play.Own{Kind: pick(slices.Contains(n.Cut, a), "heal", "cut"), Actor: a, Node: n.Name}, ""
}

// pick is yes when on is set, else no: a fault's toggle.
func pick(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}

// notesRows is how many rows the speaker notes take at width w: measured
// only when they are on screen.
func (p *Player) notesRows(w int) int {
	return strings.Count(lipgloss.NewStyle().Width(max(w, 1)).Render(p.text.Get("notes")), "\n") + 1
}
