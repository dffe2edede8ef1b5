package sim

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Resource is the protected resource: a store that is not the lock service
// (a second embedded server, or the live server under its own key names),
// with an unfenced write (last write wins) and a fenced write that refuses a
// token lower than the largest it has accepted. Both are single EVALs on
// the resource's own store, so the check and the write cannot be split.
type Resource struct {
	b      *Backend
	own    bool // b is an embedded server the Resource borrowed from lender
	lender *Backend
	shared bool // b is the lock service's own server
	key    string
	conns  map[string]*redis.Client
}

// ResourceState is the resource as its store reports it (HGETALL).
type ResourceState struct {
	Value    string // the last accepted write
	Writer   string // who wrote it
	Accepted int64
	Rejected int64
	MaxToken int64 // largest fencing token accepted; 0 when none
}

// LastWrite is the resource's last accepted write as the screen and the
// transcript both say it: `last write "v" by A`, or "no writes yet".
func (r ResourceState) LastWrite() string {
	if r.Writer == "" {
		return "no writes yet"
	}
	return "last write " + strconv.Quote(r.Value) + " by " + r.Writer
}

// WriteLua records an unfenced write: last write wins, every write counted.
// KEYS[1] the resource hash; ARGV writer, value, and a safety expiry in ms
// (the resource is not the lesson: it must not outlive a killed run).
// Returns the write count.
var WriteLua = Lua{Name: "write", Src: `redis.call("HSET", KEYS[1], "value", ARGV[2], "writer", ARGV[1])
local n = redis.call("HINCRBY", KEYS[1], "accepted", 1)
redis.call("PEXPIRE", KEYS[1], ARGV[3])
return n`}

// FencedWriteLua refuses a write whose token is lower than the largest it
// has accepted, and accepts the current one again (a holder may write
// twice). KEYS[1] the resource hash; ARGV writer, value, token, safety
// expiry in ms. Returns the write count, or an error reply naming the stale
// token and the largest seen.
var FencedWriteLua = Lua{Name: "fenced-write", Src: `local max = tonumber(redis.call("HGET", KEYS[1], "max") or "0")
local tok = tonumber(ARGV[3])
if tok < max then
  redis.call("HINCRBY", KEYS[1], "rejected", 1)
  redis.call("PEXPIRE", KEYS[1], ARGV[4])
  return redis.error_reply("STALE token " .. ARGV[3] .. ", seen " .. max)
end
redis.call("HSET", KEYS[1], "value", ARGV[2], "writer", ARGV[1], "max", ARGV[3])
local n = redis.call("HINCRBY", KEYS[1], "accepted", 1)
redis.call("PEXPIRE", KEYS[1], ARGV[4])
return n`}

func newResource(ctx context.Context, r *Run) (*Resource, error) {
	res := &Resource{conns: map[string]*redis.Client{}}
	switch {
	case r.b.resource != nil:
		res.b = r.b.resource
		res.shared = r.b.SameServer(r.b.resource)
	case r.b.Live():
		res.b, res.shared = r.b, true
	default:
		b, err := r.b.borrowEmbedded()
		if err != nil {
			return nil, err
		}
		res.b, res.own, res.lender = b, true, r.b
	}
	res.key = res.b.Key("resource:state")
	for name := range r.conns {
		res.conns[name] = res.b.NewConn()
	}
	return res, res.reset(ctx)
}

func (res *Resource) reset(ctx context.Context) error {
	return res.b.Delete(ctx, res.key)
}

func (res *Resource) read(ctx context.Context) (ResourceState, error) {
	h, err := res.b.Admin().HGetAll(ctx, res.key).Result()
	if err != nil {
		return ResourceState{}, err
	}
	return resourceState(h), nil
}

// resourceState is the resource's hash as its fields read.
func resourceState(h map[string]string) ResourceState {
	n := func(f string) int64 { v, _ := strconv.ParseInt(h[f], 10, 64); return v }
	return ResourceState{Value: h["value"], Writer: h["writer"], Accepted: n("accepted"), Rejected: n("rejected"), MaxToken: n("max")}
}

func (res *Resource) close() {
	for _, c := range res.conns {
		_ = c.Close()
	}
	if res.own {
		res.lender.spare(res.b)
	}
}
