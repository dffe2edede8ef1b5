package check

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"locksim/sim"
)

// Porcupine reads an operation as a closed interval [Call, Return] of
// integer times. Every command of one story step shares its story time, so
// the intervals come from the order of the ops instead: op j is called at
// tick(j) and returns just after, the ops of a race volley are all called
// at the volley's first tick, and an open call returns after everything
// (the model may place it anywhere after its call, or take it as having
// had no effect).
func tick(j int) int64 { return int64(4*j + 4) }

func (h History) operations(include func(Op) bool) []porcupine.Operation {
	var out []porcupine.Operation
	end := tick(len(h.Ops)) + 4
	for j, op := range h.Ops {
		if !include(op) {
			continue
		}
		call := tick(j)
		if op.volley > 0 {
			call = tick(op.volley - 1)
		}
		ret := call + 2
		if op.volley > 0 {
			ret = tick(j) + 2
		}
		if op.Outcome == Open {
			ret = end
		}
		out = append(out, porcupine.Operation{ClientId: 0, Input: j, Call: call, Output: j, Return: ret, Metadata: j})
	}
	return out
}

// a model over h's ops: which ops it reads, how it splits them into
// independent parts, and the porcupine model of one part.
type spec struct {
	include   func(Op) bool
	partition func(Op) []string // the parts an op belongs to
	model     porcupine.Model
}

func (h History) spec(m Model) spec {
	switch m {
	case Server:
		return h.serverSpec()
	case Mutex:
		return h.mutexSpec()
	}
	return h.resourceSpec()
}

// partitions splits ops by sp.partition; an op of several parts (a crash,
// a node's restart) goes into each. Parts come out in the order of their
// first op.
func (h History) partitions(sp spec, ops []porcupine.Operation) [][]porcupine.Operation {
	byName := map[string]int{}
	var parts [][]porcupine.Operation
	everywhere := []porcupine.Operation{} // ops of every part: added after
	for _, o := range ops {
		keys := sp.partition(h.Ops[o.Metadata.(int)])
		if keys == nil {
			everywhere = append(everywhere, o)
			continue
		}
		for _, k := range keys {
			i, ok := byName[k]
			if !ok {
				i = len(parts)
				byName[k] = i
				parts = append(parts, nil)
			}
			parts[i] = append(parts[i], o)
		}
	}
	for i := range parts {
		parts[i] = append(parts[i], everywhere...)
		sort.SliceStable(parts[i], func(a, b int) bool { return parts[i][a].Metadata.(int) < parts[i][b].Metadata.(int) })
	}
	return parts
}

func checkModel(h History, m Model, timeout time.Duration) Finding {
	v := Finding{Model: m, At: -1}
	sp := h.spec(m)
	ops := h.operations(sp.include)
	if m == Resource {
		v.Unfenced, v.Refused = h.fencing()
	}
	if !h.reads(m, sp) {
		v.Result = NotApplicable
		v.Sentence = sentence(h, v)
		return v
	}
	parts := h.partitions(sp, ops)
	model := sp.model
	model.Partition = func([]porcupine.Operation) [][]porcupine.Operation { return parts }
	res, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
	switch res {
	case porcupine.Ok:
		v.Result = Linearizable
	case porcupine.Unknown:
		v.Result = Unknown
	default:
		v.Result = NotLinearizable
		v.At = h.firstUnplaced(parts, info)
		if v.At >= 0 {
			v.Op = h.Ops[v.At]
		}
	}
	v.Sentence = sentence(h, v)
	return v
}

// fencing reports whether the resource accepted a write with no token,
// and how many stale tokens it refused.
func (h History) fencing() (unfenced bool, refused int) {
	for _, op := range h.Ops {
		if op.Kind != Write {
			continue
		}
		if op.Accepted && !op.Fenced {
			unfenced = true
		}
		if op.Fenced && !op.Accepted && op.Outcome != Open {
			refused++
		}
	}
	return unfenced, refused
}

// reads reports whether the model has anything to judge in h.
func (h History) reads(m Model, sp spec) bool {
	for _, op := range h.Ops {
		if !sp.include(op) {
			continue
		}
		switch {
		case m == Mutex && op.Kind == Acquire && op.Outcome == Granted,
			m == Server && (op.Kind == Acquire || op.Kind == Release || op.Kind == Extend || op.Kind == Verify || op.Kind == Expire),
			m == Resource && op.Kind == Write:
			return true
		}
	}
	return false
}

// firstUnplaced is the op no order could place: in each part porcupine
// could not linearize, the earliest op (not an open call) left out of its
// longest partial linearization; of those, the earliest. -1 if none.
func (h History) firstUnplaced(parts [][]porcupine.Operation, info porcupine.LinearizationInfo) int {
	best := -1
	partials := info.PartialLinearizations()
	for p, part := range parts {
		if p >= len(partials) {
			break
		}
		var longest []int
		for _, l := range partials[p] {
			if len(l) > len(longest) {
				longest = l
			}
		}
		if len(longest) == len(part) {
			continue
		}
		placed := map[int]bool{}
		for _, id := range longest {
			placed[id] = true
		}
		for id, o := range part {
			j := o.Metadata.(int)
			if placed[id] || h.Ops[j].Outcome == Open {
				continue
			}
			if best < 0 || j < best {
				best = j
			}
			break
		}
	}
	return best
}

// ---- the client's mutex ----

type mutexState struct {
	holder string
	count  int
}

func (h History) mutexSpec() spec {
	return spec{
		include: func(op Op) bool {
			switch {
			case op.Kind == Acquire && !op.Part && op.Kind != Replicate:
				return true
			case op.Ends, op.Kind == Crash, op.Kind == LetGo, op.Kind == Release && op.Nested:
				return true
			}
			return false
		},
		partition: func(op Op) []string {
			if op.Kind == Crash {
				return nil // it ends the actor's hold of every lock
			}
			return []string{op.Lock}
		},
		model: porcupine.Model{
			Init: func() any { return mutexState{} },
			Step: func(state, input, _ any) (bool, any) {
				return mutexStep(state.(mutexState), h.Ops[input.(int)])
			},
			DescribeOperation: func(input, _ any) string { return h.describe(input.(int)) },
			DescribeState:     func(state any) string { return describeMutex(state.(mutexState)) },
		},
	}
}

func describeMutex(s mutexState) string {
	switch {
	case s.holder == "":
		return "free"
	case s.count > 1:
		return fmt.Sprintf("held by %s (%d deep)", s.holder, s.count)
	}
	return "held by " + s.holder
}

// mutexStep is the client's mutex after op, and whether op could happen.
// An acquire with no reply changes nothing: the client was not told it
// holds the lock, so it does not act as holder (the server's model is the
// one that asks whether it ran).
func mutexStep(s mutexState, op Op) (bool, any) {
	switch {
	case op.Kind == Acquire && op.Outcome == Granted:
		switch {
		case s.holder == "":
			return true, mutexState{holder: op.Actor, count: 1}
		case s.holder == op.Actor && op.Nested:
			return true, mutexState{holder: op.Actor, count: s.count + 1}
		case s.holder == op.Actor:
			return true, mutexState{holder: op.Actor, count: 1}
		}
		return false, s // another client holds it: a mutex would not grant it
	case op.Kind == Release && op.Nested && !op.Ends:
		if s.holder == op.Actor && s.count > 1 {
			s.count--
		}
		return true, s
	case op.Ends && s.holder == op.Actor:
		return true, mutexState{}
	}
	return true, s
}

// ---- the server's lease ----

type leaseState struct {
	present bool
	token   string
	exp     time.Duration // on the node's clock; -1 = no TTL
	count   int64         // a hash lock's hold count
}

// serverSpec reads the lock keys node by node. Claims (a job queue's
// scripts) are left to the mutex and the resource: their state is a
// sorted set of many jobs, not one lease.
func (h History) serverSpec() spec {
	slack := h.Slack
	return spec{
		include: func(op Op) bool {
			switch {
			case op.Form == sim.FormQuorum:
				return false
			case op.Form == sim.FormClaim:
				return op.Outcome == Granted || op.Outcome == Open
			case op.Form == sim.FormReap, op.Form == sim.FormComplete:
				return true
			}
			switch op.Kind {
			case Acquire, Release, Extend, Expire, Verify, Replicate:
				return op.Node != sim.ResourceNode
			case Restart:
				return true
			}
			return false
		},
		partition: func(op Op) []string {
			switch {
			case op.Kind == Restart:
				return h.keysOn(op.Node)
			case op.Form == sim.FormReap:
				return h.jobsOn(op.Node, op.Key)
			case op.Form == sim.FormClaim, op.Form == sim.FormComplete:
				return []string{jobPart(op.Node, op.Key, op.Token)}
			}
			return []string{op.Node + "\x00" + op.Key}
		},
		model: (&porcupine.NondeterministicModel{
			Init: func() []any { return []any{leaseState{}} },
			Step: func(state, input, _ any) []any {
				op := h.Ops[input.(int)]
				switch op.Form {
				case sim.FormClaim, sim.FormReap, sim.FormComplete:
					js, _ := state.(jobState) // a part's first op finds the lease's zero state
					return jobStep(js, op, slack)
				}
				var out []any
				for _, s := range expire(state.(leaseState), op.Clock, slack) {
					out = append(out, serverStep(s, op)...)
				}
				return out
			},
			DescribeOperation: func(input, _ any) string { return h.describe(input.(int)) },
			DescribeState: func(state any) string {
				if js, ok := state.(jobState); ok {
					return describeJob(js)
				}
				s := state.(leaseState)
				switch {
				case !s.present:
					return "no key"
				case s.exp < 0:
					return "holds " + short(s.token) + ", no TTL"
				}
				return "holds " + short(s.token) + " until " + stamp(s.exp)
			},
		}).ToModel(),
	}
}

// ---- a job queue's claims, on the same server ----

// jobState is one job of a queue that leases instead of locking: claimed
// (in the active set, with a deadline on the server's clock) or not, how
// many claims it has had, and whether a completion finished it.
type jobState struct {
	id       string // "" until a claim of it is read
	active   bool
	attempts int64
	deadline time.Duration
	done     bool
}

func jobPart(node, key, id string) string { return node + "\x00" + key + "\x00job\x00" + id }

// jobsOn lists the parts of every job the history claims on a queue's
// active set: a reap reads them all.
func (h History) jobsOn(node, key string) []string {
	var out []string
	for _, op := range h.Ops {
		if op.Form == sim.FormClaim && op.Node == node && op.Key == key && op.Token != "" {
			if p := jobPart(node, key, op.Token); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	if out == nil {
		return []string{jobPart(node, key, "")}
	}
	return out
}

// jobStep is the job after op: a claim takes a job nobody holds and counts
// the attempt; a reap returns exactly the claimed jobs whose deadline is
// below the server's clock (within slack, either); a completion answers 1
// for the claim that holds the job, 0 when its attempts moved on, -1 when
// the job is no longer claimed.
func jobStep(s jobState, op Op, slack time.Duration) []any {
	ok := func(cond bool, next jobState) []any {
		if cond {
			return []any{next}
		}
		return nil
	}
	switch op.Form {
	case sim.FormClaim:
		next := jobState{id: op.Token, active: true, attempts: op.Fence, deadline: op.Clock + op.TTL}
		if op.Outcome == Open {
			return []any{s, next}
		}
		return ok(!s.active && !s.done && op.Fence == s.attempts+1, next)
	case sim.FormReap:
		reaped := s.id != "" && slices.Contains(op.reaped, s.id)
		overdue := s.active && s.deadline < op.Clock-slack
		maybe := s.active && s.deadline < op.Clock+slack
		switch {
		case op.Outcome == Open && maybe:
			return []any{s, jobState{id: s.id, attempts: s.attempts}}
		case op.Outcome == Open, !reaped && !maybe:
			return []any{s}
		case reaped && maybe:
			return []any{jobState{id: s.id, attempts: s.attempts}}
		case !reaped && !overdue:
			return []any{s}
		}
		return nil
	case sim.FormComplete:
		if op.Outcome == Open {
			return []any{s, jobState{id: s.id, attempts: s.attempts, done: true}}
		}
		switch op.Int {
		case 1:
			return ok(s.active && s.attempts == op.Fence, jobState{id: s.id, attempts: s.attempts, done: true})
		case 0:
			return ok(s.attempts != op.Fence, s)
		}
		return ok(s.attempts == op.Fence && !s.active, s)
	}
	return []any{s}
}

func describeJob(s jobState) string {
	switch {
	case s.done:
		return fmt.Sprintf("done after %d claims", s.attempts)
	case s.active:
		return fmt.Sprintf("claimed (attempt %d) until %s", s.attempts, stamp(s.deadline))
	}
	return fmt.Sprintf("pending after %d claims", s.attempts)
}

// keysOn lists the parts of every lock key the history touches on node.
func (h History) keysOn(node string) []string {
	var out []string
	seen := map[string]bool{}
	for _, op := range h.Ops {
		if op.Node == node && op.Key != "" && op.Kind != Restart {
			k := op.Node + "\x00" + op.Key
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	if out == nil {
		return []string{node + "\x00"}
	}
	return out
}

// expire is the key at clock t: Redis keeps a key through the millisecond
// its TTL ends and removes it after. Within slack of that moment (a live
// server, whose clock ran on between the story's steps) both are possible.
func expire(s leaseState, t, slack time.Duration) []leaseState {
	if !s.present || s.exp < 0 {
		return []leaseState{s}
	}
	gone := leaseState{}
	switch {
	case t > s.exp+slack:
		return []leaseState{gone}
	case t <= s.exp-slack || slack == 0:
		return []leaseState{s}
	}
	return []leaseState{s, gone}
}

func deadline(clock, ttl time.Duration) time.Duration {
	if ttl <= 0 {
		return -1
	}
	return clock + ttl
}

func serverStep(s leaseState, op Op) []any {
	if op.Outcome == Open {
		// the command may have run or not: its effect, if the key allowed
		// it, or nothing
		out := []any{s}
		if op.Kind == Acquire && (!s.present || !op.NX) {
			out = append(out, leaseState{present: true, token: op.Token, exp: deadline(op.Clock, op.TTL), count: 1})
		}
		if op.Kind == Release && s.present && s.token == op.Token {
			out = append(out, leaseState{})
		}
		if op.Kind == Extend && s.present && s.token == op.Token {
			out = append(out, leaseState{present: true, token: s.token, exp: deadline(op.Clock, op.TTL), count: s.count})
		}
		return out
	}
	mine := s.present && s.token == op.Token
	other := s.present && s.token != op.Token
	ok := func(cond bool, next leaseState) []any {
		if cond {
			return []any{next}
		}
		return nil
	}
	switch op.Kind {
	case Restart:
		return []any{leaseState{}}
	case Replicate:
		return []any{leaseState{present: true, token: op.Token, exp: deadline(op.Clock, op.TTL), count: 1}}
	case Acquire:
		if op.Reply != "" && isError(op.Reply) {
			return []any{s}
		}
		if op.Form == sim.FormReentrant {
			switch {
			case op.Outcome == Granted && op.Int == 1:
				return ok(!s.present, leaseState{present: true, token: op.Token, exp: deadline(op.Clock, op.TTL), count: 1})
			case op.Outcome == Granted:
				return ok(mine && s.count == op.Int-1, leaseState{present: true, token: op.Token, exp: deadline(op.Clock, op.TTL), count: op.Int})
			}
			return ok(other, s)
		}
		switch op.Outcome {
		case Granted:
			return ok(!s.present || !op.NX, leaseState{present: true, token: op.Token, exp: deadline(op.Clock, op.TTL), count: 1})
		case Refused:
			return ok(s.present, s)
		}
		return []any{s}
	case Release:
		if op.Form == sim.FormReentrant {
			switch {
			case op.Outcome == Refused && op.Reply != "" && strings.Contains(op.Reply, sim.ErrNoLock):
				return ok(!s.present, s)
			case op.Outcome == Refused:
				return ok(other, s)
			case op.Nested:
				return ok(mine && s.count == op.Int+1, leaseState{present: true, token: s.token, exp: deadline(op.Clock, op.TTL), count: op.Int})
			}
			return ok(mine, leaseState{})
		}
		if isError(op.Reply) {
			return []any{s}
		}
		if op.Form == sim.FormScript {
			switch op.Int {
			case 1:
				return ok(mine, leaseState{})
			case 0:
				return ok(other, s)
			}
			return ok(!s.present, s)
		}
		// DEL deletes whatever the key holds
		if op.Int == 1 {
			return ok(s.present, leaseState{})
		}
		return ok(!s.present, s)
	case Extend:
		if isError(op.Reply) {
			return []any{s}
		}
		switch op.Int {
		case 1:
			return ok(mine, leaseState{present: true, token: s.token, exp: deadline(op.Clock, op.TTL), count: s.count})
		case 0:
			return ok(other, s)
		}
		return ok(!s.present, s)
	case Expire:
		if op.Int == 1 {
			return ok(s.present, leaseState{present: true, token: s.token, exp: deadline(op.Clock, op.TTL), count: s.count})
		}
		return ok(!s.present, s)
	case Verify:
		if op.Value == "" {
			return ok(!s.present, s)
		}
		return ok(s.present && s.token == op.Value, s)
	}
	return []any{s}
}

func isError(reply string) bool { return len(reply) >= 7 && reply[:7] == "(error)" }

// ---- the fenced resource ----

func (h History) resourceSpec() spec {
	return spec{
		include:   func(op Op) bool { return op.Kind == Write },
		partition: func(op Op) []string { return []string{op.Lock} },
		model: (&porcupine.NondeterministicModel{
			Init: func() []any { return []any{int64(math.MinInt64)} },
			Step: func(state, input, _ any) []any {
				highest, op := state.(int64), h.Ops[input.(int)]
				allowed := op.Rank >= highest
				switch {
				case op.Outcome == Open && allowed:
					return []any{highest, op.Rank}
				case op.Outcome == Open:
					return []any{highest}
				case op.Accepted && allowed:
					return []any{op.Rank}
				case !op.Accepted && !allowed:
					return []any{highest}
				}
				return nil
			},
			DescribeOperation: func(input, _ any) string { return h.describe(input.(int)) },
			DescribeState: func(state any) string {
				if v := state.(int64); v != math.MinInt64 {
					return fmt.Sprintf("highest token accepted: %d", v)
				}
				return "no write accepted yet"
			},
		}).ToModel(),
	}
}

// describe is an op as porcupine's visualisation labels it.
func (h History) describe(j int) string {
	op := h.Ops[j]
	s := op.Who()
	switch {
	case op.Kind == Write && op.Fenced:
		s += fmt.Sprintf(" token %d", op.Rank)
	case op.Kind == Write:
		s += fmt.Sprintf(" (grant #%d, no token)", op.Rank)
	case op.Node != "" && op.Node != sim.LockNode && op.Form != sim.FormQuorum && op.Kind != Crash && op.Kind != LetGo:
		s += " on " + op.Node
	}
	switch {
	case op.Outcome == Open:
		s += " → no reply"
	case op.Reply != "":
		// an array reply reads on one line
		s += " → " + strings.Join(strings.Fields(op.Reply), " ")
	}
	return s + " @" + stamp(op.Call)
}

func short(token string) string {
	if len(token) > 8 {
		return token[:8] + "…"
	}
	return token
}

// stamp is a story time as the transcript prints it: +32.000s.
func stamp(d time.Duration) string { return fmt.Sprintf("+%.3fs", d.Seconds()) }
