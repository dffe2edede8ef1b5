package ledger

import (
	"time"

	"locksim/sim"
)

// End is how a lease ended.
type End int

const (
	Open        End = iota // still running
	Released               // its holder's release deleted it
	Lapsed                 // its TTL ran out
	Deleted                // another client's DEL removed it
	Overwritten            // another client's SET without NX replaced its value
	// Vanished: a reply found the key gone before the lease's end, and no
	// command of the run removed it: a client outside the run deleted it,
	// the server evicted it, a failover or restart lost it, or the
	// server's clock stepped forward (Redis keeps an expiry as a
	// wall-clock time, so a clock set ahead expires keys early).
	Vanished
	// Restarted: the node it was on restarted empty (without persistence)
	// while the lease ran, a fault the story scripted: the key went with
	// the node's memory, whatever time its TTL had left.
	Restarted
)

func (e End) String() string {
	return [...]string{"open", "released", "lapsed", "deleted", "overwritten", "vanished", "restarted"}[e]
}

// Lease is one grant of a lock key: from the command the server granted to
// the moment the key stopped holding this acquisition's value. Times are
// story time; a lease is counted from when its command was sent.
type Lease struct {
	Lock, Node, Key string
	Actor, Token    string
	Seq             int           // the granting event
	Granted         time.Duration // when the granting command was sent
	// TTL is the lease asked for (0: the key has no expiry); it runs from
	// TTLAt, the grant, or the EXPIRE or extension that set it.
	TTL     time.Duration
	TTLAt   time.Duration
	Renewed int    // successful extensions
	Fence   int64  // the fencing token granted with it, 0 if none
	Form    string // how it was acquired: sim.FormSET, FormSETNX, FormFenced, FormReentrant
	Count   int64  // a hash lock's hold count, as its replies tell it
	Fixed   bool   // its value is a constant every worker writes, not a token
	// Try is set for the grant of a contender that only tries: its actor
	// acts as holder until the lease ends, not after.
	Try bool
	// Votes of Of nodes said OK to a Redlock client's acquire.
	Votes, Of int
	// Copy is set for a lease a replication step copied to another node:
	// not a grant of its own.
	Copy bool
	held bool // its grant made its actor a holder (not a node's share, not a copy)

	End    End
	EndSeq int           // the event that ended it (a clock jump, for a lapse it caused); -1 while open or when it lapsed
	EndAt  time.Duration // when it ended
	By     string        // who deleted or overwrote it
}

// In reports whether the key as read back holds this lease: a string key
// its token; a hash its token as a field (a reentrant lock: holder id and
// count); a sorted set its token as a member (a claimed job in the active
// set).
func (l *Lease) In(k sim.KeyState) bool {
	if !k.Exists() || k.Name != l.Key || slot(k.Node, "") != slot(l.Node, "") {
		return false
	}
	switch k.Type {
	case "hash", "zset":
		for _, f := range k.Fields {
			if f.Name == l.Token {
				return true
			}
		}
		return false
	}
	return k.Value == l.Token
}

// Expires reports whether the key has a TTL.
func (l *Lease) Expires() bool { return l.TTL > 0 }

// Ends is when the TTL runs out (meaningful only if Expires).
func (l *Lease) Ends() time.Duration { return l.TTLAt + l.TTL }

// Overdue reports whether, at story time t, the lease's deadline has
// passed: its TTL ran out, whatever then ended it or not (a claim's lease
// ends only when a reap takes it back).
func (l *Lease) Overdue(t time.Duration) bool { return l.Expires() && t > l.Ends() }

// EndedEarly reports that the lease was ended before its deadline in story
// time: a live server's clock ran on while the story's was held.
func (l *Lease) EndedEarly() bool { return l.End != Open && l.EndAt <= l.Ends() }

// AliveAt reports whether the lease still held its key at story time t:
// Redis keeps a key through the millisecond its TTL ends.
func (l *Lease) AliveAt(t time.Duration) bool {
	return l.End == Open && (!l.Expires() || t <= l.Ends())
}

// HoldEnd is how an actor stopped acting as holder.
type HoldEnd int

const (
	StillHolding HoldEnd = iota
	SentRelease          // it sent its release (whatever the reply)
	Crashed              // it crashed
	Reacquired           // it was granted the lock again
	GaveUp               // its own GET showed the key was not its own
	RefusedAgain         // it asked for the lock again and was refused: it knows it does not hold it
	ValidityOver         // a Redlock client's validity time ran out: it stops acting as holder
	TryOver              // the lease of a contender that only tries ran out: it had no work to do under it
)

// Hold is a stretch in which an actor acts as holder of a lock: from the
// reply that granted it until it sends its release or crashes. A paused
// actor still holds: it will wake believing it does.
type Hold struct {
	Actor, Lock string
	Lease       *Lease
	From        int // the granting event
	FromAt      time.Duration
	To          int // the event that ended it; -1 while it lasts
	ToAt        time.Duration
	End         HoldEnd
}

// Open reports whether the actor still acts as holder.
func (h *Hold) Open() bool { return h.End == StillHolding }

// Overlap is a stretch in which two actors acted as holder of one lock at
// once: mutual exclusion broken. Cause is what had happened to the first
// holder's lease when the second was granted: Lapsed (the TTL ran out while
// it worked), Deleted or Overwritten by By, Vanished (removed by nothing on
// screen before its end), or Open when the first's lease
// still stood where it was granted (two keys of one lock, two majorities of
// Redlock's nodes, a primary lost before its replica had the key).
type Overlap struct {
	Lock          string
	First, Second *Hold
	From          int // the second grant
	FromAt        time.Duration
	To            int // the first event that ended either hold; -1 while open
	ToAt          time.Duration
	Cause         End
	By            string
	// Uncopied is set when the first's lease was on another node and no
	// replication step had copied it to the node that granted the second
	// (a primary lost before its replica had the key).
	Uncopied bool
}

// Open reports whether both still act as holder.
func (o *Overlap) Open() bool { return o.To < 0 }

// Refusal is an acquire the server turned down.
type Refusal struct {
	Actor, Lock, Key string
	Seq              int
	At               time.Duration
	// Blocker is the lease the key held at that moment, as the replies
	// tell it; nil when the ledger cannot say (a key from outside the run).
	Blocker *Lease
	// Stuck is set when the blocker has no TTL and its holder had crashed:
	// nothing but a manual DEL will ever let this contender in.
	Stuck bool
	// Free is set when the key held nothing as the acquire ran (its
	// sim.Op.Seen read it so, and its reply was heard) and no client acted
	// as holder: nobody held the lock, and its acquire did not let the contender in all the same,
	// whatever it answered (nil, an error, a reply that grants nothing).
	// A lock that refuses a client when it is free never lets anyone in.
	Free bool
}

// Write is a write to the protected resource.
type Write struct {
	Actor    string
	Seq      int
	At       time.Duration
	Fenced   bool
	Token    int64 // a fenced write's token
	Seen     int64 // the largest token the resource had accepted before it
	Accepted bool
	// Covered is set when the writer's lease was still alive: it wrote as
	// the holder the key says it is. A write it was not covered for is late.
	Covered bool
	Lease   *Lease // the writer's latest lease before the write
}

// Read is what one event meant, for the readout and the log.
type Read struct {
	What  What
	Lease *Lease // the lease the event concerns (granted, released, the writer's)
	Other string // the other actor involved: the blocker, the victim, the key's holder
	// Why tells, for a release or extension that found no key (-1) or a
	// check that read nothing, how the actor's lease had ended.
	Why     End
	WhyBy   string
	Overlap *Overlap // a grant that started an overlap: the latest it started
	// Replaced is the lease a grant without NX overwrote.
	Replaced *Lease
	// Freed is, for a node's grant, the lease of the story's that the key
	// held until a moment before its end on the story's clock: lost in a
	// restart, run out on the node's own jumped clock, or vanished.
	Freed *Lease
	Write *Write
	// Refusal is the refusal a grant-less acquire met; for a release that
	// deleted another's lock, the sender's own refusal when it never held
	// the lock (a release in a finally block).
	Refusal *Refusal
	// Reaped are the claims a reap took back, in the reply's order.
	Reaped []*Lease
	// Lost is set for a command that ran on the server and whose reply was
	// lost on the way back: its own cause, apart from an outage, read from
	// its key before and after (What says what it did there).
	Lost bool
	// Frozen is set for a timer's command (a watchdog's renewal) that fell
	// due while its actor was frozen: it went out late, in the move that
	// woke the actor.
	Frozen bool
}

// What names an event's meaning. Each is also the name of a readout
// section in the course text (content/text/ledger.txt and ledger-*.txt,
// overridable per scene).
type What string

const (
	Nothing        What = ""
	Granted        What = "granted"         // an acquire got the lock
	Refused        What = "refused"         // an acquire was turned down
	TTLSet         What = "ttl-set"         // EXPIRE after SETNX gave the lock its TTL
	TTLMissed      What = "ttl-missed"      // EXPIRE found no key
	ReleasedOwn    What = "released"        // a release deleted the actor's own lease
	DeletedOther   What = "deleted-other"   // a DEL removed another actor's lease
	DeletedUnknown What = "deleted-unknown" // a DEL removed a value no lease of the run wrote
	DelNothing     What = "del-nothing"     // DEL replied 0: no key
	RelTaken       What = "rel-taken"       // the script replied 0: the key holds another token
	RelGone        What = "rel-gone"        // the script replied -1: no such key
	RelNotDeleted  What = "rel-not-deleted" // DELEX IFEQ or DELIFEQ replied 0: another token or no key, the reply does not say
	Extended       What = "extended"        // an extension moved the lease's end
	ExtTaken       What = "ext-taken"       // an extension replied 0
	ExtGone        What = "ext-gone"        // an extension replied -1
	ExtNotSet      What = "ext-not-set"     // SET … IFEQ replied nil: another token or no key, the reply does not say
	ExtFailed      What = "ext-failed"      // an extension got an error reply: the server refused to run it
	ExtNoReply     What = "ext-noreply"     // an extension got no reply: it may or may not have run
	CheckOwn       What = "check-own"       // GET returned the actor's token
	CheckOther     What = "check-other"     // GET returned another token
	CheckNone      What = "check-none"      // GET returned (nil)
	PeekFree       What = "peek-free"       // a GET before a SET returned (nil): the key looked free
	PeekTaken      What = "peek-taken"      // a GET before a SET returned a value: the key looked taken
	WroteHolder    What = "write"           // an unfenced write while the lease lived
	WroteLate      What = "write-late"      // an unfenced write after the lease had ended
	FencedOK       What = "fenced-ok"       // the resource accepted a fenced write
	FencedNo       What = "fenced-no"       // the resource refused a stale token
	Failed         What = "failed"          // an error reply: the server refused the command itself
	NotGranted     What = "not-granted"     // an acquire answered neither a grant, nor nil, nor an error
	UnknownOut     What = "unknown"         // the client cannot know whether it ran
	CrashedNow     What = "crashed"
	PausedNow      What = "paused"
	ResumedNow     What = "resumed"
	Noted          What = "note" // an actor's note: a step it skipped
	// The reads of a command that ran on the server and whose reply was
	// lost (sim.Event.Lost, with the key read before and after, sim.Op.Seen):
	// the ledger knows what it did; its client does not.
	LostGranted     What = "lost-granted"      // an acquire set the key: a lease no one knows it holds
	LostNotSet      What = "lost-not-set"      // an acquire set nothing: the key held a value
	LostExtended    What = "lost-extended"     // a renewal moved the lease's end
	LostNotExtended What = "lost-not-extended" // a renewal moved nothing: the key did not hold the token
	// FoundOwn: a reply told a client that the key holds its own token (SET
	// … NX GET, or a GET compared with it) after an acquire whose reply was
	// lost: it holds the lease that acquire made, which runs from that send.
	FoundOwn   What = "found-own"
	ClockMoved What = "clock"
)

// Belief is what an actor believes against what the server says.
type Belief struct {
	Actor  string
	Holds  bool   // it acts as holder
	Lock   string // the lock it acts as holder of
	Lease  *Lease // its latest lease, nil if never granted
	Hold   *Hold  // its latest hold
	Fence  int64  // its latest fencing token
	Status sim.Status
	// KeyHolds is set when the key read back holds this actor's current
	// lease: the server agrees with it.
	KeyHolds bool
}

// KeyRead is a key as read back, with the lease the fold says it holds.
type KeyRead struct {
	sim.KeyState
	Lease *Lease // the lease whose value the key holds, nil if none or unknown
	// Members are the claims a sorted set holds, one per member: many
	// jobs' leases share one active set.
	Members []*Lease
}
