package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"

	tea "github.com/charmbracelet/bubbletea"
)

// speeds are the pauses between moves while playing, slowest first.
var speeds = []time.Duration{2400 * time.Millisecond, 1200 * time.Millisecond, 600 * time.Millisecond, 250 * time.Millisecond}

// Session is one learner in one scene, with no drawing: it owns the
// scene's run and hands it to one command at a time (busy); the last
// snapshot it got back is what the learner sees.
type Session struct {
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
	// refreshFails counts failed read-backs in a row; stale is set while
	// the keys on screen are the last ones read, not the server's now.
	refreshFails int
	stale        bool
	// flash is a one-time note, shown over the verdict until the next key
	flash string
	// cancelOp cancels the running command
	cancelOp context.CancelFunc

	// The prediction at the scene's decisive point: quiz is off with
	// -no-quiz; asking while the question is on screen and the story waits;
	// guess is the learner's choice (-1 before); actual is what the replies
	// made true, once the move has run; hints counts the hints shown.
	quiz     bool
	present  bool // presenter mode: the clicker passes a question to the class
	passed   bool // the question was put to the class, with no answer typed
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
func (p *Session) refreshLater() tea.Cmd {
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

// pick is yes when on is set, else no: a fault's toggle.
func pick(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}

// counting reports a key whose PTTL is running down on the server.
func (p *Session) counting() bool {
	for _, k := range p.snap.Keys {
		if k.PTTL > 0 {
			return true
		}
	}
	return false
}

func (p *Session) refresh() tea.Cmd {
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

// do runs f on the run in a command and reports the snapshot afterwards.
//
// On a live server, unless the story is playing, the run then holds the
// story's clock (sim.Run.Hold) so leases wait while the learner reads. esc
// cancels the command (a replay from the start).
func (p *Session) do(f func(ctx context.Context, r *sim.Run) error) tea.Cmd {
	if !p.busy && p.note == "" {
		p.note = "running on the live server…"
	}
	p.busy = true
	run, id, hold := p.run, p.id, !p.playing
	ctx, cancel := context.WithCancel(p.ctx)
	p.cancelOp = cancel
	p.ops.Add(1)
	return func() tea.Msg {
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
	}
}

// replayHere rebuilds the run and replays it to the current position: after
// an outage, the server's state is the story's again.
func (p *Session) replayHere() tea.Cmd {
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
func (p *Session) cancel() bool {
	if !p.busy || p.cancelOp == nil {
		return false
	}
	p.cancelOp()
	return true
}

// Start resets the run (and fires a race scene). old, if not nil, is the
// previous scene's run: its keys are deleted and its connections closed
// first, in the same command, so no Redis call runs inside Update.
func (p *Session) Start(old *sim.Run) tea.Cmd { return p.begin(old) }

// begin resets the run, after clearing and closing old if it is not nil,
// and fires a race scene.
func (p *Session) begin(old *sim.Run) tea.Cmd {
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
func (p *Session) mustAsk(at int) bool {
	return p.asksHere() && p.guess < 0 && !p.passed && at >= 0 && at == p.sc.PredictAt(p.moveLabels())
}

// asksHere reports that the story asks its question on this server: a
// story only embedded nodes can play does not happen on a live one.
func (p *Session) asksHere() bool {
	return p.quiz && !(p.b.Live() && p.sc.NeedsEmbedded(p.p))
}

// moveLabels are the timeline labels of the run's schedule, read from the
// run itself before the first snapshot arrives.
func (p *Session) moveLabels() []string {
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
func (p *Session) choices() []string {
	if !p.text.Has("choices") {
		return nil
	}
	return strings.Split(p.text.Get("choices"), "\n")
}

// answer takes the learner's prediction and lets the story run the move.
func (p *Session) answer(n int) tea.Cmd {
	if n < 0 || n >= len(p.choices()) {
		return nil
	}
	p.asking, p.guess, p.hinting = false, n, false
	at := p.sc.PredictAt(p.snap.Moves)
	return p.seekTo(at + 1)
}

// reveal, once the decisive move has run, reads what the replies made true.
func (p *Session) reveal() {
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
func (p *Session) restart() tea.Cmd {
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
func (p *Session) Close(ctx context.Context) {
	_ = p.run.Clear(ctx)
	p.run.Close()
}

// seekTo brings the run to position target. On a live server time runs
// between key presses, so a step forward replays the story from the start
// in real time: the leases then lapse where the story says, not while the
// learner reads, and a step back shows the same history.
func (p *Session) seekTo(target int) tea.Cmd {
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

func (p *Session) tick() tea.Cmd {
	id := p.id
	return tea.Tick(speeds[p.speed], func(time.Time) tea.Msg { return tickMsg{id} })
}

// Update handles the session's own messages: a command's snapshot, a
// read-back of a live server's keys, the tick of playback.
func (p *Session) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case runMsg:
		if msg.id != p.id {
			return nil
		}
		p.busy, p.note = false, ""
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
func (p *Session) next() tea.Cmd {
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
func (p *Session) key(act play.Action) (tea.Cmd, bool) {
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
func (p *Session) learnerMove(action play.Verb) (play.Own, string) {
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

// nodeMove is the fault the learner asked for on the picked node (and, to
// cut a link, the selected client), or a one-line reason it cannot be made.
func (p *Session) nodeMove(action play.Verb) (play.Own, string) {
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
