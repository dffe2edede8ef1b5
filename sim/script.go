package sim

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
