package race

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"locksim/check"
	"locksim/sim"
	"locksim/sim/ledger"
)

// Variant is a way of acquiring (or releasing) that trials put to the test.
type Variant int

const (
	Atomic       Variant = iota // SET key token NX PX ms: one command
	SplitCrash                  // SETNX, then EXPIRE; the winner may crash between them
	CheckThenSet                // GET, then SET without NX if the key looked free
	GetDel                      // a release by GET then DEL while others wait for a short lease
	// BlindDel and CompareDel are a release sent again after its reply was
	// lost (a client library's retry after a timeout), by a blind DEL and by
	// the compare-and-delete script: they run when replies are lost
	// (Config.Loss), and are the only variants whose releases lose replies.
	BlindDel
	CompareDel
)

// Variants lists the variants a run of trials takes with no reply lost,
// in order; VariantsFor the ones a run under a config takes.
func Variants() []Variant { return []Variant{Atomic, SplitCrash, CheckThenSet, GetDel} }

// VariantsFor is Variants, then, when cfg loses replies, BlindDel and
// CompareDel.
func VariantsFor(cfg Config) []Variant {
	if cfg.Loss > 0 {
		return append(Variants(), BlindDel, CompareDel)
	}
	return Variants()
}

func (v Variant) String() string {
	return [...]string{"SET NX PX", "SETNX+EXPIRE", "GET, then SET", "GET, then DEL", "blind DEL", "compare+DEL"}[v]
}

// Workers is how many workers race in every trial.
const Workers = 4

// Config sets a run of trials. Durations are wire time: trials run for
// real, with no story clock.
type Config struct {
	// CrashRate is the chance, 0 to 1, that SplitCrash's winner crashes
	// between its SETNX and its EXPIRE (the key then never expires).
	CrashRate float64
	// Lease is the PX of Atomic and CheckThenSet and the EXPIRE of
	// SplitCrash, in whole seconds for EXPIRE.
	Lease time.Duration
	// Short is GetDel's lease: short enough that it often runs out between
	// the holder's GET and its DEL.
	Short time.Duration
	// Gap is GetDel's pause between the holder's GET and its DEL.
	Gap time.Duration
	// Loss is the chance, 0 to 1, that the reply to an acquire of Atomic,
	// BlindDel or CompareDel, or to a release of the last two, is lost: the
	// server ran the command and locksim's own client drops its reply, so
	// the worker hears a timeout. Which replies are lost is drawn from Seed
	// and the trial, worker and command alone (Config.Lost), never from
	// timing.
	Loss float64
	Seed uint64
}

// DefaultConfig is the course's lease, a crash in one trial out of ten,
// and for the release hazard a 10 ms lease with 2 ms between GET and DEL.
func DefaultConfig(seed uint64) Config {
	return Config{CrashRate: 0.1, Lease: 30 * time.Second, Short: 10 * time.Millisecond, Gap: 2 * time.Millisecond, Seed: seed}
}

// Counts is what a run of trials of one variant found. It keeps counts,
// not logs: its size does not grow with the number of trials.
type Counts struct {
	Variant Variant
	Trials  int
	// Holders counts trials by how many workers believed, at the end, that
	// they held the lock, as the ledger reads the replies.
	Holders [Workers + 1]int
	Wins    [Workers]int // trials each worker ended believing it held the lock (not the trials it was granted it in)
	NoTTL   int          // SplitCrash: trials that left the key with no TTL
	Foreign int          // GetDel: trials in which a release deleted another worker's lock
	// Lost counts the replies locksim dropped (Config.Loss). Wasted counts
	// the workers that gave up acquiring while the key held their own token
	// (ledger.WastedLeases: the key read as they gave up), and RetryDeletes
	// the release retries that deleted another worker's lock (the ledger's
	// reading of the retry's reply, or of the key before and after it when
	// that reply was lost too).
	Lost, Wasted, RetryDeletes int
	// Bugs are Atomic trials that did not end with exactly one holder
	// (or, with replies lost, one wasted lease in its place): a bug in the
	// server or in locksim, shown with their replies and not counted in
	// Holders. At most maxBugs are kept.
	Bugs     []Bug
	BugCount int
	Commands int64 // every command sent, PINGs and the cleanup DELs included
	Took     time.Duration
	// Anomalies counts trials by the kinds of anomaly their history shows
	// (check.Classify, with the client's mutex model): a trial may show
	// more than one kind.
	Anomalies [check.NumAnomalies]int
	// Examples holds, for each kind, the smallest trial that showed it
	// (the fewest commands; the earliest of those), nil if none did.
	Examples [check.NumAnomalies]*Example
	// Unknown counts trials whose check ran out of time.
	Unknown int
}

// Example is one trial kept to be shown: its commands and replies in the
// order they were sent, as events (story time is wire time since the
// trial began), enough to read it again as a history
// (check.FromEvents(Events, End, check.Options{})) and step through it.
type Example struct {
	Variant Variant
	Trial   int // 1 for the first trial of the run
	Events  []sim.Event
	End     time.Duration
	Found   check.Found
	Finding check.Finding // the mutex model's
}

// History reads the example's events again as a history of operations,
// for a timeline or for porcupine's page (check.Visualize).
func (ex *Example) History() check.History {
	return check.FromEvents(ex.Events, ex.End, check.Options{})
}

// Bug is one trial that broke a rule the variant must keep.
type Bug struct {
	Trial   int
	Replies []string // "w1> SET … → OK", in the order sent
}

const maxBugs = 5

// Pool is where trials run: Lanes lanes side by side, each with Workers
// connections of its own from Conn and a key of its own, Key(lane) (as
// sent: under the run's prefix on a live server). Admin deletes the keys.
// The server must expire keys on its own clock.
type Pool struct {
	Lanes int
	Conn  func() *redis.Client
	Admin *redis.Client
	Key   func(lane int) string
}

// Trials runs trials over a fixed pool of connections: the number of
// connections does not grow with the number of trials. Not safe for
// concurrent use.
type Trials struct {
	lanes []*lane
	admin *redis.Client
	cfg   Config
	cmds  atomic.Int64
}

// a lane runs one trial at a time on its own connections and key.
type lane struct {
	t       *Trials
	clients []*redis.Client
	key     string
	rng     *rand.Rand
	tokens  []string // the trial's token per worker
}

// New opens p's connections for trials under cfg; Close releases them.
func New(p Pool, cfg Config) (*Trials, error) {
	if p.Lanes < 1 {
		return nil, errors.New("trials need at least one lane")
	}
	t := &Trials{admin: p.Admin, cfg: cfg}
	for i := range p.Lanes {
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], cfg.Seed)
		binary.LittleEndian.PutUint64(seed[8:], uint64(i))
		ln := &lane{t: t, key: p.Key(i), rng: rand.New(rand.NewChaCha8(seed))}
		for range Workers {
			ln.clients = append(ln.clients, p.Conn())
		}
		t.lanes = append(t.lanes, ln)
	}
	return t, nil
}

// Close closes the connections New opened.
func (t *Trials) Close() {
	for _, ln := range t.lanes {
		for _, c := range ln.clients {
			_ = c.Close()
		}
	}
}

// Run runs n trials of v across the lanes, calling progress (if not nil)
// with the counts so far after each trial, from one goroutine at a time.
// It stops early when ctx is done, and returns the counts of the trials
// that finished with ctx's error; the lanes' keys are deleted either way.
func (t *Trials) Run(ctx context.Context, v Variant, n int, progress func(Counts)) (Counts, error) {
	c := Counts{Variant: v}
	start := time.Now()
	before := t.cmds.Load()
	var (
		mu    sync.Mutex
		next  atomic.Int64
		first error
		wg    sync.WaitGroup
	)
	for _, ln := range t.lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				out, err := ln.guarded(ctx, v, i)
				mu.Lock()
				switch {
				case err != nil && ctx.Err() == nil && first == nil:
					first = fmt.Errorf("%s, trial %d: %w", v, i+1, err)
				case err == nil:
					c.add(out, i)
					c.Commands, c.Took = t.cmds.Load()-before, time.Since(start)
					if progress != nil {
						progress(c)
					}
				}
				stop := first != nil
				mu.Unlock()
				if stop {
					return
				}
			}
		}()
	}
	wg.Wait()
	// one DEL for every lane's key, bounded: a stalled server must not
	// hold up the end of a run
	keys := make([]string, len(t.lanes))
	for i, ln := range t.lanes {
		keys[i] = ln.key
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	t.admin.Del(dctx, keys...)
	cancel()
	t.cmds.Add(1)
	c.Commands, c.Took = t.cmds.Load()-before, time.Since(start)
	if first != nil {
		return c, first
	}
	return c, ctx.Err()
}

// outcome is one trial's result.
type outcome struct {
	holders []string
	noTTL   bool
	foreign bool
	replies []string // only when the trial broke the variant's rule
	// lost replies, wasted leases and deletes by a retry, as Counts has them
	lost, wasted, retryDeletes int
	// the mutex model's finding on the trial's history, the kinds of
	// anomaly it shows, and (when it shows any) its events
	mutex  check.Finding
	found  check.Found
	events []sim.Event
	end    time.Duration
}

func (c *Counts) add(o outcome, i int) {
	c.Trials++
	if o.noTTL {
		c.NoTTL++
	}
	if o.foreign {
		c.Foreign++
	}
	c.Lost += o.lost
	c.Wasted += o.wasted
	c.RetryDeletes += o.retryDeletes
	if o.mutex.Result == check.Unknown {
		c.Unknown++
	}
	for _, k := range check.Anomalies() {
		if !o.found[k] {
			continue
		}
		c.Anomalies[k]++
		// the smallest trial of the kind: the fewest events, then the
		// earliest (lanes finish trials out of order)
		if ex := c.Examples[k]; ex == nil || len(o.events) < len(ex.Events) || len(o.events) == len(ex.Events) && i+1 < ex.Trial {
			c.Examples[k] = &Example{Variant: c.Variant, Trial: i + 1, Events: o.events, End: o.end, Found: o.found, Finding: o.mutex}
		}
	}
	if o.replies != nil {
		c.BugCount++
		if len(c.Bugs) < maxBugs {
			c.Bugs = append(c.Bugs, Bug{Trial: i + 1, Replies: o.replies})
		}
		return
	}
	c.Holders[len(o.holders)]++
	for _, h := range o.holders {
		var w int
		fmt.Sscanf(h, "w%d", &w)
		c.Wins[w-1]++
	}
}

// a trial's record: the events the ledger reads, stamped with when each
// command was sent since the trial began.
type trial struct {
	mu     sync.Mutex
	start  time.Time
	events []sim.Event
	// n is the trial's number in the run, from 0; sent counts each
	// worker's acquires and releases so far (what Config.Lost draws
	// from); retries are the releases sent again after a lost reply
	n       int
	sent    [Workers]int
	retries map[*sim.Op]bool
}

func (tr *trial) add(e sim.Event) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.events = append(tr.events, e)
}

// do sends one command for worker w and records it as an event of op.
func (t *lane) do(ctx context.Context, tr *trial, w int, op *sim.Op, args ...any) (any, error) {
	return t.doShown(ctx, tr, w, op, args, args...)
}

// doShown is do, the command logged as shown (a script by its name).
func (t *lane) doShown(ctx context.Context, tr *trial, w int, op *sim.Op, shown []any, args ...any) (any, error) {
	at := time.Since(tr.start)
	t.t.cmds.Add(1)
	val, err := t.clients[w].Do(ctx, args...).Result()
	// the round trip bounds when the server ran it: the ledger calls a
	// grant early only if it ran before the previous lease could end
	tr.add(sim.Event{At: at, Kind: sim.Command, Actor: worker(w), Node: sim.LockNode, Cmd: sim.FormatCommand(shown),
		Reply: sim.FormatReply(val, err), Val: val, Err: err, Op: op, RTT: time.Since(tr.start) - at})
	return val, err
}

func worker(i int) string { return fmt.Sprintf("w%d", i+1) }

func (t *lane) token() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], t.rng.Uint64())
	binary.LittleEndian.PutUint64(b[8:], t.rng.Uint64())
	return hex.EncodeToString(b[:])
}

// guarded is one, with a panic turned into the trial's error: a lane runs
// in a goroutine of its own, where a panic would end the whole process
// (every session of a server among them).
func (t *lane) guarded(ctx context.Context, v Variant, n int) (o outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the trial failed: %v", r)
		}
	}()
	return t.one(ctx, v, n)
}

func (t *lane) one(ctx context.Context, v Variant, n int) (outcome, error) {
	var o outcome
	if err := t.t.admin.Del(ctx, t.key).Err(); err != nil {
		return o, err
	}
	t.t.cmds.Add(1)
	t.tokens = t.tokens[:0]
	for range Workers {
		t.tokens = append(t.tokens, t.token())
	}
	tr := &trial{start: time.Now(), n: n}
	var err error
	switch v {
	case Atomic:
		err = t.atomic(ctx, tr)
	case SplitCrash:
		err = t.split(ctx, tr, &o)
	case CheckThenSet:
		err = t.checkThenSet(ctx, tr)
	case GetDel:
		err = t.getDel(ctx, tr)
	case BlindDel, CompareDel:
		err = t.retried(ctx, tr, v == CompareDel)
	}
	if err != nil {
		return o, err
	}
	ev := tr.events
	// the ledger reads events in the order they were sent (sort.SliceStable,
	// not slices.SortStableFunc: shared code, not a stable sort compiled
	// for this struct alone)
	sort.SliceStable(ev, func(i, j int) bool { return ev[i].At < ev[j].At })
	for i := range ev {
		ev[i].Seq = i
		if ev[i].Lost {
			o.lost++
		} else if ev[i].Kind == sim.Command && unknown(ev[i].Err) {
			return o, fmt.Errorf("%s got no answer: %v", ev[i].Cmd, ev[i].Err)
		}
	}
	end := time.Since(tr.start)
	// a trial runs on the server's real clock, and each time is taken when
	// its command was sent: a grant a little before the previous lease's end
	// is still that lease lapsing
	led := ledger.FoldWithSlack(ev, end, nil, ledger.LiveSlack)
	o.holders = led.Holders()
	o.foreign = v == GetDel && led.ForeignDeletes() > 0
	o.wasted = len(led.WastedLeases())
	for i, r := range led.Reads {
		if r.What == ledger.DeletedOther && tr.retries[ev[i].Op] {
			o.retryDeletes++
		}
	}
	// the same history checked with the client's mutex model
	o.mutex = check.Quick(check.FromLedger(ev, led, check.Options{}), check.Mutex(), check.DefaultTimeout)
	o.found = check.Classify(led, o.mutex)
	// the split trial read the key's PTTL back itself: -1 after a crash
	o.found[check.NoTTL] = o.found[check.NoTTL] || o.noTTL
	if o.found.Any() {
		o.events, o.end = ev, end
	}
	// a lost reply may leave the winner not knowing it won, never two
	// winners: the ledger counts it as a wasted lease
	if v == Atomic && len(o.holders)+o.wasted != 1 {
		o.replies = lines(ev)
	}
	return o, nil
}

// atomic: every worker sends SET key token NX PX through one barrier,
// and sends it again at once while its reply is lost (acquire). With
// replies lost, a worker that did not hear OK records its give-up with the
// key as it stands.
func (t *lane) atomic(ctx context.Context, tr *trial) error {
	read := t.t.cfg.Loss > 0
	return t.together(ctx, func(w int) {
		t.acquire(ctx, tr, w, read)
	})
}

// split: SETNX through one barrier; the winner then crashes at the
// configured rate, or sends EXPIRE. A key left with no TTL is counted.
func (t *lane) split(ctx context.Context, tr *trial, o *outcome) error {
	won := make([]bool, Workers)
	err := t.together(ctx, func(w int) {
		tok := t.tokens[w]
		op := &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSETNX, Lock: "lock", Key: t.key, Token: tok, NX: true}
		n, _ := t.do(ctx, tr, w, op, "SETNX", t.key, tok)
		won[w] = n == int64(1)
	})
	if err != nil {
		return err
	}
	for w := range won {
		if !won[w] {
			continue
		}
		if t.rng.Float64() < t.t.cfg.CrashRate {
			tr.add(sim.Event{At: time.Since(tr.start), Kind: sim.Fault, Fault: sim.FaultCrash, Actor: worker(w)})
			continue
		}
		secs := max(int64(t.t.cfg.Lease/time.Second), 1)
		op := &sim.Op{Kind: sim.OpExpire, Form: sim.FormExpire, Lock: "lock", Key: t.key, Token: t.tokens[w], TTL: time.Duration(secs) * time.Second}
		t.do(ctx, tr, w, op, "EXPIRE", t.key, secs)
	}
	t.t.cmds.Add(1)
	pttl, err := t.t.admin.Do(ctx, "PTTL", t.key).Int64()
	o.noTTL = pttl == -1
	return err
}

// checkThenSet: every worker sends GET, and SET without NX if it read
// (nil), all released at once: two can both read (nil) and both set.
func (t *lane) checkThenSet(ctx context.Context, tr *trial) error {
	ms := t.t.cfg.Lease.Milliseconds()
	return t.together(ctx, func(w int) {
		if _, err := t.do(ctx, tr, w, nil, "GET", t.key); !errors.Is(err, redis.Nil) {
			return // the key looked taken: this worker stays out
		}
		tok := t.tokens[w]
		op := &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: "lock", Key: t.key, Token: tok, TTL: t.t.cfg.Lease}
		t.do(ctx, tr, w, op, "SET", t.key, tok, "PX", ms)
	})
}

// getDel: w1 holds a short lease and works until about its end, then
// releases by GET and, if the GET showed its token, DEL, with a pause of
// Gap between the two (a scheduler's or the network's); the others retry
// SET NX PX every millisecond until one gets the lock. When w1's
// lease runs out inside the gap, a contender gets it and w1's DEL deletes
// the contender's lock.
func (t *lane) getDel(ctx context.Context, tr *trial) error {
	short, gap := t.t.cfg.Short, t.t.cfg.Gap
	tok := t.tokens[0]
	own := &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: "lock", Key: t.key, Token: tok, TTL: short, NX: true}
	if v, err := t.do(ctx, tr, 0, own, "SET", t.key, tok, "NX", "PX", short.Milliseconds()); err != nil || v != "OK" {
		return fmt.Errorf("the first SET got %s", sim.FormatReply(v, err))
	}
	// w1's GET lands in the last 2 gaps of its lease
	work := short - 2*gap + time.Duration(t.rng.Int64N(int64(2*gap)+1))
	until := tr.start.Add(short + 4*gap)
	return t.together(ctx, func(w int) {
		if w == 0 {
			time.Sleep(work)
			check := &sim.Op{Kind: sim.OpCheck, Lock: "lock", Key: t.key, Token: tok}
			if v, _ := t.do(ctx, tr, 0, check, "GET", t.key); v != tok {
				return
			}
			time.Sleep(gap)
			del := &sim.Op{Kind: sim.OpRelease, Form: sim.FormGetDel, Lock: "lock", Key: t.key, Token: tok}
			t.do(ctx, tr, 0, del, "DEL", t.key)
			return
		}
		mine := t.tokens[w]
		for time.Now().Before(until) && ctx.Err() == nil {
			op := &sim.Op{Kind: sim.OpAcquire, Form: sim.FormSET, Lock: "lock", Key: t.key, Token: mine, TTL: short, NX: true}
			if v, err := t.do(ctx, tr, w, op, "SET", t.key, mine, "NX", "PX", short.Milliseconds()); v == "OK" || err != nil && !errors.Is(err, redis.Nil) {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
}

// together runs f for every worker at once, released by one barrier
// after each connection answered a PING.
func (t *lane) together(ctx context.Context, f func(w int)) error {
	for _, c := range t.clients {
		t.t.cmds.Add(1)
		if err := c.Ping(ctx).Err(); err != nil {
			return err
		}
	}
	Together(Workers, f)
	return nil
}

func unknown(err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		return false
	}
	var rerr redis.Error
	return !errors.As(err, &rerr)
}

func lines(ev []sim.Event) []string {
	var out []string
	for _, e := range ev {
		if e.Kind == sim.Command {
			out = append(out, fmt.Sprintf("%s> %s → %s", e.Actor, e.Cmd, e.Reply))
		}
	}
	return out
}
