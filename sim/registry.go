package sim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// A key under Namespace is locksim's only when its prefix is registered:
// the prefix's Registration key exists and holds what locksim writes there
// (the prefix and a nonce). A run writes its registration and its first
// heartbeat in one MULTI/EXEC before any other key, and deletes it last; an
// exported replay's first command writes it and its last deletes it. A sweep
// deletes the keys under a registered prefix (a run's only once its
// heartbeat is gone) and leaves every other key under Namespace alone: a
// user's key shaped like a run's is not locksim's, and neither is a run's
// whose registration FLUSHDB or eviction took.

// registrationName ends a prefix's registration key; heartbeatName its
// heartbeat's (a run's only).
const (
	registrationName = "registration"
	heartbeatName    = "heartbeat"
)

var (
	runPrefix    = regexp.MustCompile(`^` + Namespace + `[0-9a-f]{6}:`)
	replayPrefix = regexp.MustCompile(`^` + ReplayPrefix + `[0-9a-f]{8}:`)
	// the value locksim writes in a registration: its prefix, a space, 32
	// hex digits of nonce
	registrationValue = regexp.MustCompile(`^(` + Namespace + `(?:[0-9a-f]{6}|replay:[0-9a-f]{8}|class):) [0-9a-f]{32}$`)
)

// ClassPrefix is where locksim's classroom keeps its classes on a
// -class-redis server. Its keys are locksim's while its registration
// (ClassRegistration) holds what locksim writes there; a sweep never
// deletes them (a class lasts until its retention ends) and -cleanup
// reports them as the classroom's.
const ClassPrefix = Namespace + "class:"

// ClassRegistration is the key that makes the keys under ClassPrefix
// locksim's, and the value the classroom writes in it for nonce (32 hex
// digits; NewNonce draws one).
func ClassRegistration(nonce string) (key, value string) { return Registration(ClassPrefix, nonce) }

// ClassRegistered reports whether value, read from ClassRegistration's
// key, is one locksim wrote.
func ClassRegistered(value string) bool { return registers(ClassPrefix, value) }

// NewNonce is 32 random hex digits, for a registration.
func NewNonce() string { return newNonce() }

// Registration is the key that makes the keys under prefix locksim's, and
// the value locksim writes in it for nonce (32 hex digits).
func Registration(prefix, nonce string) (key, value string) {
	return prefix + registrationName, prefix + " " + nonce
}

// registers reports whether value, read from prefix's registration key, is
// one locksim wrote for prefix.
func registers(prefix, value string) bool {
	m := registrationValue.FindStringSubmatch(value)
	return m != nil && m[1] == prefix
}

// newNonce is 32 random hex digits.
func newNonce() string {
	var n [16]byte
	_, _ = rand.Read(n[:])
	return hex.EncodeToString(n[:])
}

// ReplayKeyPrefix is the prefix of the keys of the exported replay id (8
// hex digits).
func ReplayKeyPrefix(id string) string { return ReplayPrefix + id + ":" }

// ReplayEnd is an exported replay's last command, for its registration
// reg and the keys it names (as sent, under its prefix): one DEL of those
// keys with the registration last. One plain DEL, never a script that
// SCANs: a SCAN inside EVAL walks the whole keyspace while the server
// serves no one else (5.7 s on a 3M-key Redis 7), and once it has deleted
// a key SCRIPT KILL cannot stop it. Redis deletes a DEL's keys in order
// within the one command, so no key of the replay is ever left without
// its registration. Every key a story's scripts make is one the story
// names (a queue's job hashes are named by the enqueue that makes them),
// which the export tests check by replaying every scene's export.
func ReplayEnd(reg string, keys []string) []any {
	args := []any{"DEL"}
	for _, k := range keys {
		if k != reg {
			args = append(args, k)
		}
	}
	return append(args, reg)
}

// register picks a fresh run prefix, one not among taken (run ids the
// start sweep's SCAN saw under Namespace) under which a SCAN finds no key
// at all (see used: in every mode, a class server's sessions too, which
// skip the start sweep), and writes its registration and heartbeat in one
// MULTI/EXEC watched on them, so two processes never share a prefix. It
// sets b.Prefix and b.registration.
func (b *Backend) register(ctx context.Context, taken map[string]bool) error {
	for range 16 {
		var id string
		if b.newRunID != nil {
			id = b.newRunID()
		} else {
			var run [3]byte
			_, _ = rand.Read(run[:])
			id = hex.EncodeToString(run[:])
		}
		if taken[id] {
			continue
		}
		switch busy, err := used(ctx, b.admin, Namespace+id+":"); {
		case isNoPerm(err):
			return fmt.Errorf("the server refused SCAN, which locksim needs to find a free run prefix: %s", b.explain(err))
		case err != nil:
			return b.explain(err)
		case busy:
			continue
		}
		prefix := Namespace + id + ":"
		reg, val := Registration(prefix, newNonce())
		hb := prefix + heartbeatName
		free := false
		err := b.admin.Watch(ctx, func(tx *redis.Tx) error {
			n, err := tx.Exists(ctx, reg, hb).Result()
			if err != nil || n > 0 {
				return err
			}
			cmds, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, reg, val, 0)
				p.Do(ctx, "SET", hb, time.Now().UTC().Format(time.RFC3339), "PX", b.beatTTL.Milliseconds())
				return nil
			})
			free = err == nil
			return txErr(cmds, err)
		}, reg, hb)
		switch {
		case errors.Is(err, redis.TxFailedErr):
			continue
		case isNoPerm(err):
			return fmt.Errorf("the server refused to register this run (WATCH, EXISTS, MULTI, SET, EXEC, UNWATCH), which locksim needs: %s", b.explain(err))
		case err != nil:
			return b.explain(err)
		case free:
			b.Prefix, b.registration = prefix, val
			return nil
		}
	}
	return fmt.Errorf("the server at %s has no free run prefix under %s after 16 tries", b.opts.Addr, Namespace)
}

// used reports whether any key exists under prefix: SCAN MATCH prefix*,
// COUNT 1000 a call, to cursor 0 or the first key found. A prefix with a
// key under it (a user's, shaped like a run's) is never a run's: the run's
// Cleanup would not delete that key, but a sweep of the run's registered
// prefix would.
func used(ctx context.Context, c *redis.Client, prefix string) (bool, error) {
	var cursor uint64
	for {
		keys, next, err := c.Scan(ctx, cursor, prefix+"*", 1000).Result()
		if err != nil || len(keys) > 0 {
			return len(keys) > 0, err
		}
		if cursor = next; cursor == 0 {
			return false, nil
		}
	}
}

// SweepReport is what a sweep removed and what it left under Namespace.
type SweepReport struct {
	// Removed are the runs and replays whose keys were deleted.
	Removed []Removal
	// Alive are the registered runs left alone because their heartbeat
	// lives, and the number of keys each had.
	Alive []Removal
	// Changed are the prefixes whose registration or heartbeat changed
	// between the check and the delete: another sweep took them, or the
	// run came back. Nothing of theirs was deleted.
	Changed []string
	// Foreign are the keys under Namespace that locksim did not write,
	// left alone, each with why.
	Foreign []Foreign
	// Classes are the classroom's keys (under ClassPrefix, registered),
	// left alone: a class lasts until its retention ends.
	Classes []string
}

// Removal is one registered run's or replay's keys.
type Removal struct {
	Replay bool
	ID     string   // the run's 6 hex digits, the replay's 8
	Keys   []string // as deleted: the registration last
}

// Foreign is a key under Namespace that is not locksim's, and why.
type Foreign struct{ Key, Why string }

// Keys is how many keys the sweep deleted.
func (r SweepReport) Keys() int {
	n := 0
	for _, x := range r.Removed {
		n += len(x.Keys)
	}
	return n
}

func (x Removal) name() string {
	if x.Replay {
		return "replay " + x.ID
	}
	return "run " + x.ID
}

// Lines are the report as -cleanup prints it, one line each: what was
// removed and why, what was left alone and why.
func (r SweepReport) Lines() []string {
	var out []string
	for _, x := range r.Removed {
		why := "registered by a locksim run whose heartbeat had expired: " + deadRun
		if x.Replay {
			why = "registered by an exported replay that has not finished: redis-cli stopped before its last command, which deletes them, or is still running it"
		}
		out = append(out, fmt.Sprintf("%s: %s removed, its registration last (%s): %s", x.name(), KeyCount(len(x.Keys)), why, strings.Join(x.Keys, " ")))
	}
	for _, x := range r.Alive {
		out = append(out, fmt.Sprintf("%s: %s left alone (its heartbeat has not expired: the run is still going, or stopped less than %v ago)", x.name(), KeyCount(len(x.Keys)), HeartbeatTTL))
	}
	for _, p := range r.Changed {
		out = append(out, fmt.Sprintf("%s*: left alone (its registration or heartbeat changed while this sweep looked: another sweep removed it, or the run came back)", p))
	}
	if len(r.Classes) > 0 {
		out = append(out, fmt.Sprintf("classes: %s left alone (locksim's classroom, -class-redis: each class lasts until it has not changed for its retention)", KeyCount(len(r.Classes))))
	}
	for _, f := range r.Foreign {
		out = append(out, fmt.Sprintf("not locksim's, left alone: %s (%s)", f.Key, f.Why))
	}
	return out
}

// StartNote is the one line a run says after its start sweep, "" when it
// removed nothing.
func (r SweepReport) StartNote() string {
	if len(r.Removed) == 0 {
		return ""
	}
	var runs []string
	for _, x := range r.Removed {
		runs = append(runs, x.ID)
	}
	what := "1 locksim run"
	if len(runs) > 1 {
		what = fmt.Sprintf("%d locksim runs", len(runs))
	}
	return fmt.Sprintf("removed %s of %s (%s), each registered by locksim with its heartbeat expired: %s", KeyCount(r.Keys()), what, strings.Join(runs, ", "), deadRun)
}

// deadRun is what an expired heartbeat says of its run, in StartNote and
// in Lines alike: not that it was killed, which the sweep cannot know.
const deadRun = "it was killed, or lost the server for longer than its heartbeat's TTL"

// scanNamespace lists every key under Namespace, with SCAN (never KEYS).
func scanNamespace(ctx context.Context, c *redis.Client) ([]string, error) {
	var keys []string
	iter := c.Scan(ctx, 0, Namespace+"*", 1000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	return keys, iter.Err()
}

// Sweep finds the keys under Namespace with SCAN and deletes those of the
// registered runs whose heartbeat is gone, and with replays those of the
// registered replays too; it deletes nothing else. See sweepKeys.
func Sweep(ctx context.Context, c *redis.Client, replays bool) (SweepReport, error) {
	keys, err := scanNamespace(ctx, c)
	if err != nil {
		return SweepReport{}, err
	}
	return sweepKeys(ctx, c, keys, replays, nil)
}

// sweepKeys decides, prefix by prefix among keys (found by an earlier
// SCAN), whose keys are locksim's to delete, and deletes them. It reads
// every prefix's registration and heartbeat in one pipelined round; for
// each prefix that looks removable it WATCHes the registration and the
// heartbeat, reads them again, and deletes the keys and then the
// registration in one MULTI/EXEC: a run
// that (re)starts under the prefix, or a second sweep that got there
// first, changes a watched key and the EXEC does nothing. Keys written
// under a prefix after the SCAN are not deleted. Without replays, the
// keys under ReplayPrefix are neither touched nor reported. The report
// holds what was done before an error. A test's between (nil otherwise)
// runs after a prefix's check and before its delete.
func sweepKeys(ctx context.Context, c *redis.Client, keys []string, replays bool, between func(prefix string)) (SweepReport, error) {
	var r SweepReport
	groups := map[string][]string{}
	var classes []string
	for _, k := range keys {
		switch p := replayPrefix.FindString(k); {
		case strings.HasPrefix(k, ClassPrefix):
			classes = append(classes, k)
		case p != "":
			if replays {
				groups[p] = append(groups[p], k)
			}
		case strings.HasPrefix(k, ReplayPrefix):
			if replays {
				r.Foreign = append(r.Foreign, Foreign{k, "not under a replay's prefix, " + ReplayPrefix + "<8 hex digits>:"})
			}
		default:
			if p := runPrefix.FindString(k); p != "" {
				groups[p] = append(groups[p], k)
			} else {
				r.Foreign = append(r.Foreign, Foreign{k, "not under a run's prefix, " + Namespace + "<6 hex digits>:, nor a replay's"})
			}
		}
	}
	prefixes := make([]string, 0, len(groups))
	for p := range groups {
		prefixes = append(prefixes, p)
	}
	slices.Sort(prefixes)
	// one round for every prefix's registration and heartbeat: only those
	// that look removable are checked again, watched, and deleted
	pipe := c.Pipeline()
	regs := make([]*redis.StringCmd, len(prefixes))
	beats := make([]*redis.IntCmd, len(prefixes))
	for i, p := range prefixes {
		reg, _ := Registration(p, "")
		regs[i], beats[i] = pipe.Get(ctx, reg), pipe.Exists(ctx, p+heartbeatName)
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) && !strings.HasPrefix(err.Error(), "WRONGTYPE") {
		return r, err
	}
	for i, p := range prefixes {
		val, err := regs[i].Result()
		n, _ := beats[i].Result()
		v, err := judge(p, val, err, n > 0)
		switch {
		case err != nil:
			return r, err
		case v.why != "":
			r.foreign(groups[p], v.why)
		case v.alive:
			r.Alive = append(r.Alive, Removal{ID: prefixID(p), Keys: slices.Sorted(slices.Values(groups[p]))})
		default:
			if err := sweepPrefix(ctx, c, p, groups[p], &r, between); err != nil {
				return r, err
			}
		}
	}
	if len(classes) > 0 {
		reg, _ := ClassRegistration("")
		val, err := c.Get(ctx, reg).Result()
		v, err := judge(ClassPrefix, val, err, true)
		switch {
		case err != nil:
			return r, err
		case v.why != "":
			r.foreign(classes, v.why)
		default:
			r.Classes = slices.Sorted(slices.Values(classes))
		}
	}
	if err := r.recheck(ctx, c, groups); err != nil {
		return r, err
	}
	slices.SortFunc(r.Foreign, func(a, b Foreign) int { return strings.Compare(a.Key, b.Key) })
	return r, nil
}

// recheck reads, in one round, whether each key r lists as not locksim's
// still exists. One that is gone under a run's or a replay's prefix (in
// groups) tells of a sweep that got there first, between this one's SCAN
// and its GET of the registration: the prefix is reported as changed, not
// its keys as not locksim's. One that is gone elsewhere is dropped.
func (r *SweepReport) recheck(ctx context.Context, c *redis.Client, groups map[string][]string) error {
	if len(r.Foreign) == 0 {
		return nil
	}
	pipe := c.Pipeline()
	exists := make([]*redis.IntCmd, len(r.Foreign))
	for i, f := range r.Foreign {
		exists[i] = pipe.Exists(ctx, f.Key)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	of := map[string]string{} // key → its prefix
	for p, keys := range groups {
		for _, k := range keys {
			of[k] = p
		}
	}
	kept := r.Foreign[:0]
	for i, f := range r.Foreign {
		if n, _ := exists[i].Result(); n > 0 {
			kept = append(kept, f)
		} else if p, ok := of[f.Key]; ok && !slices.Contains(r.Changed, p) {
			r.Changed = append(r.Changed, p)
		}
	}
	r.Foreign = kept
	slices.Sort(r.Changed)
	return nil
}

// verdict is what a prefix's registration and heartbeat say of its keys:
// not locksim's (why says why), a live run's, or else removable.
type verdict struct {
	why   string
	alive bool
}

// judge reads prefix's registration (val, or the error of its GET) and
// whether its heartbeat exists (a replay has none).
func judge(prefix, val string, err error, beating bool) (verdict, error) {
	reg, _ := Registration(prefix, "")
	switch {
	case errors.Is(err, redis.Nil):
		return verdict{why: "no registration " + reg}, nil
	case err != nil && strings.HasPrefix(err.Error(), "WRONGTYPE"):
		return verdict{why: reg + " is not a registration locksim writes"}, nil
	case err != nil:
		return verdict{}, err
	case !registers(prefix, val):
		return verdict{why: reg + " does not hold what locksim writes there"}, nil
	}
	return verdict{alive: beating && !strings.HasPrefix(prefix, ReplayPrefix)}, nil
}

// prefixID is the run's or the replay's id in its prefix.
func prefixID(prefix string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(prefix, ReplayPrefix), Namespace), ":")
}

// foreign lists keys as not locksim's, for why.
func (r *SweepReport) foreign(keys []string, why string) {
	for _, k := range keys {
		r.Foreign = append(r.Foreign, Foreign{k, why})
	}
}

// sweepPrefix checks again, watched, one prefix that looked removable,
// and deletes its keys; see sweepKeys.
func sweepPrefix(ctx context.Context, c *redis.Client, prefix string, keys []string, r *SweepReport, between func(string)) error {
	slices.Sort(keys)
	replay := strings.HasPrefix(prefix, ReplayPrefix)
	x := Removal{Replay: replay, ID: prefixID(prefix)}
	reg, _ := Registration(prefix, "")
	hb := prefix + heartbeatName
	err := c.Watch(ctx, func(tx *redis.Tx) error {
		val, err := tx.Get(ctx, reg).Result()
		beating := false
		if err == nil && !replay {
			n, err := tx.Exists(ctx, hb).Result()
			if err != nil {
				return err
			}
			beating = n > 0
		}
		v, err := judge(prefix, val, err, beating)
		switch {
		case err != nil:
			return err
		case v.why != "":
			r.foreign(keys, v.why)
			return nil
		case v.alive:
			x.Keys = keys
			r.Alive = append(r.Alive, x)
			return nil
		}
		var del []string
		for _, k := range keys {
			if k != reg {
				del = append(del, k)
			}
		}
		del = append(del, reg)
		if between != nil {
			between(prefix)
		}
		cmds, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range del {
				p.Del(ctx, k)
			}
			return nil
		})
		if err != nil {
			return txErr(cmds, err)
		}
		// a key that expired since the SCAN was not deleted by the sweep
		for i, cmd := range cmds {
			if n, _ := cmd.(*redis.IntCmd).Result(); n > 0 {
				x.Keys = append(x.Keys, del[i])
			}
		}
		r.Removed = append(r.Removed, x)
		return nil
	}, reg, hb)
	if errors.Is(err, redis.TxFailedErr) {
		r.Changed = append(r.Changed, prefix)
		return nil
	}
	return err
}

// CleanupLive connects to rawURL and sweeps (see Sweep) the keys of the
// registered runs whose heartbeat is gone and of the registered replays:
// the -cleanup flag. Its check before it starts (cleanupCheck) sends the
// commands the sweep needs, on a key no one else has, rather than the
// stories' full preflight. The report holds what was done even with an
// error, which is one line without the password.
func CleanupLive(ctx context.Context, rawURL string, timeout time.Duration) (SweepReport, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	opts, err := parseURL(rawURL)
	if err != nil {
		return SweepReport{}, &CheckError{err}
	}
	opts.DialTimeout = DialTimeout(timeout)
	opts.ReadTimeout, opts.WriteTimeout = timeout, timeout
	opts.ContextTimeoutEnabled = true
	b := &Backend{Name: fmt.Sprintf("live %s/%d", opts.Addr, opts.DB), Scale: 1, Timeout: timeout, opts: opts}
	c := b.NewConn()
	defer c.Close()
	if err := b.cleanupCheck(ctx, c); err != nil {
		return SweepReport{}, &CheckError{errors.New(scrub(err.Error(), opts, rawURL))}
	}
	r, err := Sweep(ctx, c, true)
	if err != nil {
		return r, errors.New(scrub(b.explain(err).Error(), opts, rawURL))
	}
	return r, nil
}

// CheckError is an error CleanupLive met before it touched anything: a URL
// that does not parse, a server that does not answer, a password or an ACL
// it refuses. The command line reports it as bad input (exit 2), like a
// server a story cannot open; an error after that is a failure (exit 1).
type CheckError struct{ Err error }

func (e *CheckError) Error() string { return e.Err.Error() }
func (e *CheckError) Unwrap() error { return e.Err }

// cleanupCheck is -cleanup's check before it deletes anything: the server
// answers and lets this user SCAN, GET, EXISTS, WATCH, MULTI, DEL and EXEC
// under the namespace. It touches one key, named with a fresh nonce so
// that no one else has it, and never writes it: its DEL deletes nothing.
// Each refusal gets its own line, as the preflight's do.
func (b *Backend) cleanupCheck(ctx context.Context, c *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, 3*b.Timeout+2*time.Second)
	defer cancel()
	k := Namespace + "cleanup-check:" + newNonce()
	checks := [][]any{{"SCAN", 0, "MATCH", Namespace + "*", "COUNT", 1}, {"GET", k}, {"EXISTS", k}}
	for i, args := range checks {
		if err := c.Do(ctx, args...).Err(); err != nil && !errors.Is(err, redis.Nil) {
			if i == 0 && !isNoPerm(err) {
				return b.explain(err) // the connection itself: an address, a password
			}
			return fmt.Errorf("the server refused %s, which -cleanup needs: %s", args[0], b.explain(err))
		}
	}
	err := c.Watch(ctx, func(tx *redis.Tx) error {
		cmds, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, k)
			return nil
		})
		return txErr(cmds, err)
	}, k)
	if err != nil {
		return fmt.Errorf("the server refused WATCH, MULTI, DEL or EXEC, which -cleanup needs: %s", b.explain(err))
	}
	return nil
}

// UnderReplay is arg with a run's prefix at its start (a key, or a prefix
// a script builds keys from) put under the replay prefix instead; any
// other arg as it is.
func UnderReplay(arg, replay string) string {
	if p := runPrefix.FindString(arg); p != "" {
		return replay + arg[len(p):]
	}
	return arg
}

// Bookkeeping reports whether key is the run's registration or heartbeat,
// which a story that wipes its keys must leave: without them the run's
// other keys would not be locksim's until the next heartbeat.
func (b *Backend) Bookkeeping(key string) bool {
	return b.Prefix != "" && (key == b.registrationKey() || key == b.heartbeatKey())
}

// txErr is a MULTI/EXEC's error as the server gave it: the refusal of a
// queued command (a NOPERM names the command) rather than EXEC's
// EXECABORT, which says only that something was refused.
func txErr(cmds []redis.Cmder, err error) error {
	if err == nil || !strings.HasPrefix(err.Error(), "EXECABORT") {
		return err
	}
	for _, c := range cmds {
		if e := c.Err(); e != nil && !strings.HasPrefix(e.Error(), "EXECABORT") {
			return e
		}
	}
	return err
}
