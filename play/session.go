package play

import (
	"context"
	"errors"
	"fmt"
	"locksim/check"
	"sync"
	"time"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
)

// Speeds are the pauses between moves while playing, slowest first.
func Speeds() [4]time.Duration {
	return [...]time.Duration{2400 * time.Millisecond, 1200 * time.Millisecond, 600 * time.Millisecond, 250 * time.Millisecond}
}

// Session is one learner in one scene, with no drawing: it owns the
// scene's run and hands it to one command at a time (busy); the last
// snapshot it got back is what the learner sees.
type Session struct {
	Scene   *scenes.Scene
	Text    content.Text
	Backend *sim.Backend
	Seed    uint64
	Params  scenes.Params

	Run     *sim.Run
	Snap    sim.Snapshot
	Ledger  *ledger.Ledger // the fold of snap: once per engine message
	Sel     int
	Node    int // the node picked in a distributed story, -1 for none
	Busy    bool
	Playing bool
	Speed   int
	Err     string
	// Wants says what the learner must pick before the move the last Act
	// refused (see Err) can be made, so the screen can name its own keys
	// for it.
	Wants Want
	ops   *sync.WaitGroup
	ctx   context.Context
	ID    int    // tells this session's messages from a previous scene's
	Note  string // what a busy live run is doing, for the screen
	Gen   int    // counts snapshots, so only the newest live refresh chain runs
	// refreshFails counts failed read-backs in a row; stale is set while
	// the keys on screen are the last ones read, not the server's now.
	refreshFails int
	Stale        bool
	// Flash is a one-time note, shown over the verdict until the next key
	Flash string
	// CancelOp cancels the running command
	CancelOp context.CancelFunc
	// Headless is a reader that reads nothing between moves (a transcript):
	// a live run's clock is never held for it, nor its keys read back.
	Headless bool

	// The prediction at the scene's decisive point: Predict is off with
	// -no-Predict; asking while the question is on screen and the story waits;
	// guess is the learner's choice (-1 before); actual is what the replies
	// made true, once the move has run; hints counts the hints shown.
	Predict  bool
	Present  bool // presenter mode: the clicker passes a question to the class
	Follow   bool // a class's follower: the instructor runs the decisive move
	Passed   bool // the question was put to the class, with no answer typed
	Asking   bool
	Guess    int
	Actual   int
	Revealed bool
	Hints    int
	Hinting  bool // the latest hint is on screen until the next step
	// answering: the answer's move runs; if it is not made, the answer is
	// refused (refuseAnswer) and the question stays open
	answering bool
	// Answered reports a prediction and whether it was right, once.
	Answered func(id string, chosen int, right bool)
	// pending holds the keys pressed while a move ran; they run in order
	// once it is done, so nothing the learner typed is lost or reordered.
	pending []Action
	// kind is what this session plays (story, race, quiz), with what only
	// that kind keeps: see kind
	kind kind
	// look counts the snapshots folded; ex is the explanation of the one
	// on screen, for exFor, and explained counts the explanations made
	look int
	// settled is where the learner stood before the settings changes
	// made since they last moved the story (see resettle); nil for none
	settled *settledAt
	// qAt is the question's step for qFor (see QuestionAt)
	qAt       int
	qFor      *questionKey
	ex        *scenes.Explanation
	exFor     explained
	explained int
}

// explained is what an explanation depends on besides the scene's text.
type explained struct {
	look, sel int
	settings  string
	hide      bool
}

// Explanation is the reading of the snapshot on screen (cards, readout,
// verdict, alarm, scoreboard) for the selected actor: computed once per
// snapshot, settings and selection, however often the screen is drawn.
// While the disclosure hides the state, the cards hide what the keys hold.
func (p *Session) Explanation() scenes.Explanation {
	hide := !p.Disclose(Learner).State
	key := explained{look: p.look, sel: p.Sel, settings: scenes.FormatSettings(p.Scene, p.Params), hide: hide}
	if p.ex == nil || p.exFor != key {
		ex := scenes.Explain(p.Scene, scenes.Frame{Snap: p.Snap, L: p.Ledger, P: p.Params, Sel: p.Sel, Text: p.Text, Hide: hide})
		if note := p.replayNote(); note != "" && p.Sel < 0 {
			ex.Readout = note // the race's own readout says the SETs left at once
		}
		p.ex, p.exFor = &ex, key
		p.explained++
	}
	return *p.ex
}

// CheckedMsg carries the checker's findings on the snapshot of session ID
// that CheckLater was asked for (Gen is that snapshot's Gen plus one).
type CheckedMsg struct {
	ID, Gen int
	Report  check.Report
}

// CheckLater checks the snapshot on screen against the checker's models
// (package check, porcupine) in a command, bounded by check.DefaultTimeout:
// a hard history says unknown rather than make the screen wait.
func (p *Session) CheckLater() Cmd {
	snap, id, gen := p.Snap, p.ID, p.Gen+1
	return func() Msg {
		return CheckedMsg{ID: id, Gen: gen, Report: check.Check(check.FromSnapshot(snap), check.DefaultTimeout)}
	}
}

// Explained is how many times the session has read its snapshot for an
// explanation (see Explanation).
func (p *Session) Explained() int { return p.explained }

// Want is what a refused move needs picked first.
type Want int

const (
	WantNothing Want = iota
	WantActor        // an actor (a client, to cut it off a node)
	WantNode         // a node of a distributed story
)

// RunMsg carries a snapshot back from a command that used the run.
type RunMsg struct {
	ID   int
	Snap sim.Snapshot
	Err  error
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
func (p *Session) refreshLater() Cmd {
	if !p.Snap.Live || p.Snap.Held || p.Headless || (!p.counting() && p.refreshFails == 0) {
		return nil
	}
	wait := refreshEvery
	for i := 0; i < p.refreshFails && wait < refreshMax; i++ {
		wait *= 2
	}
	id, gen := p.ID, p.Gen
	return After(min(wait, refreshMax), refreshTick{id, gen})
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

// counting reports a key whose PTTL is running down on the server.
func (p *Session) counting() bool {
	for _, k := range p.Snap.Keys {
		if k.PTTL > 0 {
			return true
		}
	}
	return false
}

func (p *Session) refresh() Cmd {
	b, id, gen, ctx := p.Backend, p.ID, p.Gen, p.ctx
	// a distributed story's node keys live on servers of their own: the
	// refresh reads the lock service's keys, the nodes' come with each move
	var names []string
	for _, k := range p.Snap.Keys {
		if k.Node == "" {
			names = append(names, k.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return func() Msg {
		keys, err := sim.ReadKeys(ctx, b, names)
		return refreshMsg{id: id, gen: gen, keys: keys, err: err}
	}
}

// do runs f on the run in a command and reports the snapshot afterwards.
//
// On a live server, unless the story is playing, the run then holds the
// story's clock (sim.Run.Hold) so leases wait while the learner reads. esc
// cancels the command (a replay from the start).
func (p *Session) do(f func(ctx context.Context, r *sim.Run) error) Cmd {
	if !p.Busy && p.Note == "" {
		p.Note = "running on the live server…"
	}
	p.Busy = true
	run, id, hold := p.Run, p.ID, !p.Playing && !p.Headless
	ctx, cancel := context.WithCancel(p.ctx)
	p.CancelOp = cancel
	p.ops.Add(1)
	return func() Msg {
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
		return RunMsg{ID: id, Snap: run.Snapshot(p.ctx), Err: err}
	}
}

// ReplayHere rebuilds the run and replays it to the current position: after
// an outage, the server's state is the story's again.
func (p *Session) ReplayHere() Cmd {
	if p.Busy {
		return nil // the caller tries again at the next health tick
	}
	pos := p.Snap.Pos
	cmd := p.Restart()
	if pos > 0 && p.Stepped() {
		p.pending = append([]Action{DoN(Seek, pos)}, p.pending...)
	}
	return cmd
}

// Cancel stops a running command (a live replay), if any.
func (p *Session) Cancel() bool {
	if !p.Busy || p.CancelOp == nil {
		return false
	}
	p.CancelOp()
	return true
}

// Start resets the run (and fires a race scene, for a reader who sees
// the screen). old, if not nil, is the previous scene's run: its keys are
// deleted and its connections closed first, in the same command, so no
// Redis call runs inside Update.
func (p *Session) Start(old *sim.Run) Cmd { return p.begin(old) }

// begin resets the run, after clearing and closing old if it is not nil,
// and fires a race scene. A headless reader (a transcript, a story's
// end played for its code or script) steps from the story's start
// itself, so its race is not fired here: fired, it would be reset and
// fired again (a transcript prints the story from its start), on a live
// server two volleys of SETs for the one the reader reads.
func (p *Session) begin(old *sim.Run) Cmd {
	// decided here, in Update: the command must not read the session
	fire := p.kind.fires() && !p.mustAsk(0) && !p.Headless
	var own []Own
	if k, ok := p.kind.(*storyKind); ok {
		own, k.reown = k.reown, nil
	}
	return p.do(func(ctx context.Context, r *sim.Run) error {
		if old != nil {
			// the old scene's keys go even when the program is quitting
			_ = old.Clear(context.WithoutCancel(ctx))
			old.Close()
		}
		if err := r.Reset(ctx); err != nil {
			return err
		}
		if err := Redo(ctx, r, own); err != nil {
			return err
		}
		if fire {
			return r.Seek(ctx, 1)
		}
		return nil
	})
}

// MoveLabels are the timeline labels of the run's schedule, read from the
// run itself before the first snapshot arrives.
func (p *Session) MoveLabels() []string {
	if p.Snap.Moves != nil {
		return p.Snap.Moves
	}
	var out []string
	for _, m := range p.Run.Moves() {
		out = append(out, sim.MoveLabel(m))
	}
	return out
}

// Restart builds a new run from the current settings and seed: a setting
// can change the actors' programs (the PX a step sends, how it releases),
// not only the schedule.
func (p *Session) Restart() Cmd {
	// a question left open belongs to the story as it stood: the new one
	// asks again when it gets there
	p.Asking, p.Hinting, p.Hints = false, false, 0
	if k, ok := p.kind.(*storyKind); ok {
		k.own, k.reown = nil, nil // the story as written
	}
	old := p.Run
	p.Run = sim.NewRun(p.Backend, p.script(), p.Seed)
	return p.begin(old)
}

// Close deletes the run's keys within ctx and releases its connections;
// call it only when no command is using the run.
func (p *Session) Close(ctx context.Context) {
	_ = p.Run.Clear(ctx)
	p.Run.Close()
}

// SeekTo brings the run to position target. On a live server time runs
// between key presses, so a step forward replays the story from the start
// in real time: the leases then lapse where the story says, not while the
// learner reads, and a step back shows the same history.
func (p *Session) SeekTo(target int) Cmd {
	target = max(0, min(target, len(p.Snap.Moves)))
	if at := p.QuestionAt(); p.Passed && p.Guess < 0 && at >= 0 && target <= at {
		// back at or before the question with no answer for this story: a
		// question passed to the class is open again, for a presenter, a
		// projector and every follower alike, and its answer counts anew
		p.Passed, p.Revealed, p.Actual = false, false, -1
	}
	// the story stops at its decisive point until the learner predicts
	if at := p.QuestionAt(); p.asksHere() && p.Guess < 0 && !p.Passed && at >= p.Snap.Pos && at < target {
		if p.Follow {
			// the instructor ran the move: the question was put to the
			// class, and this follower gave no answer
			p.Asking, p.Passed = false, true
			return p.SeekTo(target)
		}
		target = at
		if target == p.Snap.Pos {
			p.Asking, p.Playing = true, false
			return nil
		}
	}
	if target == p.Snap.Pos {
		return nil
	}
	if p.Snap.Live && target < p.Snap.Pos {
		// a step back replays from the start, for real: say how much story
		// time that takes
		p.Note = fmt.Sprintf("replaying %s of story", storyTime(p.Run.Moves()[:target]))
	}
	return p.do(func(ctx context.Context, r *sim.Run) error { return r.Seek(ctx, target) })
}

func (p *Session) tick() Cmd {
	id := p.ID
	return After(Speeds()[p.Speed], tickMsg{id})
}

// Update handles the session's own messages: a command's snapshot, a
// read-back of a live server's keys, the tick of playback.
func (p *Session) Update(msg Msg) Cmd {
	switch msg := msg.(type) {
	case RunMsg:
		if msg.ID != p.ID {
			return nil
		}
		p.Busy, p.Note = false, ""
		p.Gen++ // a new snapshot: older refresh chains stop
		keys, before := p.Snap.Keys, len(p.Snap.Events)
		p.Snap = msg.Snap
		if msg.Snap.Err != "" {
			// the keys were not read: show the last ones that were
			p.Snap.Keys = keys
		}
		p.Ledger = scenes.Fold(p.Snap)
		p.look++
		p.Hinting = false
		refused := p.refuseAnswer(msg.Err)
		if at := p.QuestionAt(); p.mustAsk(at) && p.Snap.Pos == at && !p.unread(msg.Err, before) {
			p.Asking, p.Playing = true, false
		} else if p.Snap.Pos != at {
			// the question is asked at its step only: stepped back before
			// it, a key is a step again, not an answer or a pass
			p.Asking = false
		}
		p.reveal()
		if p.Sel >= len(p.Snap.Actors) {
			p.Sel = -1
		}
		p.Err, p.Stale = "", msg.Snap.Err != ""
		if msg.Err != nil && msg.Err != context.Canceled {
			p.Err = oneLine(msg.Err)
		} else if msg.Snap.Err != "" {
			p.Err = "reading the keys back: " + msg.Snap.Err
		}
		if refused != "" {
			p.Err = refused
		}
		if p.Playing && p.pauseAtOutage(before) {
			return p.refreshLater()
		}
		if p.Playing {
			if p.Snap.Pos >= len(p.Snap.Moves) || msg.Err != nil {
				p.Playing = false
				if p.Snap.Live && msg.Err == nil && !p.Headless {
					// played through: hold the clock while the learner reads
					return p.do(func(context.Context, *sim.Run) error { return nil })
				}
				return p.refreshLater()
			}
			if p.Snap.Live {
				// no pause on a live server: real time is the story's time
				return p.SeekTo(p.Snap.Pos + 1)
			}
			return p.tick()
		}
		if p.Snap.Live && !p.Snap.Held && !p.Headless && msg.Err == nil && len(p.pending) == 0 {
			// playback was paused while its move ran: hold the clock now
			return p.do(func(context.Context, *sim.Run) error { return nil })
		}
		if msg.Err != nil {
			p.pending = nil // after a failure, start again from what is on screen
		}
		return p.next()
	case refreshTick:
		if msg.id != p.ID || msg.gen != p.Gen || p.Busy {
			return nil
		}
		return p.refresh()
	case refreshMsg:
		if msg.id != p.ID || msg.gen != p.Gen || p.Busy {
			return nil
		}
		if msg.err != nil {
			// never show a state that was not read: keep the last read, and
			// the screen says the server is not answering
			p.refreshFails++
			p.Stale = true
			return p.refreshLater()
		}
		p.refreshFails, p.Stale = 0, false
		for _, k := range p.Snap.Keys {
			if k.Node != "" {
				msg.keys = append(msg.keys, k)
			}
		}
		p.Snap.Keys = msg.keys
		p.Ledger = scenes.Fold(p.Snap)
		p.look++
		return p.refreshLater()
	case tickMsg:
		if msg.id != p.ID || !p.Playing || p.Busy || p.pauseAtOutage(len(p.Snap.Events)) {
			return nil
		}
		return p.SeekTo(p.Snap.Pos + 1)
	}
	return nil
}

// newSession prepares scene sc on backend b, tokens drawn from seed, with
// no run until a position is applied (applyPosition); id
// must differ from every earlier session's in the program, so that
// messages still in flight for a closed scene are dropped. ops counts the
// commands running, for a clean shutdown; ctx ends them all. given, when
// it has sections, is the text the readouts are written from (Env.Text);
// else the scene's text is loaded. A quiz's situations are read from the
// scene's own text either way.
func newSession(ctx context.Context, id int, sc *scenes.Scene, b *sim.Backend, seed uint64, ops *sync.WaitGroup, given content.Text) (*Session, error) {
	text, err := given, error(nil)
	if !given.Has("title") {
		// a transcript gives its handout's form: the screen's, which it
		// never shows, was a tenth of its start to parse
		if text, err = content.Load(sc.ID); err != nil {
			return nil, err
		}
	}
	k, err := kindOf(sc, func() ([]scenes.Situation, error) {
		own, err := content.Load(sc.ID)
		if err != nil {
			return nil, err
		}
		return scenes.Situations(own)
	})
	if err != nil {
		return nil, fmt.Errorf("content/text/%s.txt: %w", sc.ID, err)
	}
	p := &Session{Scene: sc, Text: text, Backend: b, Seed: seed, Params: scenes.Params{}, Sel: -1, Node: -1, Speed: 1, ops: ops, ctx: ctx, ID: id,
		Guess: -1, Actual: -1, kind: k}
	p.Ledger = scenes.Fold(p.Snap)
	return p, nil
}

// IsTimer reports a message that only says time has passed (the playback's
// tick, a live server's read-back due): a synchronous driver drops it, as
// a test never waits for the clock.
func IsTimer(m Msg) bool {
	switch m.(type) {
	case tickMsg, refreshTick:
		return true
	}
	return false
}
