package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/redis/go-redis/v9"
)

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
	// sort.Slice, not slices.SortFunc: sort.Slice's code is shared, where
	// the generic sort compiles its own for each struct type (9 KB here).
	sort.Slice(r.Foreign, func(i, j int) bool { return r.Foreign[i].Key < r.Foreign[j].Key })
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
