package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
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
// A registered run whose heartbeat is gone is dead, and the sweep may
// delete its keys (see Sweep).
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

// LiveOptions are the settings of a live backend.
type LiveOptions struct {
	Scale   int           // story time divided by Scale; 1 or more
	Timeout time.Duration // per-command timeout; DefaultTimeout if 0
	// NoSweep skips removing dead runs' keys at start.
	NoSweep bool
	// HeartbeatTTL is the heartbeat's TTL, HeartbeatTTL if 0; it is
	// refreshed every HeartbeatEvery, or every quarter of a shorter TTL.
	// Tests shorten it so that a killed run is swept without a 15 s wait.
	HeartbeatTTL time.Duration

	// runID, when set, draws register's candidate run ids (6 hex digits):
	// a test aims a run at a prefix it has put a key under.
	runID func() string
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
// a database number 0 or more), or host:port as ExpandAddr does. Its error is one line that says what is
// wrong and what a URL looks like, and never contains the password.
func parseURL(rawURL string) (*redis.Options, error) {
	rawURL, _ = ExpandAddr(rawURL) // host:port is redis://host:port/0
	u, err := url.Parse(rawURL)
	switch {
	case !strings.Contains(rawURL, "://"):
		return nil, fmt.Errorf("bad Redis URL %s: it has no scheme and is not host:port; %s", Redact(rawURL), urlShape)
	case err == nil && u.Scheme != "redis" && u.Scheme != "rediss":
		return nil, fmt.Errorf("bad Redis URL %s: the scheme is %s, not redis or rediss; %s", Redact(rawURL), u.Scheme, urlShape)
	}
	opts, err := redis.ParseURL(rawURL)
	if err == nil && opts.DB < 0 {
		err = fmt.Errorf("database %d is not a database number", opts.DB)
	}
	if err == nil {
		// a port past 65535 is the URL's fault, not the server's: said
		// before any connection is tried
		if _, port, e := net.SplitHostPort(opts.Addr); e == nil {
			if n, e := strconv.Atoi(port); e != nil || n < 1 || n > 65535 {
				err = fmt.Errorf("port %s is out of range: a port is from 1 to 65535", port)
			}
		}
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
// or rediss://), registers a fresh "locksim:<run>:" prefix, one under which
// no key exists, with its first heartbeat (see register) before it writes
// any other key, starts refreshing the heartbeat at once, checks that the
// server can run what locksim sends (see preflight), removes the keys of
// earlier registered runs whose heartbeat has expired (b.Swept says which),
// and returns a backend whose keys live under the prefix, with its
// heartbeat refreshed in the background until Close. Errors are one line and never
// contain the password; a run that fails after registering deletes what
// it wrote.
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
	opts.DialTimeout = DialTimeout(o.Timeout)
	opts.ReadTimeout, opts.WriteTimeout = o.Timeout, o.Timeout
	// a cancelled context interrupts a read in progress, so q during a
	// stalled server returns at once
	opts.ContextTimeoutEnabled = true
	b := &Backend{
		Name:      fmt.Sprintf("live %s/%d", opts.Addr, opts.DB),
		Scale:     o.Scale,
		Timeout:   o.Timeout,
		opts:      opts,
		beatTTL:   HeartbeatTTL,
		beatEvery: HeartbeatEvery,
		wrote:     &written{},
		newRunID:  o.runID,
	}
	if o.HeartbeatTTL > 0 {
		b.beatTTL, b.beatEvery = o.HeartbeatTTL, min(HeartbeatEvery, o.HeartbeatTTL/4)
	}
	b.admin = b.NewConn()
	fail := func(err error) (*Backend, error) {
		b.stopHeartbeat()
		if b.Prefix != "" {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.Timeout+time.Second)
			_ = b.Cleanup(cctx)
			cancel()
		}
		_ = b.admin.Close()
		return nil, errors.New(scrub(err.Error(), opts, rawURL))
	}
	if err := b.probe(ctx); err != nil {
		return fail(err)
	}
	// the start sweep's SCAN comes first: register skips the run ids it
	// saw without a SCAN of their own (register checks every other
	// candidate's prefix itself, in every mode)
	var seen []string
	if !o.NoSweep {
		if seen, err = scanNamespace(ctx, b.admin); err != nil {
			return fail(b.explain(err))
		}
	}
	taken := map[string]bool{}
	for _, k := range seen {
		if p := runPrefix.FindString(k); p != "" {
			taken[strings.TrimSuffix(strings.TrimPrefix(p, Namespace), ":")] = true
		}
	}
	if err := b.register(ctx, taken); err != nil {
		return fail(err)
	}
	// the heartbeat beats from here on: a sweep elsewhere, during this
	// run's preflight or its own start sweep (which can be long on a big
	// keyspace), must never find the registered run without one
	b.health = &health{}
	hctx, stop := context.WithCancel(context.Background())
	b.stopBeat = stop
	b.beating.Add(1)
	go b.heartbeat(hctx)
	if err := b.preflight(ctx); err != nil {
		return fail(err)
	}
	// which one-command forms the server has, asked once: a setting that
	// needs one is then refused without a command (FormSupport)
	if f, err := b.Forms(ctx); err == nil {
		b.forms = f
	} else {
		b.forms = FormSupport{Server: "this server (locksim could not tell which forms it has: " + oneLine(err) + ")", Has: map[string]bool{}}
	}
	if !o.NoSweep {
		if b.Swept, err = sweepKeys(ctx, b.admin, seen, false, nil); err != nil {
			return fail(b.explain(err))
		}
	}
	return b, nil
}

// stopHeartbeat stops the heartbeat, if it runs, and waits for its last
// beat.
func (b *Backend) stopHeartbeat() {
	if b.stopBeat != nil {
		b.stopBeat()
		b.beating.Wait()
		b.stopBeat = nil
	}
}

// heartbeatKey is the run's heartbeat, under its own prefix.
func (b *Backend) heartbeatKey() string { return b.Prefix + heartbeatName }

// registrationKey is the run's registration, under its own prefix.
func (b *Backend) registrationKey() string { return b.Prefix + registrationName }

// beat writes the heartbeat with its TTL. It reports, through the health
// state, a heartbeat that had lapsed (the machine slept past its TTL):
// other runs may have swept this run's keys and registration meanwhile, so
// it registers the run again, after the heartbeat, so that a sweep that
// reads the registration finds the run alive.
func (b *Backend) beat(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, b.Timeout+time.Second)
	defer cancel()
	// on admin, not a connection of its own: the heartbeat answering is
	// what tells the screen the server is back, and then admin must work
	// too (go-redis keeps a refused dial's error on a pool for a while)
	c := b.admin
	err := c.Do(ctx, "SET", b.heartbeatKey(), time.Now().UTC().Format(time.RFC3339), "PX", b.beatTTL.Milliseconds(), "GET").Err()
	if errors.Is(err, redis.Nil) {
		if b.health != nil {
			b.health.lapsed()
		}
		err = c.Set(ctx, b.registrationKey(), b.registration, 0).Err()
	}
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
	defer b.health.stop()
	t := time.NewTimer(b.beatEvery)
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
			t.Reset(b.beatEvery)
		}
	}
}

// health is what the heartbeat last learned about the server.
type health struct {
	mu       sync.Mutex
	err      error
	since    time.Time
	wasLapse bool
	// changed is closed at the next change a screen shows (see
	// HealthChanged) and replaced; once stopped is set it stays closed
	changed chan struct{}
	stopped bool
}

// set keeps a beat's outcome. A failed beat, and the first that answers
// after one, wake the screens waiting (HealthChanged); a beat that answers
// like the last does not, so a screen over a server that answers waits
// without a timer.
func (h *health) set(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil && h.err == nil {
		h.since = time.Now()
	}
	wake := err != nil || h.err != nil
	h.err = err
	if wake {
		h.wake()
	}
}

func (h *health) lapsed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.wasLapse = true
	h.wake()
}

// stop wakes the screens waiting for good: the heartbeat has stopped.
func (h *health) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	h.stopped = true
	if h.changed == nil {
		h.changed = make(chan struct{})
	}
	close(h.changed)
}

// wake closes changed and sets a fresh one; once stopped, changed stays
// closed. The caller holds mu.
func (h *health) wake() {
	if h.stopped {
		return
	}
	if h.changed != nil {
		close(h.changed)
	}
	h.changed = make(chan struct{})
}

// Health is the server's state as the heartbeat last saw it: Err is nil
// while it answers; Since is when it stopped answering; Lapsed is set once
// the heartbeat was found expired (the machine slept), after which other
// runs may have removed this run's keys.
type Health struct {
	Err    error
	Since  time.Time
	Lapsed bool
	// Stopped is set once the heartbeat has stopped (Close): nothing
	// changes after
	Stopped bool
}

// HealthChanged is closed the next time the heartbeat learns something a
// screen shows (Health): a failed beat (one a second, HeartbeatEvery,
// while the server does not answer, so the time down counts up), the first
// beat that answers after, a heartbeat found lapsed, and the heartbeat's
// stop. While the server answers it stays open: a screen waits on it
// without a timer. It is nil on the embedded server, whose health never
// changes (a receive from it waits for ever).
func (b *Backend) HealthChanged() <-chan struct{} {
	if b.health == nil {
		return nil
	}
	b.health.mu.Lock()
	defer b.health.mu.Unlock()
	if b.health.changed == nil {
		b.health.changed = make(chan struct{})
	}
	return b.health.changed
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
	return Health{Err: b.health.err, Since: b.health.since, Lapsed: b.health.wasLapse, Stopped: b.health.stopped}
}

// probe checks, before locksim writes anything, that the server answers
// and is Redis 6.2 or later or Valkey (not a cluster, whose CROSSSLOT rule
// rejects the multi-key scripts). It writes nothing.
func (b *Backend) probe(ctx context.Context) error {
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
	return nil
}

// preflight checks, once the run is registered and before any scene runs,
// that this user may run every command locksim sends. It writes only under
// the run's registered prefix and deletes what it wrote.
func (b *Backend) preflight(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*b.Timeout+2*time.Second)
	defer cancel()
	c := b.admin
	k := b.Key("preflight")
	b.Key("preflight:h")
	b.Key("preflight:z")
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
		return fmt.Errorf("the server's ACL does not let this user do that (%s); docs/live-server.md lists the ACL locksim needs", msg)
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

// ReplayPrefix is where the keys of exported stories go (the y key's
// redis-cli script), each replay under ReplayKeyPrefix(id): a replay has no
// heartbeat, so only -cleanup removes what one left, never a run's sweep
// at start, which could cut a replay in class short.
const ReplayPrefix = Namespace + "replay:"

// KeyCount is n keys as a message says it: "1 key", "0 keys", "3 keys".
func KeyCount(n int) string {
	if n == 1 {
		return "1 key"
	}
	return strconv.Itoa(n) + " keys"
}
