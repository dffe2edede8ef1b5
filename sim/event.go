package sim

import (
	"context"
	"strconv"
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
)

// Event is one thing that happened in a run: the single source for the
// screen, the plain transcript and the tests.
type Event struct {
	Seq   int
	Move  int           // index of the schedule move that produced it; -1 for setup
	At    time.Duration // time since the run started (virtual on the embedded server)
	Kind  EventKind
	Actor string
	Step  string // the label of the actor's step: "acquire", "release", "write"
	// Store is "" for the lock service and "resource" for the protected resource.
	Store string
	Args  []string // the command as sent, keys with their prefix
	Cmd   string   // Args as redis-cli echoes them (scripts by name)
	Reply string   // the reply as redis-cli prints it
	Order int      // in a race: 1 for the first reply the server sent, and so on
	Note  string
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
func (r Reply) Nil() bool { return r.Err == redis.Nil }

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
	return x.send(x.r.conns[x.connName()], "", FormatCommand(args), args)
}

// Eval runs a script with EVAL on the actor's connection; the log shows the
// script by name (the full source is in Lua.Src).
func (x *Exec) Eval(s Lua, keys []string, argv ...any) Reply {
	args := append([]any{"EVAL", s.Src, len(keys)}, toAny(keys)...)
	args = append(args, argv...)
	shown := append([]any{"EVAL", "<" + s.Name + ">", len(keys)}, toAny(keys)...)
	shown = append(shown, argv...)
	return x.send(x.r.conns[x.connName()], "", FormatCommand(shown), args)
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

func (x *Exec) send(c *redis.Client, store, shown string, args []any) Reply {
	ctx := x.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	val, err := c.Do(ctx, args...).Result()
	rep := Reply{Val: val, Err: err, Text: FormatReply(val, err)}
	x.r.record(Event{
		Kind: Command, Actor: x.actor.Name, Step: x.label, Move: x.move, Store: store,
		Args: toStrings(args), Cmd: shown, Reply: rep.Text,
	})
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
