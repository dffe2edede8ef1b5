package ledger

import (
	"time"

	"locksim/sim"
)

// Fold reads events in order and, at story time now, the keys read back,
// on a clock that is the story's (the embedded server's).
func Fold(events []sim.Event, now time.Duration, keys []sim.KeyState) *Ledger {
	return FoldWithSlack(events, now, keys, 0)
}

// FoldWithSlack is Fold for a server whose clock may run up to slack (story
// time) ahead of the story's: a key found gone that close to its end lapsed.
func FoldWithSlack(events []sim.Event, now time.Duration, keys []sim.KeyState, slack time.Duration) *Ledger {
	l := &Ledger{Now: now, Reads: make([]Read, len(events)),
		status: map[string]sim.Status{}, byKey: map[string]*Lease{}, events: events, slack: slack, woke: map[string]int{}}
	for i, e := range events {
		l.lapse(e.At, e.Seq)
		l.Reads[i] = l.event(e)
		l.Reads[i].Lost = e.Lost && e.Kind == sim.Command
		// a timer's command in the move that woke its actor fell due
		// while the actor was frozen: it went out late, on waking
		l.Reads[i].Frozen = e.Timed && l.woke[e.Actor] == e.Move+1
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
		// on its node's clock, which may have jumped ahead of the story's
		if ls.End == Open && ls.Expires() && t > l.nodeEnd(ls) && ls.Form != sim.FormClaim {
			ls.End, ls.EndSeq, ls.EndAt = Lapsed, -1, l.nodeEnd(ls)
			if j := l.lastJump(ls); j > 0 && j >= ls.EndAt {
				// a jump carried its node's clock past the end: it ran
				// out at that jump, the event that ended it
				ls.EndSeq, ls.EndAt = seq, j
			}
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
			l.pauses = append(l.pauses, pause{actor: e.Actor, from: e.At, to: -1})
			return Read{What: PausedNow}
		case sim.FaultResume:
			l.status[e.Actor] = sim.Ready
			for i := range l.pauses {
				if p := &l.pauses[i]; p.actor == e.Actor && p.to < 0 {
					p.to = e.At
				}
			}
			l.woke[e.Actor] = e.Move + 1
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
	if e.Lost && e.Op.Seen != nil {
		if r, ok := l.lost(e); ok {
			return r
		}
	}
	if e.Lost && e.Op.Seen != nil && (e.Op.Kind == sim.OpRelease || e.Op.Kind == sim.OpExtend) {
		// the lab's lost reply: its story read the key before and after,
		// so what the command did is known though its client never heard
		if r, ok := l.seen(e); ok {
			return r
		}
	}
	if e.Unknown() {
		l.Unknowns = append(l.Unknowns, e.Seq)
		if e.Op.Kind == sim.OpExtend {
			return Read{What: ExtNoReply, Lease: l.leaseOf(e.Op.Token)}
		}
		return Read{What: UnknownOut}
	}
	if e.Op.Form == sim.FormReentrant {
		return l.reentrant(e)
	}
	if e.Op.Seen != nil && (e.Op.Kind == sim.OpRelease || e.Op.Kind == sim.OpExtend) {
		if r, ok := l.seen(e); ok {
			return r
		}
	}
	if e.ErrorReply() && e.Op.Kind == sim.OpExtend {
		// counted apart from 1, 0 and -1: an error before the script ran
		// (BUSY, NOSCRIPT) moved nothing; one raised inside it may follow
		// commands that stand (the readouts say which), and the lease's
		// end stays as the fold has it until a later reply tells
		return Read{What: ExtFailed, Lease: l.leaseOf(e.Op.Token)}
	}
	if e.ErrorReply() && e.Op.Kind != sim.OpFencedWrite {
		return Read{What: Failed, Refusal: l.refusedFree(e)}
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
		switch e.Op.Form {
		case sim.FormSetIfeq:
			if !e.IsOK() {
				return l.notSet(e)
			}
			n = 1 // OK says what the script's 1 says
		case sim.FormSetIfeqGet:
			// GET answers the value the key held whether or not the SET
			// happened: only the token itself says it renewed
			if v, _ := e.Val.(string); e.Err != nil || v != e.Op.Token {
				return l.notSet(e)
			}
			n = 1
		}
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
			r := Read{What: ExtTaken, Lease: l.leaseOf(e.Op.Token), Other: actorOf(l.notHolding(e))}
			if r.Lease != nil && r.Lease.End != Open {
				r.Why, r.WhyBy = r.Lease.End, r.Lease.By
			}
			return r
		}
		r := Read{What: ExtGone, Lease: l.leaseOf(e.Op.Token)}
		l.gone(e.Node, e.Op.Key, e)
		if r.Lease != nil {
			r.Why, r.WhyBy = r.Lease.End, r.Lease.By
		}
		return r
	case sim.OpCheck:
		own := l.leaseOf(e.Op.Token)
		v, _ := e.Val.(string)
		switch {
		case e.IsNil():
			l.gone(e.Node, e.Op.Key, e)
			l.giveUp(e)
			r := Read{What: CheckNone, Lease: own}
			if own != nil {
				r.Why, r.WhyBy = own.End, own.By
			}
			return r
		case v == e.Op.Token && l.unheld(e.Node, e.Op.Key, e.Op.Token):
			return l.foundOwn(e)
		case v == e.Op.Token:
			return Read{What: CheckOwn, Lease: l.holding(e.Node, e.Op.Key, e.Op.Token)}
		}
		l.giveUp(e)
		r := Read{What: CheckOther, Lease: own, Other: actorOf(l.notHolding(e))}
		if own != nil {
			r.Why, r.WhyBy = own.End, own.By
		}
		return r
	case sim.OpPeek:
		return l.peek(e)
	case sim.OpWrite, sim.OpFencedWrite:
		return l.write(e)
	}
	return Read{}
}

// peek reads a GET sent before a SET (the check-then-set acquire): (nil)
// says the key was free, and gone if a lease of the run still stood in
// the fold; a value says it was taken, by the lease whose token it is
// (Other its actor; none when no client of the run wrote it). A peek
// neither grants nor ends a hold: the SET after it, if any, decides.
func (l *Ledger) peek(e sim.Event) Read {
	if e.IsNil() {
		l.gone(e.Node, e.Op.Key, e)
		return Read{What: PeekFree}
	}
	v, _ := e.Val.(string)
	r := Read{What: PeekTaken}
	if v == "" {
		return r
	}
	if ls := l.holding(e.Node, e.Op.Key, v); ls != nil {
		r.Lease, r.Other = ls, ls.Actor
	}
	return r
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
	case sim.FormSET, sim.FormSetIfne:
		granted, refused = e.IsOK(), e.IsNil()
	case sim.FormSetNXGet:
		// GET answers the value before: (nil) the key was free and is now
		// set; the actor's own token, its own key (NX refused the SET);
		// another value, refused
		v, isStr := e.Val.(string)
		if isStr && e.Err == nil && v == op.Token {
			return l.foundOwn(e)
		}
		granted, refused = e.IsNil(), isStr && e.Err == nil
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
		if rf := l.refusedFree(e); rf != nil {
			return Read{What: Refused, Refusal: rf}
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
		// a reply, not an error, that grants nothing: a status other than
		// OK, an integer of 0 or below, a string
		return Read{What: NotGranted, Refusal: l.refusedFree(e)}
	}
	cur := l.byKey[slot(e.Node, op.Key)]
	var replaced *Lease
	switch {
	case cur != nil && !op.NX:
		// the key held another value: a SET without NX replaced it
		cur.End, cur.EndSeq, cur.EndAt, cur.By = Overwritten, e.Seq, e.At, e.Actor
		replaced = cur
	case cur != nil && !l.early(cur, e):
		// NX was granted, so the key was free: the lease had in truth run
		// out a moment before the fold's clock said so (a live server)
		cur.End, cur.EndSeq, cur.EndAt = Lapsed, -1, e.At
	case cur != nil:
		// no TTL, or time left on it: no expiry freed the key, something
		// outside the run removed it
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
		if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock && !op.Nested {
			l.endHold(h, e, SentRelease)
		}
	}
	r := Read{Lease: own}
	var cur *Lease
	switch {
	case n == 1 && (op.Form == sim.FormScript || sim.ComparesInOneCommand(op.Form)):
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
		r.What, r.Other = RelTaken, actorOf(l.notHolding(e))
	case op.Form == sim.FormScript:
		r.What = RelGone
	case sim.ComparesInOneCommand(op.Form):
		r.What = RelNotDeleted
		r.Other = l.notFound(e)
	default:
		r.What = DelNothing
	}
	if n == 1 || r.What == RelGone || r.What == DelNothing {
		l.gone(e.Node, op.Key, e)
	}
	if own != nil && r.What != ReleasedOwn {
		r.Why, r.WhyBy = own.End, own.By
	}
	return r
}

// notSet reads a SET … IFEQ renewal's nil (with GET: nil, or a value not
// its token): the key held another token or none, which the nil does not
// say and the fold does.
func (l *Ledger) notSet(e sim.Event) Read {
	r := Read{What: ExtNotSet, Lease: l.leaseOf(e.Op.Token), Other: l.notFound(e)}
	if r.Lease != nil && r.Lease.End != Open {
		r.Why, r.WhyBy = r.Lease.End, r.Lease.By
	}
	return r
}

// notFound reads a one-command form's refusal (DELEX IFEQ's or DELIFEQ's 0,
// SET IFEQ's nil), which says only that the key did not hold e's token: the
// actor of the lease another token put on the key, or "" when the key was
// gone, whose lease then ended as a -1 would have told.
func (l *Ledger) notFound(e sim.Event) string {
	if cur := l.byKey[slot(e.Node, e.Op.Key)]; cur != nil && cur.Token != e.Op.Token {
		return cur.Actor
	}
	l.gone(e.Node, e.Op.Key, e)
	return ""
}

// refusedLast is the actor's refusal of lock when its latest acquire of it
// was refused (it never held the lock since): a release it sends then runs
// without the lock, as a release in a finally block does. nil otherwise.
// refusedFree records and returns the refusal of acquire e when the key
// held nothing as it ran and no client acted as holder (Refusal.Free): its
// reply was heard, and its sim.Op.Seen read the key before it. nil for any other event: a lock
// that grants when free, or an acquire whose key was not read.
func (l *Ledger) refusedFree(e sim.Event) *Refusal {
	op := e.Op
	if op == nil || op.Kind != sim.OpAcquire || e.Lost || e.Unknown() || op.Seen == nil || op.Seen.Had || len(l.Holders()) > 0 {
		// a client that acts as holder may hold the lock in another key
		// than the one read
		return nil
	}
	for _, h := range l.Holds {
		if h.Actor == e.Actor && h.Open() && h.Lock == op.Lock {
			l.endHold(h, e, RefusedAgain)
		}
	}
	rf := &Refusal{Actor: e.Actor, Lock: op.Lock, Key: op.Key, Seq: e.Seq, At: e.At, Free: true}
	l.Refusals = append(l.Refusals, rf)
	return rf
}

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

func (ls *Lease) slot() string {
	if ls.Form == sim.FormClaim {
		return memberSlot(ls.Key, ls.Token) // many jobs share one sorted set
	}
	return slot(ls.Node, ls.Key)
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
