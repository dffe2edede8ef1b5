package sim

// Lua is a script sent with EVAL; Name is how the log shows it.
type Lua struct {
	Name string
	Src  string
}

// The scripts of the single-instance lock, after the "Distributed Locks with
// Redis" pattern page. Each runs atomically on the server.
var (
	// ReleaseLua deletes KEYS[1] only if it holds ARGV[1] (the token):
	// (integer) 1 when it deleted, (integer) 0 otherwise.
	ReleaseLua = Lua{Name: "release", Src: `if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
else
  return 0
end`}

	// ExtendLua sets KEYS[1]'s TTL to ARGV[2] ms only if it holds ARGV[1]:
	// (integer) 1 when extended, (integer) 0 when the caller is not the holder
	// or the key is gone (a renewal never recreates a lock).
	ExtendLua = Lua{Name: "extend", Src: `if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
else
  return 0
end`}
)
