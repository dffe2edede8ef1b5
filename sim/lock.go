package sim

import (
	"time"

	"github.com/redis/go-redis/v9"
)

// OpKind names the lock operation a command belongs to.
type OpKind int

const (
	OpAcquire     OpKind = iota + 1 // SET NX PX, SETNX, or the fenced acquire script
	OpExpire                        // EXPIRE / PEXPIRE after SETNX: the split acquire's second half
	OpRelease                       // DEL, or DEL after a GET, or the compare-and-delete script
	OpExtend                        // the compare-and-PEXPIRE script
	OpCheck                         // GET before a DEL: is the key still mine?
	OpWrite                         // an unfenced write to the protected resource
	OpFencedWrite                   // a write carrying a fencing token
	OpGiveUp                        // not a command: a client stops trying to acquire (sim/timeout.go)
	OpPeek                          // GET before a SET: is the key free? (the check-then-set acquire)
)

func (k OpKind) String() string {
	return [...]string{"", "acquire", "expire", "release", "extend", "check", "write", "fenced write", "give up", "peek"}[k]
}

// The forms an acquire or a release can take; the ledger reads a reply
// by its form (OK or (nil) for SET, 1 or 0 for SETNX, a number or (nil)
// for the fenced script; 1, 0 or -1 for the scripts).
const (
	FormSET     = "SET"       // SET key value [NX] [PX ms]
	FormSETNX   = "SETNX"     // SETNX key value, no expiry
	FormFenced  = "fenced"    // EVAL: SET NX PX, then INCR of the fence counter
	FormDEL     = "DEL"       // blind DEL
	FormGetDel  = "GET+DEL"   // DEL after a GET that returned the token
	FormScript  = "script"    // compare-and-delete / compare-and-PEXPIRE: 1, 0, -1
	FormExpire  = "EXPIRE"    // EXPIRE key s
	FormPExpire = "PEXPIRE"   // PEXPIRE key ms
	FormWrite   = "write"     // the resource's unfenced write
	FormFenceW  = "fenced-wr" // the resource's fenced write
	FormQuorum  = "quorum"    // Redlock's count: no command, the client's decision
	FormReplica = "replica"   // a replication step copied the lock key to a node
)

// The one-command forms of the scripts (Redis 8.4's t_string.c and db.c,
// Valkey's t_string.c). They answer whether they acted, never why not: an
// expired lock and one another client holds read alike.
const (
	FormDelex   = "DELEX"    // DELEX key IFEQ token: 1 deleted, 0 not
	FormDelifeq = "DELIFEQ"  // DELIFEQ key token (Valkey 9.0): 1 deleted, 0 not
	FormSetIfeq = "SET IFEQ" // SET key token IFEQ token PX ms: OK renewed, nil not
	// SET key token IFEQ token GET PX ms: the value the key held (nil for
	// none) whether or not it set anything; only that value being the
	// token says it renewed
	FormSetIfeqGet = "SET IFEQ GET"
	// SET key token IFNE other PX ms as an acquire (Redis 8.4): OK when the
	// key is missing or holds any value but other, so it makes a missing
	// key and replaces a holder's token; nil only when it holds other
	FormSetIfne = "SET IFNE"
)

// ComparesInOneCommand reports a form that compares the token and acts in
// one command, without a script: DELEX IFEQ, DELIFEQ, SET IFEQ.
func ComparesInOneCommand(form string) bool {
	return form == FormDelex || form == FormDelifeq || form == FormSetIfeq || form == FormSetIfeqGet
}

// Op is the lock operation a command belongs to, tagged by the operation
// that sent it. Durations are story time.
type Op struct {
	Kind OpKind
	Form string
	// Lock is the lock as the scene declares it: usually its key, but two
	// keys can guard one lock (a lock named after the worker and one
	// named after the order both guard order 42).
	Lock  string
	Key   string        // the key as sent
	Token string        // the value written, compared or carried
	TTL   time.Duration // the lease asked for, in story time; 0 = no expiry
	NX    bool          // the acquire is conditional on the key being absent
	Fixed bool          // Token is a constant every worker writes, not a fresh token
	Try   bool          // the acquire of a contender that only tries (AcquireSpec.Try)
	Fence int64         // a fenced write's token
	// Part is set for one node's share of a distributed acquire or
	// release: it makes a lease on that node, not a holder.
	Part bool
	// Late is set for a command a hung node ran when it woke, after the
	// client had stopped waiting: nobody read its reply.
	Late bool
	// A quorum count (FormQuorum): Votes of Of nodes said OK; Held is the
	// client's decision; TTL is then the validity time it computed.
	Votes, Of int
	Held      bool
	Spent     time.Duration // the time the acquire took, story time
	// Nested marks a reentrant lock's nested release: its sender still
	// holds its outer acquire, whatever the release did to the key, so the
	// ledger keeps its hold open (a lab story's; the course's reentrant
	// lock says so by its form, FormReentrant, and its reply).
	Nested bool
	// Seen is, for a script whose reply says only what its author chose
	// to return (a lab lock's release or extend), what it did to its key,
	// read on the backend's own connection before and after it ran; nil
	// when not read.
	Seen *KeyChange
	// Assumed is set for a command whose reply was lost (Event.Lost) and
	// whose client went on as though it had succeeded: a renewal it takes
	// for granted. Without it, a client reads a lost renewal as refused.
	Assumed bool
}

// KeyChange is a key before and after one command or script: its value
// and its TTL left (-1 for none), Had and Has saying whether it existed.
type KeyChange struct {
	Had, Has            bool
	Before, After       string
	TTLBefore, TTLAfter time.Duration
}

// Retimed reports a key that kept its value and got another TTL.
func (c KeyChange) Retimed() bool {
	return c.Had && c.Has && c.Before == c.After && c.TTLBefore != c.TTLAfter
}

// The course's lock: SET resource:lock <token> NX PX 30000.
const (
	CourseKey = "resource:lock"
	CourseTTL = 30 * time.Second
)

// Labeled is the move in which actor runs its next step, named label on
// the timeline.
func Labeled(actor, label string) Move {
	m := StepOf(actor)
	m.Label = label
	return m
}

// IfHolding runs f only while the actor believes it holds a lock, and
// otherwise notes that it has nothing to release.
func IfHolding(f func(x *Exec)) func(x *Exec) {
	return func(x *Exec) {
		if !x.Actor().Holds {
			x.Note(x.Actor().Name + " holds no lock: nothing to release")
			return
		}
		f(x)
	}
}

// AcquireSpec is how an actor asks for a lock. The options scene switches
// NX, PX and the token off one at a time; everyone else takes the defaults
// of the course's SET key token NX PX ttl.
type AcquireSpec struct {
	Lock string // defaults to Key
	Key  string // the key's name before the prefix
	TTL  time.Duration
	NoNX bool // send no NX
	NoPX bool // send no PX: the key never expires
	// Value replaces the fresh token (a constant every worker writes).
	Value string
	// Try marks a contender that only tries: granted, it does no work
	// under the lock, so it acts as holder only until its lease ends.
	Try bool
	// IfNe, when set, sends IFNE IfNe in place of NX (Redis 8.4): a
	// condition on the value, not on the key being absent, so it makes a
	// missing key and replaces any token but IfNe (see FormSetIfne).
	IfNe string
}

func (s AcquireSpec) lock() string {
	if s.Lock != "" {
		return s.Lock
	}
	return s.Key
}

// Acquire sends SET key value [NX] [PX ms], with a fresh token for this
// acquisition unless spec.Value is set, and believes the reply: OK makes
// the actor a holder. On a refusal it reads PTTL to learn how long the
// lock in its way has left, as a client deciding when to retry would.
func (x *Exec) Acquire(spec AcquireSpec) Reply {
	args, op := x.r.PrepareAcquire(x.actor, spec)
	r := x.send(x.conn(), LockNode, FormatCommand(args), args, op)
	x.r.believe(x.actor, op, r)
	if r.Nil() {
		x.Do("PTTL", op.Key)
	}
	return r
}

// PrepareAcquire builds actor a's SET for spec, with a fresh token, and
// the operation it belongs to: for a caller that sends it itself (several
// at once, through a start barrier) and then calls RecordAcquire.
func (r *Run) PrepareAcquire(a *Actor, spec AcquireSpec) ([]any, *Op) {
	val := spec.Value
	if val == "" {
		val = r.mint(a)
	}
	key := r.b.Key(spec.Key)
	r.keys[key] = true
	args := []any{"SET", key, val}
	op := &Op{Kind: OpAcquire, Form: FormSET, Lock: spec.lock(), Key: key, Token: val, NX: !spec.NoNX, Fixed: spec.Value != "", Try: spec.Try}
	switch {
	case spec.IfNe != "":
		args = append(args, "IFNE", spec.IfNe)
		op.Form, op.NX = FormSetIfne, false
	case !spec.NoNX:
		args = append(args, "NX")
	}
	if !spec.NoPX {
		args = append(args, "PX", r.Scaled(spec.TTL).Milliseconds())
		op.TTL = spec.TTL
	}
	return args, op
}

// RecordAcquire logs an acquire sent outside Exec (see PrepareAcquire) at
// story time at, with its raw reply; order is its place among replies in a
// race. The actor believes the reply, as with Acquire.
func (r *Run) RecordAcquire(a *Actor, args []any, op *Op, val any, err error, at time.Duration, order int) {
	rep := Reply{Val: val, Err: err, Text: FormatReply(val, err)}
	var rtt time.Duration
	if r.b.Live() {
		// the reply came by now: a bound on when the server ran it
		rtt = max(r.Now()-at, 0)
	}
	r.record(Event{At: at, Kind: Command, Actor: a.Name, Step: "acquire", Node: LockNode, Args: toStrings(args),
		Cmd: FormatCommand(args), Reply: rep.Text, Val: val, Err: err, Order: order, Op: op, RTT: rtt})
	r.believe(a, op, rep)
}

// believe updates what a believes after its acquire got r.
func (r *Run) believe(a *Actor, op *Op, rep Reply) {
	switch {
	case rep.OK():
		a.Holds, a.Lock, a.Value = true, op.Lock, op.Token
	case rep.Nil():
		a.Holds = false
	}
}

// AcquireSETNX sends SETNX key token, which takes no expiry: (integer) 1
// makes the actor a holder of a lock that never expires until ExpireLock
// gives it a TTL. On (integer) 0 it reads PTTL of the lock in its way.
func (x *Exec) AcquireSETNX(lock, name string) Reply {
	a := x.actor
	val := x.r.mint(a)
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	args := []any{"SETNX", key, val}
	op := &Op{Kind: OpAcquire, Form: FormSETNX, Lock: lock, Key: key, Token: val, NX: true}
	r := x.send(x.conn(), LockNode, FormatCommand(args), args, op)
	if n, ok := r.Int(); ok && n == 1 {
		a.Holds, a.Lock, a.Value = true, lock, val
	} else if ok {
		x.Do("PTTL", key)
	}
	return r
}

// ExpireLock gives the actor's SETNX lock its TTL: EXPIRE in whole seconds
// as the course writes it, or PEXPIRE in ms when the TTL as sent is not a
// whole number of seconds (a live server, story time divided).
func (x *Exec) ExpireLock(lock, name string, ttl time.Duration) Reply {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	ms := x.TTL(ttl)
	op := &Op{Kind: OpExpire, Lock: lock, Key: key, Token: x.actor.Value, TTL: ttl}
	args := []any{"PEXPIRE", key, ms}
	op.Form = FormPExpire
	if ExpireCommand(ms) == "EXPIRE" {
		args, op.Form = []any{"EXPIRE", key, ms / 1000}, FormExpire
	}
	return x.send(x.conn(), LockNode, FormatCommand(args), args, op)
}

// ExpireCommand names the command ExpireLock sends for a TTL of ms as sent.
func ExpireCommand(ms int64) string {
	if ms%1000 == 0 {
		return "EXPIRE"
	}
	return "PEXPIRE"
}

// AcquireFenced takes the lock and a fencing token in one atomic step: a
// script that runs SET key token NX PX ttl and, only if it set the key,
// INCR on the fence counter. The reply is the fencing token, or (nil) when
// the lock was held. Taking the token after a separate SET could hand
// tokens out in a different order from the grants.
func (x *Exec) AcquireFenced(lock, name, fenceName string, ttl time.Duration) Reply {
	a := x.actor
	val := x.r.mint(a)
	key, fence := x.Key(name), x.Key(fenceName)
	if lock == "" {
		lock = name
	}
	op := &Op{Kind: OpAcquire, Form: FormFenced, Lock: lock, Key: key, Token: val, TTL: ttl, NX: true}
	r := x.eval(LockNode, AcquireFencedLua, []string{key, fence}, []any{val, x.TTL(ttl)}, op)
	if n, ok := r.Int(); ok {
		a.Holds, a.Lock, a.Value, a.Fence = true, lock, val, n
	} else if r.Nil() {
		a.Holds = false
	}
	return r
}

// Release sends the compare-and-delete script with the actor's token:
// (integer) 1 deleted its own lock, 0 the key holds another token, -1 no
// such key. Whatever the reply, the actor no longer believes it holds.
func (x *Exec) Release(lock, name string) Reply {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	op := &Op{Kind: OpRelease, Form: FormScript, Lock: lock, Key: key, Token: x.actor.Value}
	r := x.eval(LockNode, ReleaseLua, []string{key}, []any{x.actor.Value}, op)
	x.actor.Holds = false
	return r
}

// ReleaseDEL is the blind release: DEL key, whoever's token it holds.
func (x *Exec) ReleaseDEL(lock, name string) Reply {
	r, _ := x.op(OpRelease, FormDEL, lock, name, func(key string) []any { return []any{"DEL", key} })
	x.actor.Holds = false
	return r
}

// Check is the first half of a client-side release: GET key, and the actor
// remembers whether it saw its own token. If it did not, it knows the lock
// is no longer its own and stops acting as holder.
func (x *Exec) Check(lock, name string) Reply {
	r, _ := x.op(OpCheck, "", lock, name, func(key string) []any { return []any{"GET", key} })
	v, _ := r.Str()
	x.actor.Checked, x.actor.CheckedOwn = true, v == x.actor.Value
	if !x.actor.CheckedOwn && r.Err == nil || r.Nil() {
		x.actor.Holds = false
	}
	return r
}

// Peek is the first half of a check-then-set acquire: GET key, to see
// whether the key is free before a SET. It changes nothing the actor
// believes: the client decides on the reply, and the SET, if it sends one,
// is an acquire of its own.
func (x *Exec) Peek(lock, name string) Reply {
	r, _ := x.op(OpPeek, "", lock, name, func(key string) []any { return []any{"GET", key} })
	return r
}

// ReleaseChecked is the second half: DEL key, sent because the GET before
// it returned the actor's token. The gap between the two is the hazard.
func (x *Exec) ReleaseChecked(lock, name string) Reply {
	r, _ := x.op(OpRelease, FormGetDel, lock, name, func(key string) []any { return []any{"DEL", key} })
	x.actor.Holds = false
	return r
}

// Extend sends the compare-and-PEXPIRE script with token: (integer) 1 the
// lease now ends ttl from now, 0 the key holds another token, -1 no such
// key. A renewal never recreates a lock.
func (x *Exec) Extend(lock, name, token string, ttl time.Duration) Reply {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	op := &Op{Kind: OpExtend, Form: FormScript, Lock: lock, Key: key, Token: token, TTL: ttl}
	return x.eval(LockNode, ExtendLua, []string{key}, []any{token, x.TTL(ttl)}, op)
}

// Write sends the actor's unfenced write to the protected resource.
func (x *Exec) Write(value string) Reply {
	res := x.r.Res
	op := &Op{Kind: OpWrite, Form: FormWrite, Lock: x.actor.Lock, Key: res.key, Token: x.actor.Value}
	return x.eval(ResourceNode, WriteLua, []string{res.key}, []any{x.actor.Name, value, x.TTL(SafetyTTL)}, op)
}

// FencedWrite sends the actor's write with its fencing token; the resource
// itself decides whether to accept it.
func (x *Exec) FencedWrite(value string, token int64) Reply {
	res := x.r.Res
	op := &Op{Kind: OpFencedWrite, Form: FormFenceW, Lock: x.actor.Lock, Key: res.key, Token: x.actor.Value, Fence: token}
	return x.eval(ResourceNode, FencedWriteLua, []string{res.key}, []any{x.actor.Name, value, token, x.TTL(SafetyTTL)}, op)
}

func (x *Exec) conn() *redis.Client { return x.r.conns[x.connName()] }

// op sends args on the lock service as the lock operation o, on the key
// name (before the prefix) of lock ("" means the lock is the key).
func (x *Exec) op(kind OpKind, form, lock, name string, build func(key string) []any) (Reply, *Op) {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	o := &Op{Kind: kind, Form: form, Lock: lock, Key: key, Token: x.actor.Value}
	args := build(key)
	return x.send(x.conn(), LockNode, FormatCommand(args), args, o), o
}
