// Package sim runs locking stories against a real Redis protocol server:
// backends (an embedded miniredis or a live server), a clock the scene owns,
// actors with programs, schedules, events and replay.
//
// sim never imports Bubble Tea: it produces events, and the scenes and views
// turn them into screens and transcripts.
package sim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Epoch is the wall-clock instant the embedded server's clock starts from at
// the beginning of every run, so TIME and expiry replay identically.
var Epoch = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// DefaultLiveScale divides every story duration (TTLs, pauses, waits) on a
// live server, so a 30 s lease is sent as PX 1500 and a story plays in seconds.
const DefaultLiveScale = 20

// Backend is one Redis protocol server that actors talk to: an embedded
// miniredis on a loopback port, or a live server given by URL.
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

	mr   *miniredis.Miniredis // nil on a live server
	opts *redis.Options
	// admin is the backend's own connection for reading keys back and cleaning up.
	admin *redis.Client
	// resource, when set, is the protected resource's own store (-resource-redis).
	resource *Backend
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

// OpenEmbedded starts a miniredis on 127.0.0.1 with a virtual clock that only
// moves when a run advances it (miniredis SetTime + ClockTTL).
func OpenEmbedded() (*Backend, error) {
	mr := miniredis.NewMiniRedis()
	if err := mr.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("cannot start the embedded server: %w", err)
	}
	mr.SetTime(Epoch)
	mr.ClockTTL(true)
	opts := &redis.Options{Addr: mr.Addr()}
	b := &Backend{Name: "embedded", Scale: 1, mr: mr, opts: opts}
	b.admin = b.NewConn()
	return b, nil
}

// OpenLive parses url with go-redis's parser (redis://, rediss://, user,
// password, db), checks the server answers PING within timeout, and returns a
// backend whose keys live under a fresh "locksim:<run>:" prefix. scale must be
// at least 1. Errors name the problem in one line.
func OpenLive(ctx context.Context, url string, scale int, timeout time.Duration) (*Backend, error) {
	if scale < 1 {
		return nil, fmt.Errorf("-scale must be 1 or more, got %d", scale)
	}
	opts, err := redis.ParseURL(url)
	if err == nil && opts.DB < 0 {
		err = fmt.Errorf("database %d is not a database number", opts.DB)
	}
	if err != nil {
		return nil, fmt.Errorf("bad Redis URL %q (want redis://[user:password@]host:port/db): %v", url, err)
	}
	if timeout > 0 {
		opts.DialTimeout = timeout
	} else {
		timeout = 3 * time.Second
	}
	var run [3]byte
	_, _ = rand.Read(run[:])
	b := &Backend{
		Name:   fmt.Sprintf("live %s/%d", opts.Addr, opts.DB),
		Prefix: "locksim:" + hex.EncodeToString(run[:]) + ":",
		Scale:  scale,
		opts:   opts,
	}
	b.admin = b.NewConn()
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := b.admin.Ping(pctx).Err(); err != nil {
		_ = b.admin.Close()
		var ne net.Error
		if errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("cannot reach Redis at %s: %v", opts.Addr, oneLine(err))
		}
		return nil, fmt.Errorf("the server at %s refused the connection: %v", opts.Addr, oneLine(err))
	}
	return b, nil
}

// Live reports whether this backend is a real server with real time.
func (b *Backend) Live() bool { return b.mr == nil }

// Key returns the key as it is sent to the server: name under the backend's prefix.
func (b *Backend) Key(name string) string { return b.Prefix + name }

// NewConn opens a new client with a single connection of its own, so that
// each actor is a separate client of the server as in the course.
// RESP2 keeps replies in the shapes redis-cli prints.
func (b *Backend) NewConn() *redis.Client {
	o := *b.opts
	o.PoolSize = 1
	o.MinIdleConns = 0
	o.MaxRetries = -1 // a retried SET NX would muddle "exactly one OK"
	o.Protocol = 2
	o.DisableIdentity = true
	return redis.NewClient(&o)
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
	b.mr.SetTime(Epoch.Add(at))
}

// Delete removes the given keys (already prefixed). It never touches anything else.
func (b *Backend) Delete(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	return b.admin.Del(ctx, keys...).Err()
}

// Cleanup deletes every key under the backend's prefix on a live server
// (SCAN MATCH prefix*, then DEL), so nothing locksim wrote is left behind.
// It does nothing on the embedded server, which dies with the process.
func (b *Backend) Cleanup(ctx context.Context) error {
	if b.mr != nil || b.Prefix == "" {
		return nil
	}
	var keys []string
	iter := b.admin.Scan(ctx, 0, b.Prefix+"*", 200).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return err
	}
	return b.Delete(ctx, keys...)
}

// Close cleans up (see Cleanup) and releases the backend's connections and server.
func (b *Backend) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	err := b.Cleanup(ctx)
	if b.resource != nil {
		_ = b.resource.Close()
	}
	_ = b.admin.Close()
	if b.mr != nil {
		b.mr.Close()
	}
	return err
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
