// Package sim runs locking stories against a real Redis protocol server:
// backends (an embedded miniredis or a live server), a clock the scene owns,
// actors with programs, schedules, events and replay.
//
// sim never imports Bubble Tea: it produces events, and the scenes and views
// turn them into screens and transcripts.
package sim

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	"github.com/redis/go-redis/v9"
)

// Epoch is the wall-clock instant the embedded server's clock starts from at
// the beginning of every run, so TIME and expiry replay identically.
func Epoch() time.Time { return time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC) }

// DefaultLiveScale divides every story duration (TTLs, pauses, waits) on a
// live server, so a 30 s lease is sent as PX 1500 and a story plays in seconds.
const DefaultLiveScale = 20

// Backend is one Redis protocol server that actors talk to: an embedded
// miniredis reached over in-process pipes, or a live server given by URL.
//
// On a live server every key is sent under Prefix (unique to this process),
// so locksim never reads or writes a key it did not create.
type Backend struct {
	// Name describes the server for the screen: "embedded" or "live host:port/db".
	Name string
	// Prefix is prepended to every key on a live server; empty on the embedded one.
	Prefix string
	// Scale divides story durations before they are sent (1 on the embedded server).
	Scale int
	// Timeout bounds each command on a live server; 0 on the embedded one.
	Timeout time.Duration
	// Swept is what OpenLive's start sweep removed: the keys of
	// registered runs whose heartbeat had expired.
	Swept SweepReport
	// Label marks each story move in the server's command stream on a live
	// server: ECHO "step N: label" on the backend's own connection before
	// the move runs, so MONITOR shows where each step starts (-label).
	Label bool

	mr   *miniredis.Miniredis // nil on a live server
	opts *redis.Options
	// admin is the backend's own connection for reading keys back and cleaning up.
	admin *redis.Client
	// forms is what a live server has of the one-command forms, found as
	// it opened (see FormSupport)
	forms FormSupport
	// resource, when set, is the protected resource's own store (-resource-redis).
	resource *Backend

	// nodes are the live servers of a distributed story (-redlock).
	nodes []*Backend
	// spares are embedded servers a run has finished with (a resource's
	// store, a node), kept for the next run: starting one costs more
	// than a whole story's commands
	spareMu sync.Mutex
	spares  []*Backend

	// srv is the embedded server's protocol server, nil while it is
	// stopped: dials read it here, under srvMu, since go-redis may dial
	// from a goroutine of its own while a node restarts
	srvMu sync.Mutex
	srv   *server.Server
	// faulted is set once a command panicked inside the embedded server
	// (see guardPanics)
	faulted atomic.Bool
	// scripts answers commands before miniredis does (see SetScriptHook)
	scripts atomic.Pointer[ScriptHook]

	// runs counts the runs opened on b: it tags their scripts, so no two
	// runs share a cached script (see Exec.EvalSHA).
	runs atomic.Int64

	// types are the keys' types as last read back, so the next read-back
	// sends each key's value read in the same round as its TYPE
	typesMu sync.Mutex
	types   map[string]string

	// registration is the value of the run's registration key (live only)
	registration string
	// wrote are the names the run sent under its prefix (live only)
	wrote *written
	// newRunID draws a candidate run id (6 hex digits) for register; nil
	// draws a random one. A test sets it to aim register at a prefix.
	newRunID func() string
	// beatTTL and beatEvery are the heartbeat's TTL and period (live only)
	beatTTL, beatEvery time.Duration

	health   *health            // what the heartbeat last learned (live only)
	stopBeat context.CancelFunc // stops the heartbeat
	beating  sync.WaitGroup
}

// lastType is key's type as last read back, "" if never read.
func (b *Backend) lastType(key string) string {
	b.typesMu.Lock()
	defer b.typesMu.Unlock()
	return b.types[key]
}

// rememberType keeps key's type for the next read-back.
func (b *Backend) rememberType(key, typ string) {
	b.typesMu.Lock()
	defer b.typesMu.Unlock()
	if b.types == nil {
		b.types = map[string]string{}
	}
	b.types[key] = typ
}

// SetResourceStore makes r the store of every protected resource on b; by
// default a live backend keeps the resource under its own prefix and the
// embedded one starts a second embedded server.
func (b *Backend) SetResourceStore(r *Backend) { b.resource = r }

// ResourceStore returns the store set with SetResourceStore, or nil.
func (b *Backend) ResourceStore() *Backend { return b.resource }

// quiet swallows go-redis's own log lines: every failure reaches the
// caller as an error, and stray lines would garble the terminal.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

func init() { redis.SetLogger(quiet{}) }

// OpenEmbedded starts a miniredis with a virtual clock that only moves when
// a run advances it (miniredis SetTime + ClockTTL).
func OpenEmbedded() (*Backend, error) {
	mr, err := startEmbedded()
	if err != nil {
		return nil, err
	}
	mr.SetTime(Epoch())
	mr.ClockTTL(true)
	opts := embeddedOptions(embeddedAddr)
	b := &Backend{Name: "embedded", Scale: 1, mr: mr, opts: opts, srv: mr.Server()}
	b.guardPanics(b.srv)
	b.admin = b.newAdmin()
	return b, nil
}

// OpenEmbeddedRealClock starts a miniredis whose keys expire on the real
// clock, as a live server's do: for trials, which run for real with no
// story clock. Its Live reports false; its Scale is 1.
func OpenEmbeddedRealClock() (*Backend, error) {
	mr, err := startEmbedded()
	if err != nil {
		return nil, err
	}
	mr.ClockTTL(true) // no SetTime: the clock is time.Now()
	opts := embeddedOptions(embeddedAddr)
	b := &Backend{Name: "embedded", Scale: 1, mr: mr, opts: opts, srv: mr.Server()}
	b.guardPanics(b.srv)
	b.admin = b.newAdmin()
	return b, nil
}

// startEmbedded starts a miniredis that listens on no port: every client
// dials through dialPipe, as a restarted one does (see restart), so a start
// opens no socket (listening on 127.0.0.1 was a tenth of a -plain start).
// Dial starts it; the pipe it opens is not needed.
func startEmbedded() (*miniredis.Miniredis, error) {
	mr := miniredis.NewMiniRedis()
	c, err := mr.Dial()
	if err != nil {
		return nil, fmt.Errorf("cannot start the embedded server: %w", err)
	}
	_ = c.Close()
	return mr, nil
}

// embeddedAddr is the address the embedded server's connections carry: it
// listens on none, so it only names the server in a refused dial's error
// (dialPipe), which a node's reply replaces by the node's name.
const embeddedAddr = "127.0.0.1:0"

// SameServer reports whether o talks to the same server and database as b.
func (b *Backend) SameServer(o *Backend) bool {
	return b.mr == nil && o.mr == nil && b.opts.Addr == o.opts.Addr && b.opts.DB == o.opts.DB
}

// Live reports whether this backend is a real server with real time.
func (b *Backend) Live() bool { return b.mr == nil }

// Key returns the key as it is sent to the server: name under the backend's
// prefix. On a live server it records the name (see written): Cleanup
// deletes the names the run sent, never whatever a SCAN finds under the
// prefix, which could be a user's key.
func (b *Backend) Key(name string) string {
	k := b.Prefix + name
	if b.wrote != nil {
		b.wrote.add(k)
	}
	return k
}

// written is the set of key names a live run sent under its prefix,
// shared by the backend and its namespace()s. Every key a story writes is
// named through Key (a script that builds names, the claim's job hashes,
// builds them from ids whose keys the run names too), so these are the
// keys the run can show it wrote.
type written struct {
	mu   sync.Mutex
	keys map[string]bool
}

func (w *written) add(k string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.keys == nil {
		w.keys = map[string]bool{}
	}
	w.keys[k] = true
}

func (w *written) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Sorted(maps.Keys(w.keys))
}

// StoryKeys are the keys a story's "every key is gone" wipes: on the
// embedded server every key (the server is the run's own); on a live one
// only the names the run sent under its prefix (see Key), never its
// registration or heartbeat, and never a key a SCAN merely finds there.
func (b *Backend) StoryKeys(ctx context.Context) ([]string, error) {
	if b.mr == nil {
		var keys []string
		if b.wrote != nil {
			for _, k := range b.wrote.list() {
				if !b.Bookkeeping(k) {
					keys = append(keys, k)
				}
			}
		}
		return keys, nil
	}
	var keys []string
	iter := b.admin.Scan(ctx, 0, "*", 500).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	return keys, iter.Err()
}

// NewConn opens a new client with a single connection of its own, so that
// each actor is a separate client of the server as in the course.
// RESP2 keeps replies in the shapes redis-cli prints.
func (b *Backend) NewConn() *redis.Client { return b.newConn(0) }

// newConn is NewConn whose commands may take at least least to answer.
func (b *Backend) newConn(least time.Duration) *redis.Client {
	return redis.NewClient(b.connOptions(least))
}

// connOptions are the options of a connection of NewConn's whose commands
// may take at least least to answer.
func (b *Backend) connOptions(least time.Duration) *redis.Options {
	o := *b.opts
	if o.ReadTimeout > 0 && o.WriteTimeout > 0 {
		o.ReadTimeout, o.WriteTimeout = max(o.ReadTimeout, least), max(o.WriteTimeout, least)
	}
	o.PoolSize = 1
	o.MinIdleConns = 0
	o.MaxRetries = -1 // a retried SET NX would muddle "exactly one OK"
	// one dial, no backoff: a stopped node refuses at once, as redis-cli
	// sees it, and the outage screen does its own retrying
	o.DialerRetries = 1
	o.Protocol = 2
	o.DisableIdentity = true
	if b.mr != nil {
		o.Dialer = b.dialPipe
	}
	return &o
}

// newAdmin opens the backend's own connection (admin): NewConn's, which
// on the embedded server runs its commands in the caller's goroutine
// (inprocConn) rather than through a pipe.
func (b *Backend) newAdmin() *redis.Client {
	o := b.connOptions(0)
	if b.mr != nil {
		o.Dialer = b.dialInproc
	}
	return redis.NewClient(o)
}

// Admin is the backend's own connection, used to read keys back for the
// inspector; its commands are not an actor's and are not logged.
func (b *Backend) Admin() *redis.Client { return b.admin }

// setClock moves the embedded server's clock to Epoch+at. It is a no-op on a
// live server, whose clock is real.
//
// Redis 7 keeps a key through the millisecond its TTL ends (PTTL 0, GET
// still answers, SET NX is refused) and removes it after; miniredis removes
// it once the remaining TTL reaches 0. So before the clock moves, every key
// whose remaining TTL is a whole number of milliseconds gets 1 ns more:
// a move that lands exactly on its end leaves it there at PTTL 0, and any
// later move removes it. TIME is not touched.
func (b *Backend) setClock(at time.Duration) {
	if b.mr == nil {
		return
	}
	db := b.mr.DB(0) // brings every TTL up to the current clock
	for _, k := range db.Keys() {
		if ttl := db.TTL(k); ttl > 0 && ttl%time.Millisecond == 0 {
			db.SetTTL(k, ttl+time.Nanosecond)
		}
	}
	b.mr.SetTime(Epoch().Add(at))
}

// Delete removes the given keys (already prefixed). It never touches anything else.
func (b *Backend) Delete(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	return b.admin.Del(ctx, keys...).Err()
}

// Cleanup deletes, on a live server, the keys the run named under its
// prefix (see Key), and then, in one DEL, its heartbeat and registration,
// so no key of the run is ever left without its registration. It never
// SCANs the prefix: a key found there that the run did not name (a user's
// written under a prefix it did not know was taken) is not the run's to
// delete. It does nothing on the embedded server, which dies with the
// process. It runs on a connection of its own, so a client stuck in a
// stalled command does not hold it up.
func (b *Backend) Cleanup(ctx context.Context) error {
	if b.mr != nil || b.Prefix == "" {
		return nil
	}
	// on a loaded machine one command can miss its timeout: try again on a
	// fresh connection while ctx has time, since the keys are the server's
	// to lose otherwise (a DEL sent twice deletes nothing more)
	for {
		err := b.cleanupOnce(ctx)
		var ne net.Error
		if err == nil || ctx.Err() != nil || !errors.As(err, &ne) || !ne.Timeout() {
			return b.explain(err)
		}
	}
}

// cleanupOnce is one try of Cleanup, on a connection of its own whose
// commands may take a second each: nothing waits on quitting but the
// caller's deadline.
func (b *Backend) cleanupOnce(ctx context.Context) error {
	c := b.newConn(time.Second)
	defer c.Close()
	keys, err := b.StoryKeys(ctx)
	if err != nil {
		return err
	}
	// a few hundred names a DEL, so that no one command holds the server
	for len(keys) > 0 {
		n := min(len(keys), 500)
		if err := c.Del(ctx, keys[:n]...).Err(); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return c.Del(ctx, b.heartbeatKey(), b.registrationKey()).Err()
}

// Close stops the heartbeat, cleans up (see Cleanup) within ctx's deadline,
// and releases the backend's connections and server. Its error says the
// keys under the prefix may still be there.
func (b *Backend) Close(ctx context.Context) error {
	b.stopHeartbeat()
	err := b.Cleanup(ctx)
	b.spareMu.Lock()
	for _, s := range b.spares {
		_ = s.Close(ctx)
	}
	b.spares = nil
	b.spareMu.Unlock()
	for _, n := range b.nodes {
		if nerr := n.Close(ctx); err == nil {
			err = nerr
		}
	}
	if b.resource != nil {
		if rerr := b.resource.Close(ctx); err == nil {
			err = rerr
		}
	}
	_ = b.admin.Close()
	if b.mr != nil {
		b.srvMu.Lock()
		b.srv = nil // a dial from a client still open is refused
		if !b.faulted.Load() {
			b.mr.Close() // after a fault it could wait for ever on its lock
		}
		b.srvMu.Unlock()
	}
	if err != nil {
		return fmt.Errorf("could not delete the keys under %s on %s: %v", b.Prefix, b.Name, err)
	}
	return nil
}

func oneLine(err error) string {
	return Escape(strings.ReplaceAll(err.Error(), "\n", " "))
}

// Addr is the server's address, host:port.
func (b *Backend) Addr() string { return b.opts.Addr }

// borrowEmbedded is an embedded server of b's for a run's resource or node:
// a spare one if b has it, else a new one. Give it back with spare.
func (b *Backend) borrowEmbedded() (*Backend, error) {
	b.spareMu.Lock()
	defer b.spareMu.Unlock()
	if n := len(b.spares); n > 0 {
		s := b.spares[n-1]
		b.spares = b.spares[:n-1]
		return s, nil
	}
	return OpenEmbedded()
}

// spare keeps an embedded server a run has finished with, emptied, for the
// next run. It is locksim's own server, so emptying it touches nothing else.
func (b *Backend) spare(s *Backend) {
	s.mr.FlushAll()
	s.mr.SetTime(Epoch())
	b.spareMu.Lock()
	defer b.spareMu.Unlock()
	b.spares = append(b.spares, s)
}

// dialPipe connects to the embedded server in-process, over net.Pipe: the
// same protocol without a socket's system calls, which makes a transcript
// about twice as fast as a socket does. A pipe has no buffer, so a
// pipeline must stay small (ReadKeys sends its reads in chunks), and no
// liveness check, so a stopped or restarted server's clients are replaced
// (reconnect). A stopped node refuses as its closed port would.
func (b *Backend) dialPipe(ctx context.Context, network, addr string) (net.Conn, error) {
	b.srvMu.Lock()
	srv := b.srv
	b.srvMu.Unlock()
	if srv == nil {
		at, _ := net.ResolveTCPAddr("tcp", b.opts.Addr) // the server's own is gone while it is stopped
		return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: at, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	client, server := net.Pipe()
	srv.ServeConn(server)
	return client, nil
}

// reconnect replaces b's own connection: after its server stopped or came
// back, a pooled connection would carry the old state (a closed socket, or
// the dial error go-redis keeps for a second).
func (b *Backend) reconnect() {
	_ = b.admin.Close()
	b.admin = b.newAdmin()
}

// stop stops an embedded server: its pipes close, new ones are refused,
// and its own connection is replaced, since a pipe has no liveness check
// and a pooled one would fail once the server is back.
func (b *Backend) stop() {
	b.srvMu.Lock()
	b.srv = nil
	b.mr.Close()
	b.srvMu.Unlock()
	b.reconnect()
}

// restart brings a stopped embedded server back, with fresh connections.
// It comes back listening on no port: miniredis's Restart listens again
// on the port the server gave up when it stopped, and on a busy machine
// another socket can take that port in between, so the restart failed and
// the story went on with the node down. Nothing needs the port: every
// client dials through dialPipe.
func (b *Backend) restart() error {
	b.srvMu.Lock()
	// Dial starts a stopped miniredis without a listener; the pipe it
	// opens is not needed
	c, err := b.mr.Dial()
	if err == nil {
		_ = c.Close()
		b.srv = b.mr.Server()
		b.guardPanics(b.srv) // a restart sets a hook of its own
	}
	b.srvMu.Unlock()
	if err != nil {
		return err
	}
	b.reconnect()
	return nil
}
