package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"

	"locksim/sim"
)

// Server is the server's lease: per key on each node, a holder, a token
// and an expiry on that node's clock (a job queue's claims, one job at a
// time). Redis keeps its word, so the single-instance scenes' histories
// are linearizable; a live server's that are not may have been changed by
// something the history cannot see, and the line says so.
func Server() Model {
	return Model{Name: "server", Title: "the server's lease", text: "server", spec: History.serverSpec,
		line: func(h History, f Finding) string {
			if f.Result == NotLinearizable && h.Live {
				// the history cannot see what else reached a shared server
				return "server-bad-live"
			}
			return ""
		}}
}

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
		// a command on a lock key: a history of claims alone, or of
		// writes, leaves the lease nothing to judge
		judges: func(op Op) bool {
			switch op.Kind {
			case Acquire, Release, Extend, Verify, Expire:
				return true
			}
			return false
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
		if sim.ComparesInOneCommand(op.Form) {
			// DELEX … IFEQ, DELIFEQ: 1 deleted the caller's own lease; 0
			// for another's token or no key alike
			if op.Int == 1 {
				return ok(mine, leaseState{})
			}
			return ok(!mine, s)
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
		if sim.ComparesInOneCommand(op.Form) {
			// SET key token IFEQ token PX ttl: OK renewed the caller's own
			// lease (the value written again); nil for another's token or
			// no key alike, and never a new key
			renewed := leaseState{present: true, token: s.token, exp: deadline(op.Clock, op.TTL), count: s.count}
			switch op.Outcome {
			case Refused:
				return ok(!mine, s)
			case Open:
				if mine {
					return []any{s, renewed} // no reply: it may or may not have run
				}
				return []any{s}
			}
			return ok(mine, renewed)
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
