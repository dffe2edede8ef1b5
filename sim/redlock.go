package sim

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Quorum is the majority of n nodes Redlock needs: n/2 + 1.
func Quorum(n int) int { return n/2 + 1 }

// Drift is the clock drift Redlock allows for a lease of ttl, after the
// Redis "Distributed Locks with Redis" page: 1% of the TTL plus 2 ms.
func Drift(ttl time.Duration) time.Duration { return ttl/100 + 2*time.Millisecond }

// Validity is how long a client may act as holder after a distributed
// acquire that took elapsed: the TTL, less the time spent acquiring, less
// the drift. The lock is held only if this is positive and a majority said
// OK; an acquire that took the whole TTL (or longer) has none left.
func Validity(ttl, elapsed time.Duration) time.Duration { return ttl - elapsed - Drift(ttl) }

// RedlockBegin starts the actor's distributed acquire of lock: it mints a
// token and reads its own clock, from which the validity is counted.
func (x *Exec) RedlockBegin(lock string) {
	a := x.actor
	x.r.mint(a)
	a.Started, a.Votes, a.Holds = x.r.Now(), nil, false
	x.Note(fmt.Sprintf("%s reads its clock (t0 = %s) and will try every node with one token", a.Name, FormatDuration(a.Started)))
}

// RedlockSet sends SET key token NX PX ttl to one node, as one share of
// the actor's distributed acquire; a node that does not answer OK within
// timeout counts as a failure. ttl and timeout are story time.
func (x *Exec) RedlockSet(node, lock, name string, ttl, timeout time.Duration) Reply {
	a := x.actor
	r, _ := x.setOn(node, lock, name, a.Token, ttl, timeout, true)
	if r.OK() {
		a.Votes = append(a.Votes, node)
	}
	return r
}

// RedlockCount is the client's decision after trying every node: held
// with a majority and a positive validity time, which it logs with its
// arithmetic. When not held it releases on every node, including those
// that seemed to fail (a slow node may have set the key all the same).
func (x *Exec) RedlockCount(lock, name string, ttl time.Duration, nodes []string, timeout time.Duration) bool {
	a := x.actor
	elapsed := x.r.Now() - a.Started
	v := Validity(ttl, elapsed)
	held := len(a.Votes) >= Quorum(len(nodes)) && v > 0
	op := &Op{Kind: OpAcquire, Form: FormQuorum, Lock: lock, Key: name, Token: a.Token, TTL: v,
		Votes: len(a.Votes), Of: len(nodes), Held: held, Spent: elapsed}
	// short enough for one log row: the readout gives the arithmetic
	note := fmt.Sprintf("%d/%d OK (%d needed) · validity %s", len(a.Votes), len(nodes), Quorum(len(nodes)), FormatSpan(v))
	switch {
	case held:
		note += " · held"
	case len(a.Votes) < Quorum(len(nodes)):
		note += " · not held"
	default:
		note += " · too late"
	}
	x.r.record(Event{Kind: Info, Actor: a.Name, Step: x.label, Move: x.move, Op: op, Note: note, Timed: x.timed, Due: x.due()})
	a.Holds = held
	if held {
		a.Lock, a.Value = lock, a.Token
		return true
	}
	x.RedlockRelease(lock, name, nodes, timeout)
	return false
}

// RedlockRelease sends the compare-and-delete script to every node with
// the actor's token, waiting at most timeout (story time) for each.
func (x *Exec) RedlockRelease(lock, name string, nodes []string, timeout time.Duration) {
	a := x.actor
	for _, node := range nodes {
		n := x.r.node(node)
		if n == nil {
			continue
		}
		x.r.scripts[ReleaseLua.Name] = ReleaseLua
		key := n.b.Key(name)
		op := &Op{Kind: OpRelease, Form: FormScript, Lock: lock, Key: key, Token: a.Token, Part: true}
		args := []any{"EVAL", ReleaseLua.Src, 1, key, a.Token}
		shown := []any{"EVAL", "<" + ReleaseLua.Name + ">", 1, key, a.Token}
		x.sendOn(node, key, args, shown, op, timeout)
	}
	a.Holds, a.Votes = false, nil
}

// Replicate copies key from one node to another with its remaining TTL,
// as a primary's asynchronous replication would (DUMP is not used: the
// copy is a plain GET and SET PX on the run's own key, so it is the same
// on a live server, where locksim plays the replication link itself).
func (r *Run) Replicate(ctx context.Context, from, to, name string) {
	src, dst := r.node(from), r.node(to)
	if src == nil || dst == nil {
		return
	}
	skey, dkey := src.b.Key(name), dst.b.Key(name)
	var val string
	var pttl time.Duration
	err := errors.New("stopped")
	if !src.down && !dst.down {
		val, err = src.b.Admin().Get(ctx, skey).Result()
		pttl, _ = src.b.Admin().PTTL(ctx, skey).Result()
	}
	note := "replication: " + from + " → " + to + ": "
	var op *Op
	switch {
	case src.down || dst.down:
		// a stopped node replicates nothing (on a live server too, where
		// the stop is locksim's own)
		note += "nothing copied: a node is stopped"
	case err != nil:
		note += "nothing to copy"
	default:
		dst.keys[dkey] = true
		if err := dst.b.Admin().Set(ctx, dkey, val, max(pttl, 0)).Err(); err != nil {
			note += "the copy failed: " + err.Error()
			break
		}
		note += "the lock key reached " + to
		op = &Op{Kind: OpAcquire, Form: FormReplica, Key: dkey, Token: val, TTL: pttl * time.Duration(r.Scale())}
	}
	if !src.own {
		note += " (simulated by locksim between the two servers)"
	}
	r.record(Event{Kind: Info, Node: to, Note: note, Op: op})
}
