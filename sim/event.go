package sim

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// EventKind says what an event records.
type EventKind int

const (
	Command EventKind = iota // a command an actor sent, with its reply
	Clock                    // the clock moved
	Fault                    // a crash, a pause, a wake-up
	Info                     // a step that could not run, a note from the scene
	Aside                    // bookkeeping the log shows dimmed: the clock held, a server stall
)

// FaultKind says which fault a Fault event records.
type FaultKind int

const (
	NoFault FaultKind = iota
	FaultCrash
	FaultPause
	FaultResume
	FaultNodeDown  // a node stopped
	FaultNodeUp    // a node restarted
	FaultCut       // an actor cannot reach a node (a partition)
	FaultHeal      // the partition healed
	FaultSlow      // a node answers after the client's timeout
	FaultFast      // the node answers promptly again
	FaultClockJump // a node's clock jumped forward
	FaultHang      // a node hung: it reads nothing, and what is sent to it waits
	FaultWake      // a hung node woke and ran what had waited
)

// The nodes of a run: the lock service and the protected resource.
const (
	LockNode     = "lock"
	ResourceNode = "resource"
)

// Event is one thing that happened in a run: the single source for the
// screen, the plain transcript, the ledger and the tests.
type Event struct {
	Seq  int
	Move int // index of the schedule move that produced it; -1 for setup
	// At is story time since the run started, taken when the command was
	// sent: virtual on the embedded server, wire time × scale on a live one.
	At    time.Duration
	Kind  EventKind
	Actor string
	Step  string // the label of the actor's step: "acquire", "release", "write"
	Node  string // LockNode or ResourceNode
	Args  []string
	Cmd   string // Args as the log shows them (scripts by name)
	Reply string // the reply as redis-cli prints it
	// Val and Err are the typed reply: Err is redis.Nil for (nil), a
	// redis.Error for an error reply, anything else for a command whose
	// outcome is unknown (a timeout, a dropped connection).
	Val   any
	Err   error
	Order int // in a race: 1 for the first reply the server sent, and so on
	Fault FaultKind
	// Jump is how far a FaultClockJump moved the node's clock forward.
	Jump time.Duration
	Op   *Op // the lock operation a command belongs to, if any
	Note string
	// Simulated is what locksim did on its own side to play a node's
	// fault on a live server ("locksim stops sending to it"), "" on an
	// embedded node, which really has it. Note and Reply read the same on
	// both kinds of node: this says how the fault was played, which may
	// answer a question about it (what a restart without persistence
	// leaves), so an output shows it only where the disclosure rule
	// shows the state (play.Disclosure.Checked).
	Simulated string
	// Lost marks a command that ran whose reply the story itself dropped
	// on the way back (the lab's lost-reply fault): the story's fault,
	// which a transcript plays on, not an outage that ends it.
	Lost bool
	// Timed is set for a command a timer sent (a watchdog, a retry); Due is
	// the story time it was due, which on a live server is a little before
	// At. Commands due at the same story millisecond collide.
	Timed bool
	Due   time.Duration
	// RTT is how long the command took from sending to its reply, in story
	// time (wire time × scale), on a live server: the server ran it at some
	// moment within [At, At+RTT], and the ledger needs that bound to tell a
	// key removed early from one that ran out while the reply travelled.
	// Zero on the embedded server, whose clock stands still while a command
	// runs, so that its readings stay exact.
	RTT time.Duration
}

// StallNoted is how long a live server may take to answer before the log
// notes that the story's timing stretched.
const StallNoted = 50 * time.Millisecond

// Unknown reports a command whose outcome the client cannot know: it
// failed on the client's side (a timeout, a lost connection), so the
// server may or may not have run it.
func (e Event) Unknown() bool { return e.Kind == Command && unknownErr(e.Err) }

// Outage reports a command whose outcome is unknown for want of a server
// that answers: no fault the story plays explains it (a node's, played on
// locksim's side, or a reply the story drops, Lost).
func (e Event) Outage() bool {
	var played errNode
	return e.Unknown() && !e.Lost && !errors.As(e.Err, &played)
}

// RestartedEmpty reports a node's restart that lost its keys: one without
// persistence, or on a live server the keys locksim deleted to act it out
// (the note says it; a restart with its data changes nothing).
func (e Event) RestartedEmpty() bool {
	return e.Kind == Fault && e.Fault == FaultNodeUp && strings.Contains(e.Note, "without persistence")
}

// Int returns an integer reply.
func (e Event) Int() (int64, bool) { return Reply{Val: e.Val, Err: e.Err}.Int() }

// IsNil reports a nil reply.
func (e Event) IsNil() bool { return errors.Is(e.Err, redis.Nil) }

// IsOK reports a +OK reply.
func (e Event) IsOK() bool { return Reply{Val: e.Val, Err: e.Err}.OK() }

// ErrorReply reports an error reply from the server ((error) ...).
func (e Event) ErrorReply() bool {
	var rerr redis.Error
	return e.Err != nil && !errors.Is(e.Err, redis.Nil) && errors.As(e.Err, &rerr)
}

func unknownErr(err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		return false
	}
	var rerr redis.Error
	return !errors.As(err, &rerr)
}

// Reply is a command's raw reply with its redis-cli rendering.
type Reply struct {
	Val  any
	Err  error
	Text string
}

// OK reports a +OK status reply.
func (r Reply) OK() bool { return r.Err == nil && r.Val == "OK" }

// Nil reports a nil reply ((nil) in redis-cli).
func (r Reply) Nil() bool { return errors.Is(r.Err, redis.Nil) }

// Int returns an integer reply.
func (r Reply) Int() (int64, bool) {
	v, ok := r.Val.(int64)
	return v, ok && r.Err == nil
}

// Str returns a bulk string reply.
func (r Reply) Str() (string, bool) {
	v, ok := r.Val.(string)
	return v, ok && r.Err == nil
}

// Exec is an actor's handle during one step: every command it sends is
// logged as an event with its reply.
type Exec struct {
	r     *Run
	actor *Actor
	move  int
	label string
	ctx   context.Context
	// timed is set for a step a timer runs; dueAt is when it was due.
	timed bool
	dueAt time.Duration
	// lose is set by LoseReply: the step's next lock command runs and its
	// reply is dropped by locksim's own client.
	lose, assume bool
}

// Actor is the actor taking the step.
func (x *Exec) Actor() *Actor { return x.actor }

// Run is the run the step belongs to.
func (x *Exec) Run() *Run { return x.r }

// Key returns the key as sent (under the backend's prefix) and remembers it
// so Reset and Cleanup delete it.
func (x *Exec) Key(name string) string {
	k := x.r.b.Key(name)
	x.r.keys[k] = true
	return k
}

// TTL returns a story duration as the milliseconds actually sent (PX/PEXPIRE).
func (x *Exec) TTL(d time.Duration) int64 { return x.r.Scaled(d).Milliseconds() }

// Do sends one command on the actor's own connection and logs it.
func (x *Exec) Do(args ...any) Reply {
	return x.send(x.r.conns[x.connName()], LockNode, FormatCommand(args), args, nil)
}

// Eval runs a script with EVAL on the actor's connection; the log shows the
// script by name (the full source is in Lua.Src, and on the story page).
func (x *Exec) Eval(s Lua, keys []string, argv ...any) Reply {
	return x.eval(LockNode, s, keys, argv, nil)
}

func (x *Exec) eval(node string, s Lua, keys []string, argv []any, op *Op) Reply {
	x.r.scripts[s.Name] = s
	args := append([]any{"EVAL", s.Src, len(keys)}, toAny(keys)...)
	args = append(args, argv...)
	shown := append([]any{"EVAL", "<" + s.Name + ">", len(keys)}, toAny(keys)...)
	shown = append(shown, argv...)
	c := x.r.conns[x.connName()]
	if node == ResourceNode {
		c = x.r.Res.conns[x.connName()]
	}
	return x.send(c, node, FormatCommand(shown), args, op)
}

// EvalSHA runs s as client libraries do: EVALSHA with the SHA1 of its
// source, and when the server answers NOSCRIPT (it has not cached that
// script) EVAL with the full source, which caches it; both commands are
// logged with their replies. The source ends with a comment naming the run
// and its replay, so each run and each replay has a SHA of its own and the
// first call shows NOSCRIPT again. Nothing is ever flushed: SCRIPT FLUSH
// would empty the cache of every client of a live server.
func (x *Exec) EvalSHA(s Lua, keys []string, argv ...any) Reply {
	return x.evalSHA(LockNode, s, keys, argv, nil)
}

func (x *Exec) evalSHA(node string, s Lua, keys []string, argv []any, op *Op) Reply {
	x.r.scripts[s.Name] = s
	src := x.r.tagged(s)
	args := append([]any{"EVALSHA", scriptSHA(src), len(keys)}, toAny(keys)...)
	args = append(args, argv...)
	shown := append([]any{"EVALSHA", "<" + s.Name + ">", len(keys)}, toAny(keys)...)
	shown = append(shown, argv...)
	c := x.r.conns[x.connName()]
	if node == ResourceNode {
		c = x.r.Res.conns[x.connName()]
	}
	at := len(x.r.Events) // a stall note may follow the command's own event
	first := x.send(c, node, FormatCommand(shown), args, op)
	if first.Err == nil || !strings.HasPrefix(first.Err.Error(), "NOSCRIPT") {
		return first
	}
	// the miss is the library's plumbing, not the lock operation: the
	// ledger reads the EVAL that follows
	x.r.Events[at].Op = nil
	args[0], args[1] = "EVAL", src
	shown[0] = "EVAL"
	return x.send(c, node, FormatCommand(shown), args, op)
}

// tagged is s's source as this run and replay send it.
func (r *Run) tagged(s Lua) string {
	return fmt.Sprintf("%s\n-- locksim %s run %d replay %d", s.Src, r.b.Prefix, r.id, r.replays)
}

// Note logs a line from the actor that is not a command (a belief, a decision).
func (x *Exec) Note(text string) {
	x.r.record(Event{Kind: Info, Actor: x.actor.Name, Step: x.label, Move: x.move, Note: text})
}

func (x *Exec) connName() string {
	if _, ok := x.r.conns[x.actor.Name]; ok {
		return x.actor.Name
	}
	return "scene"
}

func (x *Exec) send(c *redis.Client, node, shown string, args []any, op *Op) Reply {
	if x.lose && op != nil && node == LockNode {
		x.lose = false
		return x.sendLost(c, shown, args, op)
	}
	ctx := x.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	at, sent := x.r.Now(), time.Now()
	val, err := c.Do(ctx, args...).Result()
	took := time.Since(sent)
	var rtt time.Duration
	if x.r.b.Live() {
		rtt = took * time.Duration(x.r.Scale())
	}
	rep := Reply{Val: val, Err: err, Text: FormatReplyWithin(val, err, x.r.b.commandTimeout())}
	x.r.record(Event{
		At:   at,
		Kind: Command, Actor: x.actor.Name, Step: x.label, Move: x.move, Node: node,
		Args: toStrings(args), Cmd: shown, Reply: rep.Text, Val: val, Err: err, Op: op,
		Timed: x.timed, Due: x.due(), RTT: rtt,
	})
	if x.r.b.Live() && took > StallNoted {
		x.r.record(Event{Kind: Aside, Move: -1, Note: x.actor.Name + ": " + fmt.Sprintf(
			"the server took %d ms to answer: the story's timing stretched by %s", took.Milliseconds(),
			FormatSpan(took*time.Duration(x.r.Scale())))})
	}
	return rep
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func toStrings(args []any) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = v
		case int:
			out[i] = strconv.Itoa(v)
		case int64:
			out[i] = strconv.FormatInt(v, 10)
		default:
			out[i] = FormatCommand([]any{v})
		}
	}
	return out
}
