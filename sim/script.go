package sim

import (
	"context"
	"crypto/sha1"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Lua is a script sent with EVAL; Name is how the log shows it.
type Lua struct {
	Name string
	Src  string
}

// The scripts of the single-instance lock, after the "Distributed Locks with
// Redis" pattern page. Each runs atomically on the server. Release and
// extend answer alike: 1 done, 0 the key holds another token, -1 no such
// key, so a client can tell "taken" from "expired" by the reply itself.
var (
	// ReleaseLua deletes KEYS[1] only if it holds ARGV[1] (the token).
	ReleaseLua = Lua{Name: "release", Src: `local v = redis.call("GET", KEYS[1])
if v == ARGV[1] then
  return redis.call("DEL", KEYS[1])
elseif v then
  return 0
else
  return -1
end`}

	// ExtendLua sets KEYS[1]'s TTL to ARGV[2] ms only if it holds ARGV[1].
	ExtendLua = Lua{Name: "extend", Src: `local v = redis.call("GET", KEYS[1])
if v == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
elseif v then
  return 0
else
  return -1
end`}

	// AcquireFencedLua sets KEYS[1] to ARGV[1] with NX and PX ARGV[2] ms and,
	// only if it was set, increments the fence counter KEYS[2]: the reply is
	// the fencing token, or (nil) when the lock is held. Grant and token are
	// one atomic step, so tokens rise in the order locks are granted.
	AcquireFencedLua = Lua{Name: "acquire-fenced", Src: `if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("INCR", KEYS[2])
end
return false`}
)

// scriptSHA is the SHA1 of a script's source in hex, as EVALSHA names it.
func scriptSHA(src string) string { return fmt.Sprintf("%x", sha1.Sum([]byte(src))) }

// evalCached runs src on c as client libraries do and as Exec.EvalSHA does
// for the stories: EVALSHA with its SHA1 and, when the server answers
// NOSCRIPT (it has not cached the script), EVAL with the full source, which
// caches it. So a script's source crosses the wire once per server, not on
// every call. Nothing is flushed or loaded with SCRIPT.
func evalCached(ctx context.Context, c *redis.Client, src string, keys []string, argv ...any) *redis.Cmd {
	args := append([]any{"EVALSHA", scriptSHA(src), len(keys)}, toAny(keys)...)
	args = append(args, argv...)
	cmd := c.Do(ctx, args...)
	if err := cmd.Err(); err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
		return cmd
	}
	args[0], args[1] = "EVAL", src
	return c.Do(ctx, args...)
}
