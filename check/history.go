// Package check reads a story's events as a history of operations and
// checks it against models with porcupine
// (github.com/anishathalye/porcupine v1.3.1), Jepsen's way of asking
// whether a history could have come from one sequential object. Each model
// is a value (Model), listed by Models, because a story is read by several
// at once and the point is where they disagree:
//
//   - the server's lease (Server): per key on each node, a holder, a token
//     and an expiry on that node's clock. Redis keeps its word: the
//     histories of the single-instance scenes are linearizable.
//   - the client's mutex (Mutex): per declared lock, an acquire that
//     returned OK holds until its own release, its crash, or a reply that
//     tells the client its lease is gone; a reentrant acquire nests. This is
//     the lock the client code assumes, and a GC pause past the lease
//     breaks it.
//   - the fenced resource (Resource): a write is accepted only with a token
//     at least as high as any accepted before. An unfenced resource takes
//     every write, so a stale one makes the history illegal; with fencing
//     it is safe again.
//
// Redlock is checked as one mutex over the whole lock: a client's count of a
// majority is its acquire.
//
// What a model says of a history is a Finding: linearizable or not, and
// where, in the course text's words. The name keeps it apart from the
// ledger's Verdict on a property (what one run showed, read reply by reply)
// and the lab's Judgement (a property graded over every schedule of a
// search): a finding is about one history and one model.
//
// The package is headless: it reads sim events and the ledger's reading of
// them, and never imports the scenes, the core or the screen.
package check

import (
	"fmt"
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

// Kind is what an operation does to the lock.
type Kind int

const (
	Acquire   Kind = iota + 1 // SET NX PX, SETNX, the fenced or reentrant acquire, a claim, a Redlock count
	Release                   // DEL, GET then DEL, the compare-and-delete script, a reentrant release
	Extend                    // the compare-and-PEXPIRE script
	Expire                    // EXPIRE / PEXPIRE after SETNX
	Verify                    // GET before a DEL: is the key still mine?
	Write                     // a write to the protected resource, fenced or not
	Crash                     // the client crashed: it stops acting as holder
	LetGo                     // the client stops acting as holder without a command (its validity or try ran out)
	Restart                   // a node restarted empty: its keys are gone
	Replicate                 // a replication step copied the lock key to a node
)

func (k Kind) String() string {
	return [...]string{"", "acquire", "release", "extend", "expire", "check", "write", "crash", "let go", "restart", "replicate"}[k]
}

// Outcome is what the reply told the client.
type Outcome int

const (
	Done    Outcome = iota // the command ran; Reply says how
	Granted                // an acquire the server granted (or a count that reached a majority)
	Refused                // an acquire refused, a release or extension that found another's token or no key
	Open                   // no reply: a timeout or a lost connection, the outcome is unknown (an open call)
)

func (o Outcome) String() string {
	return [...]string{"done", "granted", "refused", "open"}[o]
}

// Op is one operation of a history: a command (or a client's decision) of
// one actor, with its reply. Times are story time.
type Op struct {
	Seq   int // the event it was read from (its index in the story's events); -1 for a synthetic op
	Actor string
	Kind  Kind
	Lock  string // the lock as the scene declares it (sim.Op.Lock; a job's lock for a claim)
	Node  string // sim.LockNode, a Redlock node's name, sim.ResourceNode, or ledger.QuorumNode for a count
	Key   string // the key as sent
	Token string
	TTL   time.Duration // the lease asked for, the extension, or a count's validity time; 0 = no expiry
	NX    bool
	Form  string // sim.FormSET, sim.FormScript, …
	Fence int64  // a fenced write's token, or the token a fenced acquire got
	// Call and Return are story times: the command was sent at Call and
	// its reply read at Return (the same millisecond on the embedded
	// server). Return is -1 for an open call.
	Call, Return time.Duration
	// Clock is the node's clock at Call: story time plus the node's jumps.
	Clock   time.Duration
	Outcome Outcome
	Reply   string // as redis-cli prints it
	Value   string // a GET's bulk reply, "" for (nil)
	Int     int64  // an integer reply
	// Nested is set for an acquire or release of a reentrant lock that
	// entered again or left the count above zero.
	Nested bool
	Late   bool // a hung node ran it when it woke; nobody read the reply
	// Part is set for one node's share of a Redlock acquire or release:
	// the server's model reads it, the client's mutex reads the count.
	Part bool
	// Ends is set for an op that ends its actor's hold in the client's
	// mutex (a release sent, a crash, a refusal or check that showed the
	// lease gone, a validity that ran out).
	Ends bool
	// Claims is set for an op whose reply told its actor that the key holds
	// its own token after an acquire whose reply was lost (ledger.FoundOwn:
	// SET … NX … GET, or a GET compared with the token): the client's
	// mutex hands it the lock then; the server's model reads the command
	// as it ran (NX refused the SET, the GET read the key).
	Claims bool
	// Writes only: whether the resource accepted it, and the token the
	// write stands for in the resource model (its fencing token, or for an
	// unfenced write the order of its writer's grant: 1 for the first).
	Accepted bool
	Fenced   bool
	Rank     int64

	reaped []string // a reap's reply: the jobs it returned to pending
	pos    int      // the event position it was read at
	volley int      // 1 + the index of the first op of its race volley; 0 when not in one
}

// What names the op: its kind, or for a job queue's scripts "claim",
// "reap" and "completion".
func (o Op) What() string {
	switch o.Form {
	case sim.FormClaim:
		return "claim"
	case sim.FormReap:
		return "reap"
	case sim.FormComplete:
		return "completion"
	}
	return o.Kind.String()
}

// Who is the op for a sentence: "B's acquire".
func (o Op) Who() string {
	if o.Actor == "" {
		return o.What()
	}
	return o.Actor + "'s " + o.What()
}

// MarkKind is a fault as the timeline draws it.
type MarkKind int

const (
	Pause     MarkKind = iota + 1 // a client frozen (a GC pause, a stopped VM) until it resumes
	Crashed                       // a client crashed (a point)
	NodeDown                      // a node stopped, until it restarted
	Cut                           // an actor cut off from a node (a partition), until healed
	Slow                          // a node answering after the client's timeout
	Hung                          // a node that reads nothing until it wakes
	ClockJump                     // a node's clock jumped forward (a point; Jump says how far)
	Restarted                     // a node restarted (a point; Empty if without its data)
)

func (k MarkKind) String() string {
	return [...]string{"", "pause", "crash", "node down", "partition", "slow node", "hung node", "clock jump", "restart"}[k]
}

// Mark is a fault on the story clock: a span (From to To) or a point
// (To == From). A span still running at the end has Open set and To at the
// history's end.
type Mark struct {
	Kind     MarkKind
	Actor    string // the client (pause, crash, the partition's client)
	Node     string // the node (down, cut, slow, hung, jump, restart)
	Seq      int    // the event that started it
	From, To time.Duration
	Open     bool
	Jump     time.Duration // ClockJump: how far forward
	Empty    bool          // Restarted: without its data
	Text     string        // the run's own note, for a tooltip
}

// Span is a stretch on the story clock for the timeline: where a client
// acted as holder (the ledger's holds) or where a lease ran on a node (the
// ledger's leases).
type Span struct {
	Actor, Lock, Node string
	From, To          time.Duration // To is the history's end while Open
	Open              bool
	End               string // how it ended: "released", "lapsed", "crashed", …; "" while open
}

// History is one story read as operations, in the order of the events they
// were read from, with what the timeline draws beside them.
type History struct {
	Ops    []Op
	Marks  []Mark
	Holds  []Span // where each client believed it held the lock
	Leases []Span // where each lease ran on the server, node by node (Redlock's counts on ledger.QuorumNode)
	End    time.Duration
	// Live is set for a history from a live server: times are wire time ×
	// scale, so the server model allows Slack of error around an expiry.
	Live  bool
	Slack time.Duration
}

// Options says where a history's events came from.
type Options struct {
	// Live: the events came from a live server, whose clock ran on
	// between the story's steps; Slack is the story time around an expiry
	// within which either reading (still there, already gone) is accepted.
	Live  bool
	Slack time.Duration
}

// LiveSlack is the wire time around an expiry within which a live
// server's history may read a key as still there or already gone: the
// server's clock runs on while a step's commands travel.
const LiveSlack = ledger.LiveSlack // one slack for the ledger and the models

// OptionsFor is the options for a run's snapshot: on a live server a slack
// of LiveSlack on the wire, in story time.
func OptionsFor(snap sim.Snapshot) Options {
	if !snap.Live {
		return Options{}
	}
	return Options{Live: true, Slack: LiveSlack * time.Duration(max(snap.Scale, 1))}
}

// FromSnapshot reads a run's snapshot as a history: its events, folded with
// the keys read back, at the run's story time.
func FromSnapshot(snap sim.Snapshot) History {
	return FromLedger(snap.Events, ledger.FoldSnapshot(snap), OptionsFor(snap))
}

// FromEvents reads a run's events (in the order recorded: on the embedded
// server the order the server ran them) as a history, folding them once
// with the ledger to know which replies granted, refused or ended a hold.
// now is the story time the run stands at. Commands without a lock
// operation (PTTL, a read-back) and the plumbing of a script cache miss are
// left out.
func FromEvents(events []sim.Event, now time.Duration, o Options) History {
	return FromLedger(events, ledger.Fold(events, now, nil), o)
}

// FromLedger is FromEvents for a caller that already folded the events
// (led must be the fold of exactly these events).
func FromLedger(events []sim.Event, led *ledger.Ledger, o Options) History {
	return build(events, led, o)
}

func (h History) String() string {
	return fmt.Sprintf("history: %d ops, %d marks, to %s", len(h.Ops), len(h.Marks), sim.FormatSpan(h.End))
}
