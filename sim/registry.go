package sim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
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
