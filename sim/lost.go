package sim

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrReplyLost is what a client reads when the reply to a command that ran
// was lost on the way back: a timeout, as a Redis client reports one. It is
// not a redis.Error, so the command's outcome is unknown to the client
// (Event.Unknown). locksim plays the loss on its own side, on the embedded
// server and on a live one alike: the server runs the command and sends its
// reply, and locksim's client reads it and reports this instead.
var ErrReplyLost = errNode{"i/o timeout: outcome unknown (simulated)"}

// lostSimulated is how a live server's lost reply was played, for
// Event.Simulated: shown only once the question it could answer is past.
const lostSimulated = "the server ran the command and replied; locksim's client read the reply and reported a timeout"

// LoseReply makes the next lock command of this step lose its reply: the
// server runs it, and the actor hears a timeout (ErrReplyLost). What the
// command did is read on the backend's own connection, the key before and
// after (Op.Seen), so the ledger knows what ran though the actor does not.
func (x *Exec) LoseReply() { x.lose, x.assume = true, false }

// LoseReplyAssumed is LoseReply for a client that goes on as though the
// command had succeeded (Op.Assumed).
func (x *Exec) LoseReplyAssumed() { x.lose, x.assume = true, true }

// sendLost sends args on c, reads op's key before and after on the
// backend's own connection, and logs the command as run with its reply
// lost: the reply itself is dropped, never logged or believed.
func (x *Exec) sendLost(c *redis.Client, shown string, args []any, op *Op) Reply {
	ctx := x.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	op.Assumed = x.assume
	before, known := x.r.keyNow(ctx, op.Key)
	at := x.r.Now()
	_, err := c.Do(ctx, args...).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		var rerr redis.Error
		if !errors.As(err, &rerr) {
			// a real failure to reach the server: log it as it is
			rep := Reply{Err: err, Text: FormatReplyWithin(nil, err, x.r.b.commandTimeout())}
			x.r.record(Event{At: at, Kind: Command, Actor: x.actor.Name, Step: x.label, Move: x.move, Node: LockNode,
				Args: toStrings(args), Cmd: shown, Reply: rep.Text, Err: err, Op: op, Timed: x.timed, Due: x.due()})
			return rep
		}
	}
	if after, ok := x.r.keyNow(ctx, op.Key); ok && known {
		op.Seen = &KeyChange{Had: before.Had, Before: before.Before, TTLBefore: before.TTLBefore,
			Has: after.Has, After: after.After, TTLAfter: after.TTLAfter}
	}
	simulated := ""
	if x.r.b.Live() {
		simulated = lostSimulated
	}
	rep := Reply{Err: ErrReplyLost, Text: FormatReply(nil, ErrReplyLost)}
	x.r.record(Event{At: at, Kind: Command, Actor: x.actor.Name, Step: x.label, Move: x.move, Node: LockNode,
		Args: toStrings(args), Cmd: shown, Reply: rep.Text, Err: ErrReplyLost, Op: op, Lost: true,
		Timed: x.timed, Due: x.due(), Simulated: simulated})
	return rep
}

// keyNow is key's value and TTL left in story time (-1 for none), read on
// the backend's own connection, as both halves of a KeyChange; known is
// false when it could not be read or is not a string.
func (r *Run) keyNow(ctx context.Context, key string) (c KeyChange, known bool) {
	a := r.b.Admin()
	v, err := a.Get(ctx, key).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return KeyChange{TTLBefore: -1, TTLAfter: -1}, true
	case err != nil:
		return c, false
	}
	ttl := time.Duration(-1)
	if ms, err := a.Do(ctx, "PTTL", key).Int64(); err == nil && ms >= 0 {
		ttl = time.Duration(ms) * time.Millisecond * time.Duration(max(r.Scale(), 1))
	}
	return KeyChange{Had: true, Has: true, Before: v, After: v, TTLBefore: ttl, TTLAfter: ttl}, true
}

// FormSetNXGet is an acquire that also tells: SET key token NX PX ms GET
// (NX with GET since Redis 7.0, t_string.c). It answers the value the key
// held before, whether or not it set anything: (nil) when the key was free
// and the SET made it; a value when NX refused it, which is the actor's
// own token when the key is already its own.
const FormSetNXGet = "SET NX GET"

// AcquireAgain is a retry of the actor's acquire with the same token, as a
// client library resends a command whose reply did not come: SET key token
// NX PX ms, and with get the GET option too (FormSetNXGet). The actor
// believes what the reply tells it: OK, or with GET (nil) or its own token,
// makes it the holder. NX refusing the SET means PX was not applied: a key
// already its own keeps the TTL its first SET gave it.
func (x *Exec) AcquireAgain(spec AcquireSpec, get bool) Reply {
	a := x.actor
	key := x.Key(spec.Key)
	args := []any{"SET", key, a.Token, "NX", "PX", x.TTL(spec.TTL)}
	op := &Op{Kind: OpAcquire, Form: FormSET, Lock: spec.lock(), Key: key, Token: a.Token, NX: true, TTL: spec.TTL}
	if get {
		args = append(args, "GET")
		op.Form = FormSetNXGet
	}
	r := x.send(x.conn(), LockNode, FormatCommand(args), args, op)
	v, isStr := r.Str()
	switch {
	case r.OK(), get && r.Nil(), get && isStr && v == a.Token:
		a.Holds, a.Lock, a.Value = true, op.Lock, a.Token
	case r.Nil(), get && isStr:
		a.Holds = false
	}
	return r
}

// CheckOwn is the GET a client sends after an acquire whose reply did not
// come, to compare with its token: the key holding its own token makes it
// the holder; anything else leaves it without the lock.
func (x *Exec) CheckOwn(spec AcquireSpec) Reply {
	a := x.actor
	key := x.Key(spec.Key)
	// its token is the one its unanswered SET sent, not a granted one's
	op := &Op{Kind: OpCheck, Lock: spec.lock(), Key: key, Token: a.Token}
	args := []any{"GET", key}
	r := x.send(x.conn(), LockNode, FormatCommand(args), args, op)
	v, _ := r.Str()
	x.actor.Checked, x.actor.CheckedOwn = true, v == a.Token
	if v == a.Token && r.Err == nil {
		a.Holds, a.Lock, a.Value = true, spec.lock(), a.Token
	}
	return r
}

// GiveUpOwn logs a client's decision to stop trying to acquire, with the
// lock key as it stands then (Op.Seen): a key holding its own token is a
// lease it does not know it holds (ledger.WastedLeases).
func (x *Exec) GiveUpOwn(spec AcquireSpec, why string) {
	ctx := x.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	a := x.actor
	key := x.Key(spec.Key)
	op := &Op{Kind: OpGiveUp, Form: GiveUpFast, Lock: spec.lock(), Key: key, Token: a.Token}
	if now, ok := x.r.keyNow(ctx, key); ok {
		op.Seen = &now
	}
	a.Holds = false
	x.r.record(Event{Kind: Info, Actor: a.Name, Step: x.label, Move: x.move, Note: a.Name + " gives up: " + why, Op: op})
}
