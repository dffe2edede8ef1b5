package check

import (
	"sort"
	"time"

	"locksim/sim"
	"locksim/sim/ledger"
)

// build reads the events, with the ledger's reading of each, as a history.
func build(events []sim.Event, led *ledger.Ledger, o Options) History {
	h := History{Ops: make([]Op, 0, len(events)), End: led.Now, Live: o.Live, Slack: o.Slack}
	// an event's position from its Seq: a run numbers its events in
	// order, so Seq is the position, except in hand-made events
	var index map[int]int
	pos := func(seq int) int {
		if seq >= 0 && seq < len(events) && events[seq].Seq == seq {
			return seq
		}
		if index == nil {
			index = make(map[int]int, len(events))
			for i, e := range events {
				index[e.Seq] = i
			}
		}
		if i, ok := index[seq]; ok {
			return i
		}
		return len(events) // a hold ended by the fold's last look, at now
	}
	// the holds each event ends, and the ones the fold ended before it
	// (a validity or a try that ran out)
	endsAt := map[int][]*ledger.Hold{}
	letGo := map[int][]*ledger.Hold{}
	for _, hd := range led.Holds {
		if hd.Open() {
			continue
		}
		switch hd.End {
		case ledger.ValidityOver, ledger.TryOver:
			letGo[pos(hd.To)] = append(letGo[pos(hd.To)], hd)
		case ledger.Reacquired:
			// the new grant itself says it: the holder holds again
		default:
			endsAt[pos(hd.To)] = append(endsAt[pos(hd.To)], hd)
		}
	}
	skew := map[string]time.Duration{}
	for i, e := range events {
		for _, hd := range letGo[i] {
			h.add(Op{Seq: -1, Actor: hd.Actor, Kind: LetGo, Lock: hd.Lock, Node: hd.Lease.Node, Call: hd.ToAt, Return: hd.ToAt,
				Clock: hd.ToAt, Ends: true, Reply: holdEnd(hd.End)}, i)
		}
		var rd ledger.Read
		if i < len(led.Reads) {
			rd = led.Reads[i]
		}
		ends := len(endsAt[i]) > 0
		switch e.Kind {
		case sim.Fault:
			if e.Fault == sim.FaultClockJump {
				skew[e.Node] += e.Jump
			}
			switch {
			case e.Fault == sim.FaultCrash:
				h.add(Op{Seq: e.Seq, Actor: e.Actor, Kind: Crash, Call: e.At, Return: e.At, Clock: e.At, Ends: ends}, i)
			// sim says a restart lost the node's keys only in its note
			// ("restarted empty"): a restart with its data changes nothing
			case e.RestartedEmpty():
				h.add(Op{Seq: e.Seq, Kind: Restart, Node: e.Node, Call: e.At, Return: e.At, Clock: e.At + skew[e.Node]}, i)
			}
			continue
		case sim.Info:
			if e.Op == nil {
				continue
			}
			switch e.Op.Form {
			case sim.FormQuorum:
				op := Op{Seq: e.Seq, Actor: e.Actor, Kind: Acquire, Lock: e.Op.Lock, Node: ledger.QuorumNode, Key: e.Op.Key,
					Token: e.Op.Token, TTL: e.Op.TTL, Form: sim.FormQuorum, Call: e.At, Return: e.At, Clock: e.At,
					Outcome: Refused, Reply: e.Note, Ends: ends}
				if e.Op.Held {
					op.Outcome = Granted
				}
				h.add(op, i)
			case sim.FormReplica:
				h.add(Op{Seq: e.Seq, Kind: Replicate, Node: nodeOf(e), Key: e.Op.Key, Token: e.Op.Token, TTL: e.Op.TTL,
					Form: sim.FormReplica, Call: e.At, Return: e.At, Clock: e.At + skew[nodeOf(e)]}, i)
			}
			continue
		case sim.Command:
		default:
			continue
		}
		if e.Op == nil || e.Op.Kind == sim.OpGiveUp {
			continue
		}
		op := Op{Seq: e.Seq, Actor: e.Actor, Lock: e.Op.Lock, Node: nodeOf(e), Key: e.Op.Key, Token: e.Op.Token,
			TTL: e.Op.TTL, NX: e.Op.NX, Form: e.Op.Form, Fence: e.Op.Fence, Call: e.At, Return: e.At,
			Clock: e.At + skew[nodeOf(e)], Reply: e.Reply, Late: e.Op.Late, Part: e.Op.Part, Ends: ends}
		op.Int, _ = e.Int()
		op.Value, _ = e.Val.(string)
		if ends {
			op.Lock = endsAt[i][0].Lock
		}
		switch e.Op.Kind {
		case sim.OpAcquire:
			op.Kind = Acquire
		case sim.OpExpire:
			op.Kind = Expire
		case sim.OpRelease:
			op.Kind = Release
		case sim.OpExtend:
			op.Kind = Extend
		case sim.OpCheck:
			op.Kind = Verify
		case sim.OpWrite, sim.OpFencedWrite:
			op.Kind = Write
		default:
			continue
		}
		switch rd.What {
		case ledger.Granted, ledger.QuorumHeld, ledger.NodeGranted, ledger.NodeLate:
			op.Outcome = Granted
			if rd.Lease != nil {
				op.Lock, op.Fence = rd.Lease.Lock, rd.Lease.Fence
			}
		case ledger.Reentered:
			op.Outcome, op.Nested = Granted, true
		case ledger.FoundOwn:
			op.Claims = true
			if op.Kind == Acquire {
				op.Outcome = Refused // NX refused it: the key was there
			}
		case ledger.RelKept:
			op.Nested = true
		case ledger.Refused, ledger.NodeRefused, ledger.RelTaken, ledger.RelGone, ledger.ExtTaken, ledger.ExtGone,
			ledger.RelNotDeleted, ledger.ExtNotSet,
			ledger.RelNotHeld, ledger.RelNoLock, ledger.DelNothing, ledger.CheckOther, ledger.CheckNone, ledger.TTLMissed:
			op.Outcome = Refused
		}
		if e.Unknown() && !e.Op.Late {
			op.Outcome, op.Return = Open, -1
		}
		if op.Kind == Write {
			if w := rd.Write; w != nil {
				op.Accepted, op.Fenced = w.Accepted, w.Fenced
				op.Rank = w.Token
				if !w.Fenced {
					op.Rank = rank(led, e.Actor, e.Seq)
				}
			}
			op.Lock = writerLock(led, e.Actor, e.Seq)
		}
		if op.Form == sim.FormClaim && op.Outcome == Granted && rd.Lease != nil {
			op.Token = rd.Lease.Token
		}
		if op.Form == sim.FormReap {
			ids, _ := e.Val.([]any)
			for _, id := range ids {
				if s, ok := id.(string); ok {
					op.reaped = append(op.reaped, s)
				}
			}
		}
		h.add(op, i)
	}
	for _, hd := range led.Holds {
		if hd.Open() {
			continue
		}
		if hd.End == ledger.ValidityOver || hd.End == ledger.TryOver {
			if pos(hd.To) == len(events) {
				h.add(Op{Seq: -1, Actor: hd.Actor, Kind: LetGo, Lock: hd.Lock, Node: hd.Lease.Node, Call: hd.ToAt,
					Return: hd.ToAt, Clock: hd.ToAt, Ends: true, Reply: holdEnd(hd.End)}, len(events))
			}
		}
	}
	h.volleys(events)
	h.spans(led)
	h.marks(events)
	return h
}

func nodeOf(e sim.Event) string {
	if e.Node == "" {
		return sim.LockNode
	}
	return e.Node
}

// add appends op, read at event position i.
func (h *History) add(op Op, i int) {
	op.pos = i
	h.Ops = append(h.Ops, op)
}

// rank is the order of the grant an unfenced write stands on: the writer's
// latest hold begun before the write, counted among every hold of its lock
// (1 for the first); 0 when the writer never held it.
func rank(led *ledger.Ledger, actor string, seq int) int64 {
	var mine *ledger.Hold
	for _, hd := range led.Holds {
		if hd.Actor == actor && hd.From <= seq {
			mine = hd
		}
	}
	if mine == nil {
		return 0
	}
	var n int64
	for _, hd := range led.Holds {
		if hd.Lock == mine.Lock && hd.From <= mine.From {
			n++
		}
	}
	return n
}

// writerLock is the lock of the writer's latest hold begun before the
// write: the resource that lock guards.
func writerLock(led *ledger.Ledger, actor string, seq int) string {
	lock := ""
	for _, hd := range led.Holds {
		if hd.Actor == actor && hd.From <= seq {
			lock = hd.Lock
		}
	}
	return lock
}

// volleys makes the commands of one race volley (the events of one move
// that carry the order the server replied in) concurrent: sent together,
// answered in the server's order.
func (h *History) volleys(events []sim.Event) {
	for i := 0; i < len(h.Ops); {
		j := i + 1
		if p := h.Ops[i].pos; p < len(events) && events[p].Order > 0 {
			for j < len(h.Ops) && h.Ops[j].pos < len(events) && events[h.Ops[j].pos].Order > 0 &&
				events[h.Ops[j].pos].Move == events[p].Move {
				j++
			}
			for k := i + 1; k < j; k++ {
				h.Ops[k].volley = i + 1
			}
		}
		i = j
	}
}

// spans reads the ledger's holds and leases for the timeline.
func (h *History) spans(led *ledger.Ledger) {
	for _, hd := range led.Holds {
		s := Span{Actor: hd.Actor, Lock: hd.Lock, Node: hd.Lease.Node, From: hd.FromAt, To: hd.ToAt}
		if hd.Open() {
			s.Open, s.To = true, h.End
		} else {
			s.End = holdEnd(hd.End)
		}
		h.Holds = append(h.Holds, s)
	}
	for _, ls := range led.Leases {
		if ls.Copy {
			continue
		}
		s := Span{Actor: ls.Actor, Lock: ls.Lock, Node: ls.Node, From: ls.Granted, To: ls.EndAt}
		switch {
		case ls.End == ledger.Open && ls.Expires() && ls.Ends() < h.End:
			s.To, s.End = ls.Ends(), ledger.Lapsed.String()
		case ls.End == ledger.Open:
			s.Open, s.To = true, h.End
		default:
			s.End = ls.End.String()
		}
		h.Leases = append(h.Leases, s)
	}
}

// marks reads the faults as spans and points on the story clock.
func (h *History) marks(events []sim.Event) {
	open := map[string]int{} // kind and who → its mark, while it lasts
	start := func(m Mark) {
		open[m.Kind.String()+"\x00"+m.Actor+"\x00"+m.Node] = len(h.Marks)
		h.Marks = append(h.Marks, m)
	}
	stop := func(k MarkKind, actor, node string, at time.Duration) {
		key := k.String() + "\x00" + actor + "\x00" + node
		if i, ok := open[key]; ok {
			h.Marks[i].To, h.Marks[i].Open = at, false
			delete(open, key)
		}
	}
	for _, e := range events {
		if e.Kind != sim.Fault {
			continue
		}
		m := Mark{Actor: e.Actor, Node: e.Node, Seq: e.Seq, From: e.At, To: h.End, Open: true, Text: e.Note}
		switch e.Fault {
		case sim.FaultPause:
			m.Kind, m.Node = Pause, ""
			start(m)
		case sim.FaultResume:
			stop(Pause, e.Actor, "", e.At)
		case sim.FaultCrash:
			m.Kind, m.To, m.Open, m.Node = Crashed, e.At, false, ""
			stop(Pause, e.Actor, "", e.At)
			h.Marks = append(h.Marks, m)
		case sim.FaultNodeDown:
			m.Kind = NodeDown
			start(m)
		case sim.FaultNodeUp:
			stop(NodeDown, "", e.Node, e.At)
			m.Kind, m.To, m.Open = Restarted, e.At, false
			m.Empty = e.RestartedEmpty()
			h.Marks = append(h.Marks, m)
		case sim.FaultCut:
			m.Kind = Cut
			start(m)
		case sim.FaultHeal:
			stop(Cut, e.Actor, e.Node, e.At)
		case sim.FaultSlow:
			m.Kind = Slow
			start(m)
		case sim.FaultFast:
			stop(Slow, "", e.Node, e.At)
		case sim.FaultHang:
			m.Kind = Hung
			start(m)
		case sim.FaultWake:
			stop(Hung, "", e.Node, e.At)
		case sim.FaultClockJump:
			m.Kind, m.To, m.Open, m.Jump = ClockJump, e.At, false, e.Jump
			h.Marks = append(h.Marks, m)
		}
	}
	// sort.SliceStable, not slices.SortStableFunc: shared code, not a
	// copy compiled for Mark (docs/benchmarks.md: the binary's size)
	sort.SliceStable(h.Marks, func(i, j int) bool { return h.Marks[i].From < h.Marks[j].From })
}

func holdEnd(e ledger.HoldEnd) string {
	return [...]string{"holding", "released", "crashed", "acquired again", "gave up", "refused again",
		"validity over", "try over"}[e]
}
