// Package ledger reads a run's events the one way every scene shares: it
// folds the lock operations and their replies into leases, holds (who acts
// as holder, from the grant to its release or crash), refusals, overlaps,
// writes to the protected resource and the three properties of a lock.
//
// It is pure: no Redis, no screen. A new judgement ("who holds", "did it
// lapse", "who overlapped") belongs here, with a table test on hand-written
// events, never in a scene.
package ledger

import (
	"slices"
	"strings"
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
	// the server evicted it, or a failover or restart lost it.
	Vanished
)

func (e End) String() string {
	return [...]string{"open", "released", "lapsed", "deleted", "overwritten", "vanished"}[e]
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
	EndSeq int           // the event that ended it; -1 while open or when it lapsed
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
	Write    *Write
	// Refusal is the refusal a grant-less acquire met; for a release that
	// deleted another's lock, the sender's own refusal when it never held
	// the lock (a release in a finally block).
	Refusal *Refusal
	// Reaped are the claims a reap took back, in the reply's order.
	Reaped []*Lease
}

// What names an event's meaning. Each is also the name of a readout
// section in the course text (content/text/ledger.txt, overridable per scene).
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
	Extended       What = "extended"        // an extension moved the lease's end
	ExtTaken       What = "ext-taken"       // an extension replied 0
	ExtGone        What = "ext-gone"        // an extension replied -1
	CheckOwn       What = "check-own"       // GET returned the actor's token
	CheckOther     What = "check-other"     // GET returned another token
	CheckNone      What = "check-none"      // GET returned (nil)
	WroteHolder    What = "write"           // an unfenced write while the lease lived
	WroteLate      What = "write-late"      // an unfenced write after the lease had ended
	FencedOK       What = "fenced-ok"       // the resource accepted a fenced write
	FencedNo       What = "fenced-no"       // the resource refused a stale token
	Failed         What = "failed"          // an error reply: the server refused the command itself
	UnknownOut     What = "unknown"         // the client cannot know whether it ran
	CrashedNow     What = "crashed"
	PausedNow      What = "paused"
	ResumedNow     What = "resumed"
	Noted          What = "note" // an actor's note: a step it skipped
	ClockMoved     What = "clock"
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

// Ledger is the fold of one run.
type Ledger struct {
	Now      time.Duration
	Leases   []*Lease
	Holds    []*Hold
	Overlaps []*Overlap
	Refusals []*Refusal
	Writes   []*Write
	Unknowns []int // events whose outcome the client cannot know
	Reads    []Read
	Keys     []KeyRead
	faults   map[string]bool // node, node/slow, node/actor (cut off)
	// quorumSeen is set once a client counted a majority (or sent a share
	// of one): a lock across independent nodes was in play
	quorumSeen bool
	wholeSeen  bool        // an acquire of a whole lock on one server
	survived   []*Lease    // quorum leases granted while nodes were lost to their client
	stalled    []sim.Event // counts that missed a majority of live nodes
	status     map[string]sim.Status
	byKey      map[string]*Lease // the lease each key holds now, as the replies tell it
	events     []sim.Event
}

// Fold reads events in order and, at story time now, the keys read back.
func Fold(events []sim.Event, now time.Duration, keys []sim.KeyState) *Ledger {
	l := &Ledger{Now: now, Reads: make([]Read, len(events)),
		status: map[string]sim.Status{}, byKey: map[string]*Lease{}, events: events}
	for i, e := range events {
		l.lapse(e.At, e.Seq)
		l.Reads[i] = l.event(e)
	}
	l.lapse(now, len(events))
	for _, k := range keys {
		kr := KeyRead{KeyState: k}
		if lease := l.byKey[slot(k.Node, k.Name)]; lease != nil && lease.In(k) {
			kr.Lease = lease
		}
		kr.Members = l.claimsIn(k)
		l.Keys = append(l.Keys, kr)
	}
	return l
}

// lapse ends every open lease whose TTL ran out before t, and the hold of
// a contender that only tries once its lease is over; seq is the event
// about to be read. A Redlock client's validity running out ends
// its hold too: it computed that deadline itself. A claim's deadline
// frees nothing by itself: its lease ends when a reap takes the job back.
func (l *Ledger) lapse(t time.Duration, seq int) {
	// a contender that only tries has nothing to do once its lease is over,
	// however the lease ended
	for _, h := range l.Holds {
		if h.Open() && h.Lease.Try && h.Lease.Expires() && t > h.Lease.Ends() && l.status[h.Actor] != sim.Paused {
			l.endHold(h, sim.Event{Seq: seq, At: h.Lease.Ends()}, TryOver)
		}
	}
	for _, ls := range l.Leases {
		if ls.End == Open && ls.Expires() && t > ls.Ends() && ls.Form != sim.FormClaim {
			ls.End, ls.EndSeq, ls.EndAt = Lapsed, -1, ls.Ends()
			if l.byKey[ls.slot()] == ls {
				delete(l.byKey, ls.slot())
			}
			if ls.Node != QuorumNode {
				continue
			}
			for _, h := range l.Holds {
				// a frozen client cannot look at its deadline: it wakes
				// still acting as holder
				if h.Lease == ls && h.Open() && l.status[h.Actor] != sim.Paused {
					l.endHold(h, sim.Event{Seq: seq, At: ls.Ends()}, ValidityOver)
				}
			}
		}
	}
}

func (l *Ledger) event(e sim.Event) Read {
	switch e.Kind {
	case sim.Clock:
		return Read{What: ClockMoved}
	case sim.Info:
		if e.Op != nil && e.Op.Form == sim.FormQuorum {
			return l.quorum(e)
		}
		if e.Op != nil && e.Op.Form == sim.FormReplica {
			l.replica(e)
		}
		if e.Op != nil && e.Op.Kind == sim.OpGiveUp {
			return l.gaveUp(e)
		}
		return Read{What: Noted}
	case sim.Fault:
		l.nodeFault(e)
		switch e.Fault {
		case sim.FaultCrash:
			l.status[e.Actor] = sim.Crashed
			for _, h := range l.Holds {
				if h.Actor == e.Actor && h.Open() {
					l.endHold(h, e, Crashed)
				}
			}
			return Read{What: CrashedNow}
		case sim.FaultPause:
			l.status[e.Actor] = sim.Paused
			return Read{What: PausedNow}
		case sim.FaultResume:
			l.status[e.Actor] = sim.Ready
			return Read{What: ResumedNow}
		}
		return Read{}
	}
	if e.Op == nil {
		return Read{}
	}
	if e.Op.Part && (e.Unknown() || e.ErrorReply()) {
		return Read{What: NodeFailed}
	}
	if e.Op.Part {
		return l.part(e)
	}
	if e.Unknown() {
		l.Unknowns = append(l.Unknowns, e.Seq)
		return Read{What: UnknownOut}
	}
	if e.Op.Form == sim.FormReentrant {
		return l.reentrant(e)
	}
	if e.ErrorReply() && e.Op.Kind != sim.OpFencedWrite {
		return Read{What: Failed}
	}
	switch e.Op.Kind {
	case sim.OpAcquire:
		return l.acquire(e)
	case sim.OpExpire:
		n, _ := e.Int()
		if n != 1 {
			return Read{What: TTLMissed, Lease: l.latest(e.Actor)}
		}
		// EXPIRE compares nothing: it gives its TTL to whatever the key holds
		cur := l.present(e.Node, e.Op.Key)
		if cur == nil {
			return Read{What: TTLMissed, Lease: l.latest(e.Actor)}
		}
		cur.TTL, cur.TTLAt = e.Op.TTL, e.At
		r := Read{What: TTLSet, Lease: cur}
		if cur.Actor != e.Actor {
			r.Other = cur.Actor
		}
		return r
	case sim.OpRelease:
		return l.release(e)
	case sim.OpExtend:
		n, _ := e.Int()
		switch n {
		case 1:
			// the reply says the key held this token: the reply wins over
			// the fold's own idea of when the lease ran out
			if ls := l.holding(e.Node, e.Op.Key, e.Op.Token); ls != nil {
				ls.TTL, ls.TTLAt = e.Op.TTL, e.At
				ls.Renewed++
				return Read{What: Extended, Lease: ls}
			}
			return Read{What: Extended}
		case 0:
			return Read{What: ExtTaken, Lease: l.leaseOf(e.Op.Token), Other: actorOf(l.present(e.Node, e.Op.Key))}
		}
		r := Read{What: ExtGone, Lease: l.leaseOf(e.Op.Token)}
		l.gone(e.Node, e.Op.Key, e.At)
		if r.Lease != nil {
			r.Why, r.WhyBy = r.Lease.End, r.Lease.By
		}
		return r
	case sim.OpCheck:
		own := l.leaseOf(e.Op.Token)
		v, _ := e.Val.(string)
		switch {
		case e.IsNil():
			l.gone(e.Node, e.Op.Key, e.At)
			l.giveUp(e)
			r := Read{What: CheckNone, Lease: own}
			if own != nil {
				r.Why, r.WhyBy = own.End, own.By
			}
			return r
		case v == e.Op.Token:
			return Read{What: CheckOwn, Lease: l.holding(e.Node, e.Op.Key, e.Op.Token)}
		}
		l.giveUp(e)
		r := Read{What: CheckOther, Lease: own, Other: actorOf(l.present(e.Node, e.Op.Key))}
		if own != nil {
			r.Why, r.WhyBy = own.End, own.By
		}
		return r
	case sim.OpWrite, sim.OpFencedWrite:
		return l.write(e)
	}
	return Read{}
}

func (l *Ledger) acquire(e sim.Event) Read {
	op := e.Op
	l.wholeSeen = true
	if op.Form == sim.FormClaim {
		return l.claim(e)
	}
	granted, refused := false, false
	var fence int64
	switch op.Form {
	case sim.FormSET:
		granted, refused = e.IsOK(), e.IsNil()
	case sim.FormSETNX:
		n, ok := e.Int()
		granted, refused = ok && n == 1, ok && n == 0
	case sim.FormFenced:
		n, ok := e.Int()
		granted, refused, fence = ok && n > 0, e.IsNil(), n
	case sim.FormReentrant:
		n, ok := e.Int()
		granted, refused = ok && n == 1, e.IsNil()
	}
	if refused {
		for _, h := range l.Holds {
			if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock {
				l.endHold(h, e, RefusedAgain)
			}
		}
		cur := l.present(e.Node, op.Key)
		rf := &Refusal{Actor: e.Actor, Lock: op.Lock, Key: op.Key, Seq: e.Seq, At: e.At, Blocker: cur}
		if cur != nil && !cur.Expires() && l.status[cur.Actor] == sim.Crashed {
			rf.Stuck = true
		}
		l.Refusals = append(l.Refusals, rf)
		return Read{What: Refused, Refusal: rf, Other: actorOf(cur), Lease: cur}
	}
	if !granted {
		return Read{What: Failed}
	}
	cur := l.byKey[slot(e.Node, op.Key)]
	var replaced *Lease
	switch {
	case cur != nil && !op.NX:
		// the key held another value: a SET without NX replaced it
		cur.End, cur.EndSeq, cur.EndAt, cur.By = Overwritten, e.Seq, e.At, e.Actor
		replaced = cur
	case cur != nil && cur.Expires():
		// NX was granted, so the key was free: the lease had in truth run
		// out a moment before the fold's clock said so (a live server)
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, e.At
	case cur != nil:
		// a key with no TTL cannot lapse: something outside the run removed it
		cur.End, cur.EndSeq, cur.EndAt = Vanished, -1, e.At
	}
	ls := &Lease{Lock: op.Lock, Node: e.Node, Key: op.Key, Actor: e.Actor, Token: op.Token,
		Seq: e.Seq, Granted: e.At, TTL: op.TTL, TTLAt: e.At, Fence: fence, Form: op.Form, Fixed: op.Fixed, Try: op.Try, EndSeq: -1}
	l.Leases = append(l.Leases, ls)
	l.byKey[slot(e.Node, op.Key)] = ls
	r := l.hold(e, ls)
	if r.Replaced = replaced; replaced != nil && r.Overlap == nil {
		r.Other = replaced.Actor
	}
	return r
}

// hold makes the actor the holder of ls's lock from event e, ending its
// earlier holds, and records an overlap with every other actor that still
// acts as holder of that lock.
func (l *Ledger) hold(e sim.Event, ls *Lease) Read {
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() {
			l.endHold(h, e, Reacquired)
		}
	}
	return l.openHold(e, ls)
}

// openHold starts the actor's hold of ls's lock from event e, with an
// overlap for every other actor that still acts as holder of that lock.
func (l *Ledger) openHold(e sim.Event, ls *Lease) Read {
	ls.held = true
	h := &Hold{Actor: e.Actor, Lock: ls.Lock, Lease: ls, From: e.Seq, FromAt: e.At, To: -1}
	r := Read{What: Granted, Lease: ls}
	for _, o := range l.Holds {
		if o.Open() && o.Lock == ls.Lock && o.Actor != e.Actor {
			ov := &Overlap{Lock: ls.Lock, First: o, Second: h, From: e.Seq, FromAt: e.At, To: -1,
				Cause: o.Lease.End, By: o.Lease.By, Uncopied: l.uncopied(o.Lease, ls.Node)}
			l.Overlaps = append(l.Overlaps, ov)
			// the latest overlap is the one the alarm names
			r.Overlap, r.Other = ov, o.Actor
		}
	}
	l.Holds = append(l.Holds, h)
	return r
}

func (l *Ledger) release(e sim.Event) Read {
	op := e.Op
	switch op.Form {
	case sim.FormReap:
		return l.reap(e)
	case sim.FormComplete:
		return l.complete(e)
	}
	n, _ := e.Int()
	own := l.leaseOf(op.Token)
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock {
			l.endHold(h, e, SentRelease)
		}
	}
	r := Read{Lease: own}
	var cur *Lease
	switch {
	case n == 1 && op.Form == sim.FormScript:
		// the script deleted a key that held op.Token: the sender's own
		// lease, or another's that wrote the same value
		cur = l.byKey[slot(e.Node, op.Key)]
		if cur == nil || cur.Token != op.Token {
			cur = l.holding(e.Node, op.Key, op.Token)
		}
	case n == 1:
		// a DEL removed whatever the key held
		cur = l.present(e.Node, op.Key)
	}
	switch {
	case n == 1 && cur != nil && cur.Actor == e.Actor:
		cur.End, cur.EndSeq, cur.EndAt = Released, e.Seq, e.At
		r.What, r.Lease = ReleasedOwn, cur
	case n == 1 && cur != nil:
		cur.End, cur.EndSeq, cur.EndAt, cur.By = Deleted, e.Seq, e.At, e.Actor
		r.What, r.Other = DeletedOther, cur.Actor
		r.Refusal = l.refusedLast(e.Actor, op.Lock)
	case n == 1:
		r.What = DeletedUnknown
	case op.Form == sim.FormScript && n == 0:
		r.What, r.Other = RelTaken, actorOf(l.present(e.Node, op.Key))
	case op.Form == sim.FormScript:
		r.What = RelGone
	default:
		r.What = DelNothing
	}
	if n == 1 || r.What == RelGone || r.What == DelNothing {
		l.gone(e.Node, op.Key, e.At)
	}
	if own != nil && r.What != ReleasedOwn {
		r.Why, r.WhyBy = own.End, own.By
	}
	return r
}

// refusedLast is the actor's refusal of lock when its latest acquire of it
// was refused (it never held the lock since): a release it sends then runs
// without the lock, as a release in a finally block does. nil otherwise.
func (l *Ledger) refusedLast(actor, lock string) *Refusal {
	var last *Refusal
	for _, rf := range l.Refusals {
		if rf.Actor == actor && rf.Lock == lock {
			last = rf
		}
	}
	if last == nil {
		return nil
	}
	for _, ls := range l.Leases {
		if ls.Actor == actor && ls.Lock == lock && !ls.Copy && ls.Seq > last.Seq {
			return nil
		}
	}
	return last
}

// present is the lease the key holds, as a reply that found the key says:
// the fold's own, or else the latest lease on that key, which the fold had
// let lapse a moment too early (a live server's clock). nil when no lease
// of the run was ever on it.
func (l *Ledger) present(node, key string) *Lease {
	if cur := l.byKey[slot(node, key)]; cur != nil {
		return cur
	}
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.slot() == slot(node, key) {
			if ls.End == Lapsed {
				l.revive(ls)
				return ls
			}
			return nil
		}
	}
	return nil
}

// holding is the lease that wrote token on key, which a reply says the key
// still holds; revived if the fold had let it lapse.
func (l *Ledger) holding(node, key, token string) *Lease {
	if cur := l.byKey[slot(node, key)]; cur != nil && cur.Token == token {
		return cur
	}
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if ls := l.Leases[i]; ls.slot() == slot(node, key) && ls.Token == token {
			if ls.End == Lapsed {
				l.revive(ls)
			}
			return ls
		}
	}
	return nil
}

func (l *Ledger) revive(ls *Lease) {
	ls.End, ls.EndSeq, ls.EndAt = Open, -1, 0
	l.byKey[ls.slot()] = ls
}

// gone records a reply, at story time at, that found the key absent:
// whatever lease the fold still had on it had ended. Before its TTL's end
// (Redis keeps a key through the millisecond its TTL ends), or with no TTL
// at all, no expiry did it: the key vanished.
func (l *Ledger) gone(node, key string, at time.Duration) {
	cur := l.byKey[slot(node, key)]
	if cur == nil {
		return
	}
	if cur.End == Open {
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, cur.Ends()
		if !cur.Expires() || at < cur.Ends() {
			cur.End, cur.EndAt = Vanished, at
		}
	}
	delete(l.byKey, slot(node, key))
}

// slot names a key on a node: a distributed story has the same key on
// every node, each with its own lease.
func slot(node, key string) string {
	if node == "" {
		node = sim.LockNode
	}
	return node + "\x00" + key
}

func (ls *Lease) slot() string {
	if ls.Form == sim.FormClaim {
		return memberSlot(ls.Key, ls.Token) // many jobs share one sorted set
	}
	return slot(ls.Node, ls.Key)
}

// giveUp ends the actor's hold when its own check showed the key is not
// its own any more: it stops acting as holder without a release.
func (l *Ledger) giveUp(e sim.Event) {
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == e.Op.Lock {
			l.endHold(h, e, GaveUp)
		}
	}
}

func (l *Ledger) write(e sim.Event) Read {
	w := &Write{Actor: e.Actor, Seq: e.Seq, At: e.At, Fenced: e.Op.Kind == sim.OpFencedWrite, Token: e.Op.Fence,
		Lease: l.latest(e.Actor)}
	for _, x := range l.Writes {
		if x.Accepted && x.Fenced {
			w.Seen = max(w.Seen, x.Token)
		}
	}
	w.Accepted = !e.ErrorReply()
	w.Covered = w.Lease != nil && w.Lease.AliveAt(e.At)
	l.Writes = append(l.Writes, w)
	r := Read{Write: w, Lease: w.Lease}
	switch {
	case w.Fenced && w.Accepted:
		r.What = FencedOK
	case w.Fenced:
		r.What = FencedNo
	case w.Covered:
		r.What = WroteHolder
	default:
		r.What = WroteLate
	}
	if w.Lease != nil {
		r.Why, r.WhyBy = w.Lease.End, w.Lease.By
	}
	return r
}

func (l *Ledger) endHold(h *Hold, e sim.Event, how HoldEnd) {
	h.To, h.ToAt, h.End = e.Seq, e.At, how
	for _, o := range l.Overlaps {
		if o.Open() && (o.First == h || o.Second == h) {
			o.To, o.ToAt = e.Seq, e.At
		}
	}
}

// latest is the actor's latest lease, nil if it was never granted one.
func (l *Ledger) latest(actor string) *Lease {
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if l.Leases[i].Actor == actor && !l.Leases[i].Copy {
			return l.Leases[i]
		}
	}
	return nil
}

// leaseOf is the lease granted with token, nil if none was.
func (l *Ledger) leaseOf(token string) *Lease {
	for i := len(l.Leases) - 1; i >= 0; i-- {
		if l.Leases[i].Token == token && !l.Leases[i].Copy {
			return l.Leases[i]
		}
	}
	return nil
}

func actorOf(ls *Lease) string {
	if ls == nil {
		return ""
	}
	return ls.Actor
}

// Latest is the actor's latest lease, nil if it was never granted one.
func (l *Ledger) Latest(actor string) *Lease { return l.latest(actor) }

// HoldOf is the actor's latest hold, nil if it never held.
func (l *Ledger) HoldOf(actor string) *Hold {
	for i := len(l.Holds) - 1; i >= 0; i-- {
		if l.Holds[i].Actor == actor {
			return l.Holds[i]
		}
	}
	return nil
}

// Belief is what actor believes against what the keys read back say.
func (l *Ledger) Belief(actor string) Belief {
	b := Belief{Actor: actor, Lease: l.latest(actor), Hold: l.HoldOf(actor), Status: l.status[actor]}
	if b.Hold != nil && b.Hold.Open() {
		b.Holds, b.Lock = true, b.Hold.Lock
	}
	if b.Lease != nil {
		b.Fence = b.Lease.Fence
		b.KeyHolds = l.Agrees(b.Lease)
	}
	return b
}

// Holders lists the actors that act as holder at the end of the fold, in
// the order their holds began: the one count of holders that scenes,
// trials and verdicts share.
func (l *Ledger) Holders() []string {
	var out []string
	for _, h := range l.Holds {
		if h.Open() && !slices.Contains(out, h.Actor) {
			out = append(out, h.Actor)
		}
	}
	return out
}

// Agrees reports whether the keys read back hold ls: its key holds its
// value; for a Redlock client's lease, a majority of the nodes hold its
// token.
func (l *Ledger) Agrees(ls *Lease) bool {
	if ls.Node != QuorumNode {
		for _, k := range l.Keys {
			if k.Lease == ls || slices.Contains(k.Members, ls) {
				return true
			}
		}
		return false
	}
	n := 0
	for _, k := range l.Keys {
		// each node's key carries that node's own prefix on a live server:
		// the lease the fold matched on it says whose it is
		if k.Node != "" && k.Lease != nil && k.Lease.Lock == ls.Lock && k.Lease.Token == ls.Token {
			n++
		}
	}
	return ls.Of > 0 && n >= sim.Quorum(ls.Of)
}

// IsLockKey reports whether any lease of the run was on key (as sent):
// a lock's key, not a counter or a resource.
func (l *Ledger) IsLockKey(key string) bool {
	for _, ls := range l.Leases {
		if ls.Key == key {
			return true
		}
	}
	for _, e := range l.events {
		if e.Op != nil && e.Op.Kind == sim.OpAcquire && e.Op.Key == key {
			return true
		}
	}
	return false
}

// Stuck lists the refusals that met a key with no TTL whose holder had
// crashed: the first is the deadlock the scoreboard names.
func (l *Ledger) Stuck() []*Refusal {
	var out []*Refusal
	for _, r := range l.Refusals {
		if r.Stuck {
			out = append(out, r)
		}
	}
	return out
}

// FreedByTTL is the first grant that a lapsed lease let in: another
// actor's acquire granted on a key whose previous lease ran out. nil if none.
func (l *Ledger) FreedByTTL() *Lease {
	for i, ls := range l.Leases {
		for _, next := range l.Leases[i+1:] {
			if next.held && ls.held && sameLock(next, ls) && next.Actor != ls.Actor && ls.End == Lapsed && next.Granted > ls.Ends() {
				return next
			}
		}
	}
	return nil
}

// Verdict is what a run has shown of one property.
type Verdict int

const (
	Untested Verdict = iota // nothing put it to the test
	Held                    // tested, and it held
	Broken                  // the run shows it failing
	Absent                  // the design in play does not offer it
)

// Properties is the scoreboard: mutual exclusion, deadlock freedom, fault
// tolerance. Mutual exclusion is broken from the first moment two actors
// act as holder at overlapping times (two clients each backed by a majority
// of Redlock's nodes too), whatever the resource did with their writes, and
// stays broken for the rest of the run; held when a contender was refused,
// or when two workers held claims on one queue at once and got different
// jobs; untested when nobody competed. Deadlock freedom is broken when a
// key with no TTL blocked a contender after its holder crashed; held once a
// lapsed lease let a contender in. Fault tolerance is liveness: absent on a
// single instance (one Redis, or a primary with its replica, is a single
// point of failure); across independent nodes it is broken once a client
// counted no majority while no other client held the lock and a majority of
// the nodes was up, and held once a client acquired and released the lock
// while nodes were lost to it. Broken wins over held: a failure seen stays.
func (l *Ledger) Properties(singleInstance bool) [3]Verdict {
	var p [3]Verdict
	switch {
	case len(l.Overlaps) > 0:
		p[0] = Broken
	case len(l.Refusals) > 0, l.claimsApart():
		p[0] = Held
	}
	switch {
	case len(l.Stuck()) > 0:
		p[1] = Broken
	case l.FreedByTTL() != nil:
		p[1] = Held
	}
	switch {
	case singleInstance || !l.quorumSeen && l.wholeSeen:
		// one server, or a primary with its replica: a single point of failure
		p[2] = Absent
	case l.Stalled() != nil:
		p[2] = Broken
	case l.survivedRelease():
		p[2] = Held
	}
	return p
}

// Stalled is the first count that found no majority although a majority
// of the nodes was up and no other client held the lock: the lock was not
// live. nil if none.
func (l *Ledger) Stalled() *sim.Event {
	if len(l.stalled) == 0 {
		return nil
	}
	return &l.stalled[0]
}

// survivedRelease reports whether a client acquired the lock while nodes
// were lost to it and then released it.
func (l *Ledger) survivedRelease() bool {
	for _, ls := range l.survived {
		if ls.End == Released {
			return true
		}
	}
	return false
}

// KeyStatus is what a key read back says of its lock.
type KeyStatus int

const (
	KeyFree   KeyStatus = iota // no such key: the lock is free
	KeyLeased                  // held, with a TTL that frees it
	KeyNoTTL                   // held with no TTL: only a DEL frees it
)

// Status is the key's state as read back.
func (k KeyRead) Status() KeyStatus {
	switch {
	case !k.Exists():
		return KeyFree
	case k.PTTL == -1:
		return KeyNoTTL
	}
	return KeyLeased
}

// LastOp is the actor's latest command of the given operation kind, with
// the ledger's reading of it; ok is false if it sent none.
func (l *Ledger) LastOp(actor string, kind sim.OpKind) (sim.Event, Read, bool) {
	for i := len(l.events) - 1; i >= 0; i-- {
		if e := l.events[i]; e.Actor == actor && e.Op != nil && e.Op.Kind == kind {
			return e, l.Reads[i], true
		}
	}
	return sim.Event{}, Read{}, false
}

// FirstOverlap is the first stretch of two holders, nil if none: the
// moment mutual exclusion broke, which the ⚠ line names for the rest of
// the run.
func (l *Ledger) FirstOverlap() *Overlap {
	if len(l.Overlaps) == 0 {
		return nil
	}
	return l.Overlaps[0]
}

// LatestOverlap is the latest stretch of two holders, nil if none: the one
// the ⚠ line and a verdict name.
func (l *Ledger) LatestOverlap() *Overlap {
	if len(l.Overlaps) == 0 {
		return nil
	}
	return l.Overlaps[len(l.Overlaps)-1]
}

// WriteCounts is how many writes the resource accepted and refused.
func (l *Ledger) WriteCounts() (accepted, refused int) {
	for _, w := range l.Writes {
		if w.Accepted {
			accepted++
		} else {
			refused++
		}
	}
	return accepted, refused
}

// ForeignDeletes counts the releases that deleted another actor's lock.
func (l *Ledger) ForeignDeletes() int {
	n := 0
	for _, r := range l.Reads {
		if r.What == DeletedOther {
			n++
		}
	}
	return n
}

// The readings of a distributed story (Redlock): each node's share is a
// lease on that node, never a holder; the client's count decides.
const (
	NodeGranted  What = "node-ok"       // one node said OK
	NodeRefused  What = "node-refused"  // one node's key was taken
	NodeFailed   What = "node-failed"   // one node failed: down, cut off, too slow, an error
	NodeLate     What = "node-late"     // a hung node woke and ran the SET: a lease nobody was told of
	NodeReleased What = "node-released" // one node's release deleted the actor's key
	NodeRelTaken What = "node-rel-taken"
	NodeRelGone  What = "node-rel-gone"
	QuorumHeld   What = "quorum-held"   // a majority and validity left: the client holds
	QuorumMissed What = "quorum-missed" // no majority, or no validity left
)

// part reads one node's share of a distributed acquire or release.
func (l *Ledger) part(e sim.Event) Read {
	op := e.Op
	l.quorumSeen = true
	s := slot(e.Node, op.Key)
	if op.Kind == sim.OpRelease {
		n, _ := e.Int()
		cur := l.byKey[s]
		switch n {
		case 1:
			if cur == nil || cur.Token != op.Token {
				cur = l.holding(e.Node, op.Key, op.Token)
			}
			if cur != nil {
				cur.End, cur.EndSeq, cur.EndAt = Released, e.Seq, e.At
			}
			delete(l.byKey, s)
			l.releaseQuorum(e)
			// a slow node may hold a key the client never heard about:
			// the script's 1 says it was this token all the same
			return Read{What: NodeReleased, Lease: cur}
		case 0:
			l.releaseQuorum(e)
			return Read{What: NodeRelTaken, Other: actorOf(l.present(e.Node, op.Key))}
		}
		l.gone(e.Node, op.Key, e.At)
		l.releaseQuorum(e)
		return Read{What: NodeRelGone}
	}
	if e.IsNil() {
		cur := l.present(e.Node, op.Key)
		return Read{What: NodeRefused, Lease: cur, Other: actorOf(cur)}
	}
	if !e.IsOK() {
		return Read{What: NodeFailed}
	}
	if cur := l.byKey[s]; cur != nil {
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, e.At
	}
	ls := &Lease{Lock: op.Lock, Node: e.Node, Key: op.Key, Actor: e.Actor, Token: op.Token,
		Seq: e.Seq, Granted: e.At, TTL: op.TTL, TTLAt: e.At, Form: op.Form, EndSeq: -1}
	l.Leases = append(l.Leases, ls)
	l.byKey[s] = ls
	if op.Late {
		// the client counted this node a failure long ago: the lease
		// runs on the node all the same, from the moment it woke
		return Read{What: NodeLate, Lease: ls}
	}
	return Read{What: NodeGranted, Lease: ls}
}

// QuorumNode is the node name of the lease a client's count grants: the
// lock as the client holds it, valid for the validity time it computed.
const QuorumNode = "quorum"

// quorum reads the client's count: held makes a lease of the validity
// time and the actor its holder (two such at once break mutual
// exclusion); not held is a refusal when another client held the lock.
func (l *Ledger) quorum(e sim.Event) Read {
	op := e.Op
	l.quorumSeen = true
	if !op.Held {
		var blocker *Lease
		for _, ls := range l.Leases {
			if ls.Node == QuorumNode && ls.Lock == op.Lock && ls.Actor != e.Actor && ls.AliveAt(e.At) {
				blocker = ls
			}
		}
		r := Read{What: QuorumMissed, Lease: blocker, Other: actorOf(blocker)}
		if blocker == nil && op.Votes < sim.Quorum(op.Of) && op.Of-l.down() >= sim.Quorum(op.Of) {
			l.stalled = append(l.stalled, e)
		}
		if blocker != nil {
			r.Refusal = &Refusal{Actor: e.Actor, Lock: op.Lock, Key: op.Key, Seq: e.Seq, At: e.At, Blocker: blocker}
			l.Refusals = append(l.Refusals, r.Refusal)
		}
		return r
	}
	ls := &Lease{Lock: op.Lock, Node: QuorumNode, Key: op.Key, Actor: e.Actor, Token: op.Token,
		Seq: e.Seq, Granted: e.At, TTL: op.TTL, TTLAt: e.At, Form: op.Form, EndSeq: -1, Votes: op.Votes, Of: op.Of}
	l.Leases = append(l.Leases, ls)
	l.byKey[ls.slot()] = ls
	if len(l.faulted(e.Actor)) > 0 {
		l.survived = append(l.survived, ls)
	}
	r := l.hold(e, ls)
	r.What = QuorumHeld
	return r
}

// releaseQuorum ends the actor's quorum lease of the lock at its first
// release on a node: it has let go.
func (l *Ledger) releaseQuorum(e sim.Event) {
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == e.Op.Lock {
			l.endHold(h, e, SentRelease)
		}
	}
	for _, ls := range l.Leases {
		if ls.Node == QuorumNode && ls.Actor == e.Actor && ls.Lock == e.Op.Lock && ls.End == Open {
			ls.End, ls.EndSeq, ls.EndAt = Released, e.Seq, e.At
			delete(l.byKey, ls.slot())
		}
	}
}

// nodeFault keeps track of which nodes are down, slow or cut off.
func (l *Ledger) nodeFault(e sim.Event) {
	if l.faults == nil {
		l.faults = map[string]bool{}
	}
	switch e.Fault {
	case sim.FaultNodeDown:
		l.faults[e.Node] = true
	case sim.FaultNodeUp:
		delete(l.faults, e.Node)
	case sim.FaultSlow:
		l.faults[e.Node+"/slow"] = true
	case sim.FaultFast:
		delete(l.faults, e.Node+"/slow")
	case sim.FaultHang:
		l.faults[e.Node+"/hung"] = true
	case sim.FaultWake:
		delete(l.faults, e.Node+"/hung")
	case sim.FaultCut:
		l.faults[e.Node+"/"+e.Actor] = true
	case sim.FaultHeal:
		delete(l.faults, e.Node+"/"+e.Actor)
	}
}

// faulted lists the nodes actor cannot use now: stopped, slow, hung, or
// cut off from it.
func (l *Ledger) faulted(actor string) []string {
	var out []string
	for k := range l.faults {
		node, who, _ := strings.Cut(k, "/")
		if who == "" || who == "slow" || who == "hung" || who == actor {
			if !slices.Contains(out, node) {
				out = append(out, node)
			}
		}
	}
	slices.Sort(out)
	return out
}

// uncopied reports that ls, granted on one node, never reached node: no
// replication step copied it there. A quorum lease lives on no one node.
func (l *Ledger) uncopied(ls *Lease, node string) bool {
	if ls.Node == QuorumNode || node == QuorumNode || slot(ls.Node, "") == slot(node, "") {
		return false
	}
	for _, c := range l.Leases {
		if c.Copy && c.Node == node && c.Token == ls.Token {
			return false
		}
	}
	return true
}

// replica reads a replication step: the lock key reached another node, so
// that node holds a copy of the lease (no new holder), ending with it.
func (l *Ledger) replica(e sim.Event) {
	src := l.leaseOf(e.Op.Token)
	if src == nil {
		return
	}
	ls := &Lease{Lock: src.Lock, Node: e.Node, Key: e.Op.Key, Actor: src.Actor, Token: src.Token,
		Seq: e.Seq, Granted: e.At, TTL: e.Op.TTL, TTLAt: e.At, Form: src.Form, EndSeq: -1, Copy: true}
	l.Leases = append(l.Leases, ls)
	l.byKey[ls.slot()] = ls
}

// down counts the nodes stopped now (not the slow ones, nor those cut off
// from one client: they are up).
func (l *Ledger) down() int {
	n := 0
	for k := range l.faults {
		if !strings.Contains(k, "/") {
			n++
		}
	}
	return n
}
