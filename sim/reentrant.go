package sim

import (
	"strings"
	"time"
)

// FormReentrant is the hash lock's form: the key is a hash whose one field
// is the holder id and whose value is the hold count. Its acquire answers
// the count ((integer) 1 for a fresh grant, more for the same holder
// entering again) or (nil) when another holder has it; its release answers
// the count left ((integer) 0: the key was deleted) or an error reply when
// the caller does not hold the lock.
const FormReentrant = "reentrant"

// The error replies of the hash lock's release, which a client raises on
// (Redisson's unlock throws IllegalMonitorStateException): NOTHELD when
// the hash is another holder's, NOLOCK when there is no such key.
const (
	ErrNotHeld = "NOTHELD"
	ErrNoLock  = "NOLOCK"
)

// The reentrant lock's scripts, after Redisson's RLock. Both run
// atomically, so the check of the holder and the change of the count are
// one step.
var (
	// ReentrantAcquireLua enters KEYS[1] as holder ARGV[1] with a lease of
	// ARGV[2] ms: if the key is absent or already this holder's, the count
	// goes up by one and the TTL restarts; the reply is the new count.
	// Another holder's key answers (nil).
	ReentrantAcquireLua = Lua{Name: "reentrant-acquire", Src: `if redis.call("EXISTS", KEYS[1]) == 0 or redis.call("HEXISTS", KEYS[1], ARGV[1]) == 1 then
  local n = redis.call("HINCRBY", KEYS[1], ARGV[1], 1)
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  return n
end
return false`}

	// ReentrantReleaseLua leaves KEYS[1] once as holder ARGV[1]: the count
	// goes down by one; above zero the TTL restarts at ARGV[2] ms and the
	// reply is the count left, at zero the key is deleted and the reply is
	// 0. A caller that is not a field of the hash gets an error reply.
	ReentrantReleaseLua = Lua{Name: "reentrant-release", Src: `if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
  if redis.call("EXISTS", KEYS[1]) == 1 then
    return redis.error_reply("NOTHELD not the holder")
  end
  return redis.error_reply("NOLOCK no such lock")
end
local n = redis.call("HINCRBY", KEYS[1], ARGV[1], -1)
if n > 0 then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
  return n
end
redis.call("DEL", KEYS[1])
return 0`}
)

// holderID is the actor's id in a hash lock: one per client for the whole
// run (its first token), as a library builds it from its client id and
// the thread's id; here each client runs one thread. Entering again, and
// releasing, send the same id.
func (x *Exec) holderID() string {
	a := x.actor
	if a.acquired == 0 {
		x.r.mint(a)
	}
	return a.Token
}

// AcquireReentrant runs the hash lock's acquire on the key name for lock
// ("" means the lock is the key) with a lease of ttl: a count of 1 or more
// makes the actor a holder; (nil) means another holder has the lock.
func (x *Exec) AcquireReentrant(lock, name string, ttl time.Duration) Reply {
	a := x.actor
	r, op := x.hashLock(OpAcquire, ReentrantAcquireLua, lock, name, ttl)
	if n, ok := r.Int(); ok && n > 0 {
		a.Holds, a.Lock, a.Value = true, op.Lock, op.Token
	} else if r.Nil() {
		a.Holds = false
	}
	return r
}

// ReleaseReentrant runs the hash lock's release as the actor's holder id
// (whether or not it ever acquired), restarting the TTL at ttl while the
// count stays above zero. The actor stops believing it holds the lock when
// the count reaches zero or the script refuses it.
func (x *Exec) ReleaseReentrant(lock, name string, ttl time.Duration) Reply {
	r, _ := x.hashLock(OpRelease, ReentrantReleaseLua, lock, name, ttl)
	if n, ok := r.Int(); !ok || n == 0 {
		x.actor.Holds = false
	}
	return r
}

// hashLock runs one of the hash lock's scripts as the actor's holder id,
// tagged as the lock operation kind.
func (x *Exec) hashLock(kind OpKind, s Lua, lock, name string, ttl time.Duration) (Reply, *Op) {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	id := x.holderID()
	op := &Op{Kind: kind, Form: FormReentrant, Lock: lock, Key: key, Token: id, TTL: ttl, NX: kind == OpAcquire}
	return x.eval(LockNode, s, []string{key}, []any{id, x.TTL(ttl)}, op), op
}

// ReleaseRefusal names the hash lock's refusal of a release in an error reply:
// ErrNotHeld (the hash is another holder's), ErrNoLock (no such key), or
// "" for any other reply.
func ReleaseRefusal(err error) string {
	if err == nil {
		return ""
	}
	for _, code := range []string{ErrNotHeld, ErrNoLock} {
		if strings.HasPrefix(err.Error(), code+" ") {
			return code
		}
	}
	return ""
}
