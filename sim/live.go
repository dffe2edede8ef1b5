package sim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Namespace is the prefix of every key locksim writes on a live server:
// each run's keys go under Namespace + "<run>:", the run being 6 hex digits.
const Namespace = "locksim:"

// DefaultTimeout bounds each command on a live server: a loopback or LAN
// server answers in well under a millisecond, so a stall shows at once.
const DefaultTimeout = 400 * time.Millisecond

// Heartbeat timing: every run refreshes Namespace<run>:heartbeat
// HeartbeatEvery after the last refresh ended, with a TTL of HeartbeatTTL.
// A run whose heartbeat is gone is dead, and the sweep may delete its keys.
// The heartbeat is also the outage probe, and while a screen is idle it is
// the run's only command: at most one a second, so MONITOR stays readable.
const (
	HeartbeatEvery = time.Second
	HeartbeatTTL   = 15 * time.Second
)

// SafetyTTL is the expiry of every key that is not itself the lesson (the
// fencing counter, the resource's hash): far past any story, so a run that
// is killed leaves nothing that lives for ever. In story time.
const SafetyTTL = time.Hour

var runPattern = regexp.MustCompile(`^` + Namespace + `([0-9a-f]{6}):`)

// LiveOptions are the settings of a live backend.
type LiveOptions struct {
	Scale   int           // story time divided by Scale; 1 or more
	Timeout time.Duration // per-command timeout; DefaultTimeout if 0
	// NoSweep skips removing dead runs' keys at start.
	NoSweep bool
}

// Redact returns rawURL with any password replaced by "xxxxx", for error
// messages and the screen: a password never leaves the process.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		if i := strings.LastIndex(rawURL, "@"); i >= 0 {
			return "…@" + rawURL[i+1:]
		}
		return rawURL
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// urlShape is what a Redis URL looks like, for the error about one that is not.
const urlShape = "a Redis URL looks like redis://host:port/db, redis://user:password@host:port/db, or rediss://… for TLS"

// parseURL reads rawURL as go-redis's ParseURL does (redis:// or rediss://,
// a database number 0 or more). Its error is one line that says what is
// wrong and what a URL looks like, and never contains the password.
func parseURL(rawURL string) (*redis.Options, error) {
	u, err := url.Parse(rawURL)
	switch {
	case !strings.Contains(rawURL, "://"):
		return nil, fmt.Errorf("bad Redis URL %s: it has no scheme; %s", Redact(rawURL), urlShape)
	case err == nil && u.Scheme != "redis" && u.Scheme != "rediss":
		return nil, fmt.Errorf("bad Redis URL %s: the scheme is %s, not redis or rediss; %s", Redact(rawURL), u.Scheme, urlShape)
	}
	opts, err := redis.ParseURL(rawURL)
	if err == nil && opts.DB < 0 {
		err = fmt.Errorf("database %d is not a database number", opts.DB)
	}
	if err != nil {
		return nil, fmt.Errorf("bad Redis URL %s: %s; %s", Redact(rawURL), scrub(oneLine(err), opts, rawURL), urlShape)
	}
	return opts, nil
}

// scrub removes the password of opts, or the one written in rawURL, from
// s, in case a library echoed it.
func scrub(s string, opts *redis.Options, rawURL string) string {
	if opts != nil && opts.Password != "" {
		s = strings.ReplaceAll(s, opts.Password, "xxxxx")
	}
	// user:password@ as written, even in a URL no parser accepts
	if _, rest, ok := strings.Cut(rawURL, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if _, pw, ok := strings.Cut(rest[:at], ":"); ok && pw != "" {
				s = strings.ReplaceAll(s, pw, "xxxxx")
			}
		}
	}
	return s
}

// OpenLive connects to the server at rawURL (redis://[user:password@]host:port/db
// or rediss://), checks that it can run what locksim sends (see Preflight),
// removes the keys of earlier runs whose heartbeat has expired, and returns
// a backend whose keys live under a fresh "locksim:<run>:" prefix, with a
// heartbeat refreshed in the background until Close. Errors are one line
// and never contain the password.
func OpenLive(ctx context.Context, rawURL string, o LiveOptions) (*Backend, error) {
	if o.Scale < 1 {
		return nil, fmt.Errorf("-scale must be 1 or more, got %d", o.Scale)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	opts, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	opts.DialTimeout = max(o.Timeout, time.Second)
	opts.ReadTimeout, opts.WriteTimeout = o.Timeout, o.Timeout
	// a cancelled context interrupts a read in progress, so q during a
	// stalled server returns at once
	opts.ContextTimeoutEnabled = true
	var run [3]byte
	_, _ = rand.Read(run[:])
	b := &Backend{
		Name:    fmt.Sprintf("live %s/%d", opts.Addr, opts.DB),
		Prefix:  Namespace + hex.EncodeToString(run[:]) + ":",
		Scale:   o.Scale,
		Timeout: o.Timeout,
		opts:    opts,
	}
	b.admin = b.NewConn()
	if err := b.preflight(ctx); err != nil {
		_ = b.admin.Close()
		return nil, errors.New(scrub(err.Error(), opts, rawURL))
	}
	if err := b.beat(ctx); err != nil {
		_ = b.admin.Close()
		return nil, errors.New(scrub(b.explain(err).Error(), opts, rawURL))
	}
	if !o.NoSweep {
		if b.Swept, err = Sweep(ctx, b.admin, nil); err != nil {
			_ = b.admin.Close()
			return nil, errors.New(scrub(b.explain(err).Error(), opts, rawURL))
		}
	}
	b.health = &health{}
	hctx, stop := context.WithCancel(context.Background())
	b.stopBeat = stop
	b.beating.Add(1)
	go b.heartbeat(hctx)
	return b, nil
}

// heartbeatKey is the run's heartbeat, under its own prefix.
func (b *Backend) heartbeatKey() string { return b.Prefix + "heartbeat" }

// beat writes the heartbeat with its TTL. It reports, through the health
// state, a heartbeat that had lapsed (the machine slept past HeartbeatTTL):
// other runs may have swept this run's keys meanwhile.
func (b *Backend) beat(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, b.Timeout+time.Second)
	defer cancel()
	prev, err := b.admin.Do(ctx, "SET", b.heartbeatKey(), time.Now().UTC().Format(time.RFC3339), "PX", HeartbeatTTL.Milliseconds(), "GET").Result()
	if errors.Is(err, redis.Nil) {
		err = nil
		if b.health != nil {
			b.health.lapsed()
		}
	}
	_ = prev
	return err
}

// guardedBeat is beat with a panic turned into the beat's error (the
// screen's "server unreachable"): the heartbeat runs in a goroutine of its
// own, where a panic would end the whole process, every session of a
// server among them.
func (b *Backend) guardedBeat(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the heartbeat failed: %v", r)
		}
	}()
	return b.beat(ctx)
}

// heartbeat beats until ctx ends. The wait starts when a beat has ended,
// not on a ticker's grid: two beats are never less than HeartbeatEvery
// apart, even after a slow one.
func (b *Backend) heartbeat(ctx context.Context) {
	defer b.beating.Done()
	t := time.NewTimer(HeartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			err := b.guardedBeat(ctx)
			if ctx.Err() != nil {
				return
			}
			b.health.set(err)
			t.Reset(HeartbeatEvery)
		}
	}
}

// health is what the heartbeat last learned about the server.
type health struct {
	mu       sync.Mutex
	err      error
	since    time.Time
	wasLapse bool
}

func (h *health) set(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil && h.err == nil {
		h.since = time.Now()
	}
	h.err = err
}

func (h *health) lapsed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.wasLapse = true
}

// Health is the server's state as the heartbeat last saw it: Err is nil
// while it answers; Since is when it stopped answering; Lapsed is set once
// the heartbeat was found expired (the machine slept), after which other
// runs may have removed this run's keys.
type Health struct {
	Err    error
	Since  time.Time
	Lapsed bool
}

// TakeLapse reports whether the heartbeat was found lapsed since the last
// call, and forgets it.
func (b *Backend) TakeLapse() bool {
	if b.health == nil {
		return false
	}
	b.health.mu.Lock()
	defer b.health.mu.Unlock()
	l := b.health.wasLapse
	b.health.wasLapse = false
	return l
}

// Health reports the heartbeat's last reading; always healthy on the
// embedded server.
func (b *Backend) Health() Health {
	if b.health == nil {
		return Health{}
	}
	b.health.mu.Lock()
	defer b.health.mu.Unlock()
	return Health{Err: b.health.err, Since: b.health.since, Lapsed: b.health.wasLapse}
}

// preflight checks, before any scene runs, that the server is Redis or
// Valkey (not a cluster, whose CROSSSLOT rule rejects the multi-key
// scripts) and that this user may run every command locksim sends. It
// writes only under the run's prefix and deletes what it wrote.
func (b *Backend) preflight(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*b.Timeout+2*time.Second)
	defer cancel()
	c := b.admin
	if err := c.Ping(ctx).Err(); err != nil {
		return b.explain(err)
	}
	info, err := c.Info(ctx, "server", "cluster").Result()
	if err != nil && !isNoPerm(err) {
		return b.explain(err)
	}
	if strings.Contains(info, "cluster_enabled:1") {
		return fmt.Errorf("the server at %s is a cluster node: locksim's scripts use several keys at once, which a cluster refuses (CROSSSLOT); point it at a standalone Redis or Valkey", b.opts.Addr)
	}
	if name, version, ok := serverVersion(info); ok && !atLeast(version, 6, 2) {
		return fmt.Errorf("the server at %s is %s %s; locksim needs Redis 6.2 or later (or Valkey): its heartbeat uses SET … GET", b.opts.Addr, name, version)
	}
	k := b.Prefix + "preflight"
	defer c.Del(context.WithoutCancel(ctx), k)
	checks := [][]any{
		{"SET", k, "1", "NX", "PX", 60000}, {"GET", k}, {"PTTL", k}, {"PEXPIRE", k, 60000}, {"EXPIRE", k, 60},
		{"TYPE", k}, {"DEL", k}, {"SETNX", k, "1"}, {"DEL", k}, {"INCR", k}, {"PERSIST", k},
		{"ECHO", "locksim preflight"}, {"HGETALL", k + ":h"}, {"ZRANGE", k + ":z", 0, -1, "WITHSCORES"}, {"SCAN", 0, "MATCH", Namespace + "*", "COUNT", 10},
		{"EVAL", `return redis.call("SET", KEYS[1], "1", "PX", 60000)`, 1, k},
	}
	// an unknown SHA: NOSCRIPT says EVALSHA is allowed, NOPERM that it is not
	checks = append(checks, []any{"EVALSHA", strings.Repeat("0", 40), 0})
	for _, args := range checks {
		if err := c.Do(ctx, args...).Err(); err != nil && !errors.Is(err, redis.Nil) && !strings.HasPrefix(err.Error(), "NOSCRIPT") {
			return fmt.Errorf("the server refused %s, which locksim needs: %s", args[0], b.explain(err))
		}
	}
	return nil
}

// serverVersion reads the server's name and version from INFO server:
// Valkey reports valkey_version (and a redis_version it is compatible with).
func serverVersion(info string) (name, version string, ok bool) {
	for _, f := range []struct{ field, name string }{{"valkey_version:", "Valkey"}, {"redis_version:", "Redis"}} {
		for _, line := range strings.Split(info, "\n") {
			if v, found := strings.CutPrefix(strings.TrimSpace(line), f.field); found {
				return f.name, v, true
			}
		}
	}
	return "", "", false
}

// atLeast reports whether version (major.minor.patch) is at least major.minor.
func atLeast(version string, major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(version, "%d.%d", &ma, &mi); err != nil {
		return true // unknown: let the commands themselves say
	}
	return ma > major || ma == major && mi >= minor
}

func isNoPerm(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOPERM") }

// explain turns a client or server error into one specific, human line.
func (b *Backend) explain(err error) error {
	if err == nil {
		return nil
	}
	msg := oneLine(err)
	addr := b.opts.Addr
	var ne net.Error
	switch {
	case strings.HasPrefix(msg, "WRONGPASS"), strings.Contains(msg, "invalid password"), strings.Contains(msg, "invalid username-password"):
		return fmt.Errorf("the server at %s refused the user name or password (%s)", addr, msg)
	case strings.HasPrefix(msg, "NOAUTH"):
		return fmt.Errorf("the server at %s wants a password: give it in the URL, redis://:password@%s", addr, addr)
	case strings.HasPrefix(msg, "NOPERM"):
		return fmt.Errorf("the server's ACL does not let this user do that (%s); the README lists the ACL locksim needs", msg)
	case strings.HasPrefix(msg, "READONLY"):
		return fmt.Errorf("the server at %s is a read-only replica; point locksim at the primary", addr)
	case strings.Contains(msg, "DB index is out of range"):
		return fmt.Errorf("the server at %s has no database %d", addr, b.opts.DB)
	case strings.Contains(msg, "first record does not look like a TLS handshake"),
		b.opts.TLSConfig != nil && (strings.Contains(msg, "EOF") || strings.Contains(msg, "tls:") ||
			errors.Is(err, context.DeadlineExceeded) || strings.Contains(msg, "timeout")):
		return fmt.Errorf("TLS with %s failed (%s): does that server speak TLS? rediss:// asks for TLS, redis:// does not", addr, msg)
	case errors.As(err, &ne), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("cannot reach Redis at %s: %s", addr, msg)
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("cannot reach Redis at %s: %s", addr, msg)
	}
	return fmt.Errorf("the server at %s answered: %s", addr, msg)
}

// Sweep removes the keys of dead runs: keys under Namespace whose run's
// heartbeat key is gone. It finds them with SCAN MATCH locksim:* (never
// KEYS), touches nothing outside that namespace nor any key that is not of
// a run's form, and calls removed (if not nil) for each key it deletes.
// It returns the number of keys deleted.
func Sweep(ctx context.Context, c *redis.Client, removed func(key string)) (int, error) {
	byRun := map[string][]string{}
	iter := c.Scan(ctx, 0, Namespace+"*", 500).Iterator()
	for iter.Next(ctx) {
		k := iter.Val()
		if m := runPattern.FindStringSubmatch(k); m != nil {
			byRun[m[1]] = append(byRun[m[1]], k)
		}
	}
	if err := iter.Err(); err != nil {
		return 0, err
	}
	n := 0
	for run, keys := range byRun {
		alive, err := c.Exists(ctx, Namespace+run+":heartbeat").Result()
		if err != nil {
			return n, err
		}
		if alive > 0 {
			continue
		}
		d, err := delKeys(ctx, c, keys, removed)
		n += d
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// delKeys deletes keys one by one, telling removed (if not nil) of each,
// and returns how many it deleted before the first error.
func delKeys(ctx context.Context, c *redis.Client, keys []string, removed func(string)) (int, error) {
	n := 0
	for _, k := range keys {
		if err := c.Del(ctx, k).Err(); err != nil {
			return n, err
		}
		n++
		if removed != nil {
			removed(k)
		}
	}
	return n, nil
}

// ReplayPrefix is where the keys of an exported story go (the y key's
// redis-cli script, when the story ran on the embedded server): a replay
// has no heartbeat, so only -cleanup removes them, never a run's sweep at
// start, which could cut a replay in class short.
const ReplayPrefix = Namespace + "replay:"

// KeyCount is n keys as a message says it: "1 key", "0 keys", "3 keys".
func KeyCount(n int) string {
	if n == 1 {
		return "1 key"
	}
	return strconv.Itoa(n) + " keys"
}

// CleanupLive connects to rawURL, removes the keys of dead runs (Sweep)
// and of exported replays (under ReplayPrefix), and calls removed for each
// key it deletes: the -cleanup flag. It needs only SCAN, EXISTS and DEL
// (and the connection's HELLO and SELECT): its check before it starts
// sends those three, on a key under the namespace it never writes, rather
// than the stories' full preflight.
func CleanupLive(ctx context.Context, rawURL string, timeout time.Duration, removed func(key string)) (int, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	opts, err := parseURL(rawURL)
	if err != nil {
		return 0, err
	}
	opts.DialTimeout = max(timeout, time.Second)
	opts.ReadTimeout, opts.WriteTimeout = timeout, timeout
	opts.ContextTimeoutEnabled = true
	b := &Backend{Name: fmt.Sprintf("live %s/%d", opts.Addr, opts.DB), Scale: 1, Timeout: timeout, opts: opts}
	c := b.NewConn()
	defer c.Close()
	if err := b.cleanupCheck(ctx, c); err != nil {
		return 0, errors.New(scrub(err.Error(), opts, rawURL))
	}
	n, err := Sweep(ctx, c, removed)
	if err == nil {
		var m int
		m, err = sweepReplays(ctx, c, removed)
		n += m
	}
	if err != nil {
		return n, errors.New(scrub(b.explain(err).Error(), opts, rawURL))
	}
	return n, nil
}

// cleanupCheck is -cleanup's check before it deletes anything: the server
// answers and lets this user SCAN, EXISTS and DEL under the namespace.
// Each refusal gets its own line, as the preflight's do.
func (b *Backend) cleanupCheck(ctx context.Context, c *redis.Client) error {
	ctx, cancel := context.WithTimeout(ctx, 3*b.Timeout+2*time.Second)
	defer cancel()
	k := Namespace + "cleanup-check" // never written: DEL of it deletes nothing
	checks := [][]any{{"SCAN", 0, "MATCH", Namespace + "*", "COUNT", 1}, {"EXISTS", k}, {"DEL", k}}
	for i, args := range checks {
		if err := c.Do(ctx, args...).Err(); err != nil {
			if i == 0 && !isNoPerm(err) {
				return b.explain(err) // the connection itself: an address, a password
			}
			return fmt.Errorf("the server refused %s, which -cleanup needs: %s", args[0], b.explain(err))
		}
	}
	return nil
}

// sweepReplays removes every key under ReplayPrefix, found with SCAN.
func sweepReplays(ctx context.Context, c *redis.Client, removed func(key string)) (int, error) {
	var keys []string
	iter := c.Scan(ctx, 0, ReplayPrefix+"*", 500).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return 0, err
	}
	return delKeys(ctx, c, keys, removed)
}
