package sim

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Status is where an actor stands in its program.
type Status int

const (
	Ready   Status = iota // can take its next step
	Paused                // frozen (a GC pause, a stopped VM): it keeps its beliefs
	Crashed               // gone for good: its remaining steps never run
	Done                  // has run every step of its program
)

func (s Status) String() string {
	return [...]string{"ready", "paused", "crashed", "done"}[s]
}

// A Step is one move of an actor's program. Run issues the step's commands
// through x and may branch on their replies.
type Step struct {
	Label string
	Run   func(x *Exec)
}

// ActorSpec names an actor and gives it a program.
type ActorSpec struct {
	Name    string
	Program []Step
}

// Actor is an actor's state during a run. Its beliefs (Holds, Fence,
// CheckedOwn) come from the replies it got, and may be wrong: that is the
// point of several scenes.
type Actor struct {
	Name string // the holder id: stable for the whole run
	// Token is the token of the actor's latest acquisition (128 bits as
	// hex), or the one its first acquisition will use. Every acquisition
	// mints a fresh one, so a handle from an earlier one can be told apart.
	Token  string
	Status Status
	PC     int // index of the next step
	Steps  []string

	Holds bool   // it believes it holds Lock
	Lock  string // the lock it last acquired
	Value string // the value its latest granted acquire wrote
	Fence int64  // its fencing token, 0 if none
	// Started is when its distributed acquire read its clock; Votes the
	// nodes that said OK since.
	Started    time.Duration
	Votes      []string
	Checked    bool // it has sent the GET of a client-side release
	CheckedOwn bool // that GET returned its own token

	acquired int           // acquisitions minted so far
	rng      *rand.ChaCha8 // its own seeded source: fresh tokens after the first
	jitter   *rand.Rand    // its own seeded source of random delays
}

// Next returns the label of the actor's next step, or "" when it has none.
func (a Actor) Next() string {
	if a.PC < len(a.Steps) {
		return a.Steps[a.PC]
	}
	return ""
}

// MoveKind says what a move of the schedule does.
type MoveKind int

const (
	MoveStep    MoveKind = iota // the actor runs its next step
	MoveAdvance                 // the clock moves forward by D (story time)
	MoveCrash                   // the actor crashes
	MovePause                   // the actor freezes
	MoveResume                  // the actor wakes
	MoveDo                      // a scene-defined move (e.g. a concurrent race)
)

// Move is one entry of a schedule. D is story time: a run divides it by the
// backend's Scale before it waits or sends it.
type Move struct {
	Kind  MoveKind
	Actor string
	D     time.Duration
	Label string
	Do    func(ctx context.Context, r *Run)
}

// StepOf is the move in which actor runs its next step.
func StepOf(actor string) Move { return Move{Kind: MoveStep, Actor: actor} }

// Advance is the move in which d of story time passes.
func Advance(d time.Duration) Move { return Move{Kind: MoveAdvance, D: d} }

// Crash is the move in which actor crashes for good.
func Crash(actor string) Move { return Move{Kind: MoveCrash, Actor: actor} }

// Pause is the move in which actor freezes, beliefs intact.
func Pause(actor string) Move { return Move{Kind: MovePause, Actor: actor} }

// Resume is the move in which a paused actor wakes.
func Resume(actor string) Move { return Move{Kind: MoveResume, Actor: actor} }

// Script is everything a scene hands the engine: its actors, the keys it
// uses (names before the prefix), the keys the inspector reads back after
// every move, an optional setup step, and the schedule that tells the story.
type Script struct {
	Actors []ActorSpec
	Keys   []string
	Watch  []string
	Setup  func(x *Exec)
	Moves  []Move
	// Resource asks for a protected resource on a store of its own.
	Resource bool
	// Nodes names the lock servers of a distributed story (Redlock's
	// masters, or a primary and its replica): each is a server of its own.
	// Empty for a single-instance story, which uses the backend itself.
	Nodes []string
	// MaxScale caps the backend's scale for this story, so its shortest
	// duration stays a few wire milliseconds long; 0 for no cap.
	MaxScale int
}

// Run executes a Script against a backend. It is not safe for concurrent
// use: a TUI hands it to one command at a time and draws Snapshots.
type Run struct {
	b      *Backend
	script Script
	seed   uint64

	conns   map[string]*redis.Client
	scripts map[string]Lua
	Actors  []*Actor
	Events  []Event
	Res     *Resource

	now   time.Duration // virtual time on the embedded server
	start time.Time     // real start on a live server
	// holds is the clock held on a live server (nil while it runs); heldAt
	// when it was held; heldFor the real time it was held in all.
	holds   []hold
	heldAt  time.Time
	heldFor time.Duration
	// owed are the holds a -redlock node that did not answer never got
	// back (see resume): given back once it answers again
	owed []hold
	pos  int // moves applied
	// edited is set once the learner has inserted a move: the scene's own
	// labels for later steps may no longer say what they will do.
	edited bool
	keys   map[string]bool
	// timers are the actors' running timers (watchdogs, retry loops);
	// timerSeq orders those due at the same time by when they started.
	timers   []*timer
	timerSeq int
	// replays counts Resets: it tags the run's scripts, so a replay loads
	// them afresh and shows EVALSHA's NOSCRIPT again.
	replays int
	nodes   []*node // the script's nodes, opened at the first Reset
	shared  bool    // the nodes are namespaces of one live server
	id      int64   // the run's number on its backend
}

// NewRun prepares a run of script on b, with tokens drawn from seed. Call
// Reset before applying moves; Close releases its connections.
func NewRun(b *Backend, script Script, seed uint64) *Run {
	r := &Run{b: b, id: b.runs.Add(1), script: script, seed: seed, conns: map[string]*redis.Client{}, keys: map[string]bool{}, scripts: map[string]Lua{}}
	for _, a := range script.Actors {
		r.conns[a.Name] = b.NewConn()
	}
	r.conns["scene"] = b.NewConn()
	for _, k := range script.Keys {
		r.keys[b.Key(k)] = true
	}
	return r
}

// Backend returns the backend the run talks to.
func (r *Run) Backend() *Backend { return r.b }

// Conn returns the actor's own connection.
func (r *Run) Conn(actor string) *redis.Client { return r.conns[actor] }

// Actor returns the named actor, or nil.
func (r *Run) Actor(name string) *Actor {
	for _, a := range r.Actors {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Edited reports that the learner has inserted moves into the schedule.
func (r *Run) Edited() bool { return r.edited }

// Pos is the number of schedule moves applied so far.
func (r *Run) Pos() int { return r.pos }

// Moves returns the schedule.
func (r *Run) Moves() []Move { return r.script.Moves }

// Now is the story time since the run started: virtual on the embedded
// server; on a live one, real time multiplied by the scale, so a lease
// sent as PX 1500 at ÷20 is a 30 s lease on the story's clock.
func (r *Run) Now() time.Duration {
	if r.b.Live() {
		wire := time.Since(r.start) - r.heldFor
		if r.holds != nil {
			wire -= time.Since(r.heldAt)
		}
		return (wire * time.Duration(r.Scale())).Round(time.Millisecond)
	}
	return r.now
}

// Scaled divides a story duration by the backend's scale: what is actually
// sent or waited.
func (r *Run) Scaled(d time.Duration) time.Duration { return d / time.Duration(r.Scale()) }

// Scale is what story time is divided by on the wire: the backend's scale,
// capped by the script's MaxScale.
func (r *Run) Scale() int { return r.script.ScaleOn(r.b) }

// ScaleOn is what story time is divided by when the script runs on b:
// b's scale, capped by MaxScale.
func (s Script) ScaleOn(b *Backend) int {
	if s.MaxScale > 0 && b.Scale > s.MaxScale {
		return s.MaxScale
	}
	return b.Scale
}

// Reset deletes every key the run has used, rewinds the clock, draws the
// same tokens again from the seed and runs the setup step. The schedule is
// kept; no move is applied.
func (r *Run) Reset(ctx context.Context) error {
	if err := r.Clear(ctx); err != nil {
		return err
	}
	if r.Res == nil && r.script.Resource {
		res, err := newResource(ctx, r)
		if err != nil {
			return err
		}
		r.Res = res
	}
	if r.nodes == nil && len(r.script.Nodes) > 0 {
		if err := r.openNodes(); err != nil {
			return err
		}
	}
	r.now, r.start, r.pos = 0, time.Now(), 0
	r.holds, r.heldFor, r.owed = nil, 0, nil
	// Back to the epoch: every key of the run is gone, so nothing keeps a
	// remaining TTL across the jump back (miniredis would keep it).
	r.setClock(0)
	r.Events = nil
	r.timers, r.timerSeq = nil, 0
	r.replays++
	var seed [32]byte
	binary.LittleEndian.PutUint64(seed[:], r.seed)
	rng := rand.NewChaCha8(seed)
	r.Actors = nil
	for i, spec := range r.script.Actors {
		var tok [16]byte
		_, _ = rng.Read(tok[:])
		a := &Actor{Name: spec.Name, Token: hex.EncodeToString(tok[:])}
		var own [32]byte
		binary.LittleEndian.PutUint64(own[:], r.seed)
		binary.LittleEndian.PutUint64(own[8:], uint64(i)+1)
		a.rng = rand.NewChaCha8(own)
		binary.LittleEndian.PutUint64(own[16:], 1)
		a.jitter = rand.New(rand.NewChaCha8(own))
		for _, s := range spec.Program {
			a.Steps = append(a.Steps, s.Label)
		}
		r.Actors = append(r.Actors, a)
	}
	if r.script.Setup != nil {
		r.script.Setup(&Exec{r: r, actor: &Actor{Name: "scene"}, move: -1, label: "setup", ctx: ctx})
	}
	return nil
}

// Clear deletes every key the run has used, on the lock service and on the
// protected resource's store, and nothing else.
func (r *Run) Clear(ctx context.Context) error {
	if err := r.b.Delete(ctx, slices.Sorted(maps.Keys(r.keys))...); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if err := r.resetNodes(ctx); err != nil {
		return err
	}
	if r.Res != nil {
		return r.Res.reset(ctx)
	}
	return nil
}

// Seek brings the run to k applied moves: forward by applying moves, back by
// Reset and replaying the first k (on the embedded server this lands on
// exactly the same events; on a live server it runs again for real).
func (r *Run) Seek(ctx context.Context, k int) error {
	k = max(0, min(k, len(r.script.Moves)))
	if k != r.pos {
		if err := r.resume(ctx); err != nil {
			return err
		}
	}
	if k < r.pos {
		if err := r.Reset(ctx); err != nil {
			return err
		}
	}
	for r.pos < k {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.echo(ctx)
		r.apply(ctx, r.script.Moves[r.pos])
		r.pos++
	}
	// a wait cut short by ctx is not the story's: say so to the caller
	return ctx.Err()
}

// Insert puts m into the schedule at the current point and applies it; the
// rest of the story stays after it. This is the learner taking over as
// scheduler: a crash or a pause injected here plays out in what follows.
func (r *Run) Insert(ctx context.Context, m Move) error {
	if err := r.resume(ctx); err != nil {
		return err
	}
	r.script.Moves = slices.Insert(slices.Clone(r.script.Moves), r.pos, m)
	r.edited = true
	return r.Seek(ctx, r.pos+1)
}

// StepEcho is the line -label sends with ECHO before move i (from 0) of
// the schedule, and the export writes before its commands.
func StepEcho(i int, label string) string {
	return fmt.Sprintf("step %d: %s", i+1, label)
}

// echo marks the next move in a live server's command stream (see
// Backend.Label). Its reply is not the story's, so a failure is left to
// the move's own commands to show.
func (r *Run) echo(ctx context.Context) {
	if !r.b.Label || !r.b.Live() {
		return
	}
	_ = r.b.admin.Do(ctx, "ECHO", StepEcho(r.pos, MoveLabel(r.script.Moves[r.pos]))).Err()
}

func (r *Run) apply(ctx context.Context, m Move) {
	switch m.Kind {
	case MoveStep:
		r.step(ctx, m)
	case MoveAdvance:
		r.advance(ctx, m.D)
	case MoveCrash, MovePause, MoveResume:
		a := r.Actor(m.Actor)
		if a == nil {
			return
		}
		switch {
		case m.Kind == MoveCrash && a.Status != Crashed:
			a.Status = Crashed
			r.dropTimers(a.Name)
			r.record(Event{Kind: Fault, Fault: FaultCrash, Actor: a.Name, Note: a.Name + " crashed"})
		case m.Kind == MovePause && (a.Status == Ready || a.Status == Done):
			// a worker that has run its steps may still hold the lock: it can freeze too
			a.Status = Paused
			r.record(Event{Kind: Fault, Fault: FaultPause, Actor: a.Name, Note: a.Name + " paused (stop-the-world)"})
		case m.Kind == MoveResume && a.Status == Paused:
			a.Status = Ready
			r.record(Event{Kind: Fault, Fault: FaultResume, Actor: a.Name, Note: a.Name + " resumed"})
			r.wake(ctx, a.Name)
		}
	case MoveDo:
		if m.Do != nil {
			m.Do(ctx, r)
		}
	}
}

func (r *Run) step(ctx context.Context, m Move) {
	a := r.Actor(m.Actor)
	if a == nil {
		return
	}
	switch {
	case a.Status == Crashed:
		r.record(Event{Kind: Info, Actor: a.Name, Note: a.Name + " is down: the step never runs"})
		return
	case a.Status == Paused:
		r.record(Event{Kind: Info, Actor: a.Name, Note: a.Name + " is frozen: the step waits"})
		return
	case a.PC >= len(a.Steps):
		r.record(Event{Kind: Info, Actor: a.Name, Note: a.Name + " has nothing left to do"})
		return
	}
	var spec ActorSpec
	for _, s := range r.script.Actors {
		if s.Name == a.Name {
			spec = s
		}
	}
	st := spec.Program[a.PC]
	a.PC++
	if a.PC == len(a.Steps) {
		defer func() {
			if a.Status == Ready {
				a.Status = Done
			}
		}()
	}
	st.Run(&Exec{r: r, actor: a, move: r.pos, label: st.Label, ctx: ctx})
}

// Record appends an event at the current time under the current move.
// Scene-defined moves use it to log what they did.
func (r *Run) Record(e Event) { r.record(e) }

func (r *Run) record(e Event) {
	e.Seq = len(r.Events)
	if e.Move == 0 {
		e.Move = r.pos
	}
	if e.Kind != Command {
		e.At = r.Now() // a command's time is when it was sent
	}
	if e.Kind == Command && e.Node == "" {
		e.Node = LockNode
	}
	r.Events = append(r.Events, e)
}

// mint returns the token of a's next acquisition: the one drawn at Reset
// for the first, a fresh one from a's own seeded source after that.
func (r *Run) mint(a *Actor) string {
	if a.acquired > 0 && a.rng != nil {
		var tok [16]byte
		_, _ = a.rng.Read(tok[:])
		a.Token = hex.EncodeToString(tok[:])
	}
	a.acquired++
	return a.Token
}

// setClock moves every embedded node of the run to story time at.
func (r *Run) setClock(at time.Duration) {
	r.b.setClock(at)
	if r.Res != nil && r.Res.b != r.b {
		r.Res.b.setClock(at)
	}
	for _, n := range r.nodes {
		if n.own {
			n.b.setClock(at + n.skew)
		}
	}
}

// Scripts returns the scripts the run has sent, by name, for the story
// page: the log shows a script by name, the page shows its source.
func (r *Run) Scripts() map[string]Lua { return maps.Clone(r.scripts) }

// Close releases the run's connections. It does not delete keys; the
// backend's Close does that on a live server.
func (r *Run) Close() {
	for _, c := range r.conns {
		_ = c.Close()
	}
	if r.Res != nil {
		r.Res.close()
	}
	r.closeNodes()
}

// FormatDuration prints a moment of story time as seconds with
// milliseconds, 30.000s: the log's and the timeline's timestamps, which
// line up in a column. A length of time is FormatSpan's.
func FormatDuration(d time.Duration) string {
	return fmt.Sprintf("%.3fs", d.Seconds())
}

// FormatSpan prints a length of time as the course text writes one, the
// unit after a space: "30 s", "1.5 s", "9.898 s"; under a second in
// milliseconds with at most one decimal: "50 ms", "2.5 ms".
func FormatSpan(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	}
	// tenths of a millisecond, rounded half away from zero
	half := 50 * time.Microsecond
	if d < 0 {
		half = -half
	}
	if tenths := (d + half) / (100 * time.Microsecond); tenths > -10000 && tenths < 10000 {
		ms := strconv.FormatInt(int64(tenths/10), 10)
		if tenths < 0 && tenths > -10 {
			ms = "-0"
		}
		if f := tenths % 10; f != 0 {
			ms += "." + strconv.FormatInt(int64(max(f, -f)), 10)
		}
		return ms + " ms"
	}
	s := strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".")
	return s + " s"
}
