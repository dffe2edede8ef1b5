package race

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/sim"
)

// errLost is what a worker hears when locksim dropped the reply to a
// command the server ran. It is not a redis.Error: the ledger reads it as
// an outcome the worker cannot know.
var errLost = errors.New("i/o timeout: the reply was lost")

// Loses reports a variant whose replies Config.Loss loses: SET NX PX's
// acquires, and the acquires and releases of BlindDel and CompareDel.
func (v Variant) Loses() bool { return v == Atomic || v == BlindDel || v == CompareDel }

// Replayable reports an example that the race scene can play again as a
// story (play.TrialFrom): one of the first four variants, no reply lost.
func (ex *Example) Replayable() bool {
	if ex.Variant == BlindDel || ex.Variant == CompareDel {
		return false
	}
	for _, e := range ex.Events {
		if e.Lost {
			return false
		}
	}
	return true
}

// lossRetries is how many times a worker sends an acquire or a release
// again after its reply was lost, before it gives up on it.
const lossRetries = 2

// Lost reports whether c loses the reply to the k-th acquire or release
// (from 0) that worker w (from 0) sends in trial n (from 0) of a run. It
// is drawn from c.Seed, n, w and k alone, so a run loses the same replies
// however its lanes are scheduled: a fraction c.Loss of them on average.
func (c Config) Lost(n, w, k int) bool {
	switch {
	case c.Loss <= 0:
		return false
	case c.Loss >= 1:
		return true
	}
	h := mix(c.Seed ^ 0x6c6f7374) // "lost": apart from the tokens' stream
	h = mix(h ^ uint64(n))
	h = mix(h ^ uint64(w)<<32 ^ uint64(k))
	return float64(h>>11)/(1<<53) < c.Loss
}

// mix is SplitMix64's step: a well spread 64-bit hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// send sends an acquire or a release of worker w, whose reply locksim
// drops when the config says so (Config.Lost): the server ran it, and the
// worker hears errLost. A dropped release's event carries the key as read
// on the admin connection just before and just after it (Op.Seen), so the
// ledger knows what it did though the worker never heard; the trials that
// lose releases send them while no other worker acts. A retry is a
// release sent again after its reply was lost.
func (t *lane) send(ctx context.Context, tr *trial, w int, op *sim.Op, retry bool, shown []any, args ...any) (any, error) {
	k := tr.sent[w]
	tr.sent[w]++
	if retry {
		tr.mu.Lock()
		if tr.retries == nil {
			tr.retries = map[*sim.Op]bool{}
		}
		tr.retries[op] = true
		tr.mu.Unlock()
	}
	if !t.t.cfg.Lost(tr.n, w, k) {
		val, err := t.doShown(ctx, tr, w, op, shown, args...)
		if retry {
			tr.note(op, "sent again: the reply to the last send was lost")
		}
		return val, err
	}
	before, known := sim.KeyChange{}, false
	if op.Kind == sim.OpRelease {
		before, known = t.keyNow(ctx)
	}
	at := time.Since(tr.start)
	t.t.cmds.Add(1)
	val, err := t.clients[w].Do(ctx, args...).Result()
	rtt := time.Since(tr.start) - at
	e := sim.Event{At: at, Kind: sim.Command, Actor: worker(w), Node: sim.LockNode, Cmd: sim.FormatCommand(shown), Op: op, RTT: rtt}
	if unknown(err) {
		// no reply came at all: the trial's failure, not a loss it plays
		e.Reply, e.Val, e.Err = sim.FormatReply(val, err), val, err
		tr.add(e)
		return val, err
	}
	if after, ok := t.keyNow(ctx); ok && known {
		op.Seen = &sim.KeyChange{Had: before.Had, Before: before.Before, TTLBefore: before.TTLBefore,
			Has: after.Has, After: after.After, TTLAfter: after.TTLAfter}
	}
	e.Reply, e.Err, e.Lost = sim.FormatReply(nil, errLost), errLost, true
	e.Note = "the server ran it and answered " + sim.FormatReply(val, err) + "; locksim dropped the reply"
	if retry {
		e.Note = "sent again; " + e.Note
	}
	tr.add(e)
	return nil, errLost
}

// note sets the note of op's event.
func (tr *trial) note(op *sim.Op, s string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for i := range tr.events {
		if tr.events[i].Op == op {
			tr.events[i].Note = s
		}
	}
}

// keyNow is the lane's key as it stands, read on the admin connection
// (GET, then PTTL), as both halves of a sim.KeyChange; known is false when
// a read failed.
func (t *lane) keyNow(ctx context.Context) (c sim.KeyChange, known bool) {
	t.t.cmds.Add(1)
	v, err := t.t.admin.Get(ctx, t.key).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return sim.KeyChange{TTLBefore: -1, TTLAfter: -1}, true
	case err != nil:
		return c, false
	}
	t.t.cmds.Add(1)
	ttl := time.Duration(-1)
	if ms, err := t.t.admin.PTTL(ctx, t.key).Result(); err == nil && ms >= 0 {
		ttl = ms
	}
	return sim.KeyChange{Had: true, Has: true, Before: v, After: v, TTLBefore: ttl, TTLAfter: ttl}, true
}

// acquire sends worker w's SET key token NX PX of the lease, and again at
// once, up to lossRetries times, while its reply is lost; it reports
// whether w heard OK. When read is set, a worker that did not records its
// give-up with the key as it then stands (gaveUp).
func (t *lane) acquire(ctx context.Context, tr *trial, w int, read bool) (bool, error) {
	tok, lease := t.tokens[w], t.t.cfg.Lease
	args := []any{"SET", t.key, tok, "NX", "PX", lease.Milliseconds()}
	lost, tries := false, 0
	for ; ; tries++ {
		op := &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: "lock", Key: t.key, Token: tok, TTL: lease, NX: true}
		v, err := t.send(ctx, tr, w, op, false, args, args...)
		if v == "OK" {
			return true, nil
		}
		lost = errors.Is(err, errLost)
		if err != nil && !lost && !errors.Is(err, redis.Nil) {
			return false, err
		}
		if !lost || tries == lossRetries {
			break
		}
	}
	if read {
		t.gaveUp(ctx, tr, w, tries, lost)
	}
	return false, nil
}

// gaveUp records worker w's decision to stop trying to acquire after
// tries retries, the last refused or (lost) unheard, with the key as it
// stands then (Op.Seen): the ledger counts a key that holds w's own token
// as a lease wasted (ledger.WastedLeases), one its holder does not know it
// holds.
func (t *lane) gaveUp(ctx context.Context, tr *trial, w int, tries int, lost bool) {
	at := time.Since(tr.start)
	last := "refused"
	if lost {
		last = "no reply heard"
	}
	form, why := sim.GiveUpFast, last+", and no retry left"
	if tries > 0 {
		form, why = sim.GiveUpRetries, last+", after "+strconv.Itoa(tries)+" retries"
	}
	op := &sim.Op{Kind: sim.OpGiveUp, Form: form, Lock: "lock", Key: t.key, Token: t.tokens[w]}
	if now, ok := t.keyNow(ctx); ok {
		op.Seen = &now
	}
	tr.add(sim.Event{At: at, Kind: sim.Info, Actor: worker(w), Note: worker(w) + " could not acquire: " + why, Op: op})
}

// retried: w1 takes the lock alone and releases it, by a blind DEL or (cad)
// by the compare-and-delete script; then w2, w3 and w4 in turn send SET NX
// PX; then w1, if its release's reply was lost, sends the release again,
// as a client library retries a release that timed out, and again while
// that reply is lost too. The retry lands after the next grant, as in the
// lost-reply scene: a blind DEL then deletes w2's lock, the script finds
// w2's token and deletes nothing. Each worker that did not get the lock
// records its give-up with the key as it stands.
func (t *lane) retried(ctx context.Context, tr *trial, cad bool) error {
	held, err := t.acquire(ctx, tr, 0, true)
	if err != nil {
		return err
	}
	lost := false
	if held {
		if lost, err = t.release(ctx, tr, cad, false); err != nil {
			return err
		}
	}
	for w := 1; w < Workers; w++ {
		if _, err := t.acquire(ctx, tr, w, true); err != nil {
			return err
		}
	}
	for try := 0; lost && try < lossRetries; try++ {
		if lost, err = t.release(ctx, tr, cad, true); err != nil {
			return err
		}
	}
	return nil
}

// release sends w1's release (retry: again, after a lost reply) and
// reports whether its reply was lost.
func (t *lane) release(ctx context.Context, tr *trial, cad, retry bool) (lost bool, err error) {
	tok := t.tokens[0]
	op := &sim.Op{Kind: sim.OpRelease, Form: sim.FormDEL, Lock: "lock", Key: t.key, Token: tok}
	args := []any{"DEL", t.key}
	shown := args
	if cad {
		op.Form = sim.FormScript
		args = []any{"EVAL", sim.ReleaseLua.Src, 1, t.key, tok}
		shown = []any{"EVAL", "<" + sim.ReleaseLua.Name + ">", 1, t.key, tok}
	}
	_, err = t.send(ctx, tr, 0, op, retry, shown, args...)
	if errors.Is(err, errLost) {
		return true, nil
	}
	var rerr redis.Error
	if err != nil && !errors.As(err, &rerr) {
		return false, err
	}
	return false, nil
}
