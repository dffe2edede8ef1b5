package sim

import (
	"time"
)

// A job queue that leases instead of locking (EchoMQ's claim): a worker
// claims the oldest pending job in one script, which moves it into the
// active set scored by its lease's deadline on the server's own clock. The
// job's attempts count rises with every claim and is the fencing token: a
// completion carrying an older count is refused. A reaper returns every
// job whose deadline has passed to the pending set.
//
// The lock operations, for the ledger:
const (
	// FormClaim (OpAcquire): the claim script. Its reply is the job's id,
	// payload and attempts, or (empty array) when nothing is pending. The
	// lock is "job <id>" (JobLock), the lease is the id's member in the
	// active set, the fencing token its attempts.
	FormClaim = "claim"
	// FormReap (OpRelease): the reap script. Its reply lists the ids it
	// moved back to pending: their holders' leases are over.
	FormReap = "reap"
	// FormComplete (OpRelease): the completion script, with the id and the
	// attempts the worker was granted: (integer) 1 done, 0 the job's
	// attempts has moved on (claimed again since), -1 the job is no longer
	// active (reaped and not claimed again).
	FormComplete = "complete"
)

// Queue names a job queue's keys before the run's prefix: Queue("emq:{q}:")
// has emq:{q}:pending, emq:{q}:active and a hash emq:{q}:job:<id> per job.
type Queue string

// Pending is the sorted set of waiting ids, scored by their place in line.
func (q Queue) Pending() string { return string(q) + "pending" }

// Active is the sorted set of claimed ids, scored by their lease's deadline
// in ms of the server's clock.
func (q Queue) Active() string { return string(q) + "active" }

// Job is the hash of one job: payload, queued (its place in line),
// attempts, state.
func (q Queue) Job(id string) string { return string(q) + "job:" + id }

// JobLock is the lock a claim of job id takes, as the ledger names it.
func JobLock(id string) string { return "job " + id }

var (
	// EnqueueLua adds a job: its hash (payload, place in line, attempts 0,
	// state pending) and its id in the pending set scored by its place in
	// line. KEYS pending, the job's hash; ARGV id, payload, place, safety
	// expiry in ms (the queue is locksim's: it must not outlive a killed
	// run). Returns 1.
	EnqueueLua = Lua{Name: "enqueue", Src: `redis.call('HSET', KEYS[2], 'payload', ARGV[2], 'queued', ARGV[3], 'attempts', 0, 'state', 'pending')
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`}

	// ClaimLua is EchoMQ's claim (jobs.ex, @claim): pop the oldest pending
	// id, count the attempt, mark it active and lease it into the active set
	// scored now + lease ms, now read from the server's clock inside the
	// script. KEYS pending, active; ARGV the job hash prefix, lease ms, and
	// locksim's safety expiry for the active set. Returns id, payload,
	// attempts, or an empty array when nothing is pending.
	ClaimLua = Lua{Name: "claim", Src: `local popped = redis.call('ZPOPMIN', KEYS[1])
if #popped == 0 then return {} end
local id = popped[1]
local jk = ARGV[1] .. id
local att = redis.call('HINCRBY', jk, 'attempts', 1)
redis.call('HSET', jk, 'state', 'active')
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), id)
redis.call('PEXPIRE', KEYS[2], ARGV[3]) -- locksim's safety expiry, not the lesson
return {id, redis.call('HGET', jk, 'payload'), att}`}

	// ReapLua returns every active id whose deadline is below the server's
	// now to the pending set, at its old place in line. KEYS active,
	// pending; ARGV the job hash prefix and locksim's safety expiry.
	// Returns the ids it moved.
	ReapLua = Lua{Name: "reap", Src: `local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. now)
for _, id in ipairs(ids) do
  local jk = ARGV[1] .. id
  redis.call('ZREM', KEYS[1], id)
  redis.call('HSET', jk, 'state', 'pending')
  redis.call('ZADD', KEYS[2], redis.call('HGET', jk, 'queued'), id)
  redis.call('PEXPIRE', KEYS[2], ARGV[2]) -- locksim's safety expiry
end
return ids`}

	// CompleteLua finishes a job only for the claim that holds it: the
	// attempts the worker was granted must still be the job's, and the id
	// must still be active. KEYS active, the job's hash; ARGV id, attempts.
	// Returns 1 done, 0 the attempts moved on, -1 not active.
	CompleteLua = Lua{Name: "complete", Src: `if redis.call('HGET', KEYS[2], 'attempts') ~= ARGV[2] then return 0 end
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return -1 end
redis.call('HSET', KEYS[2], 'state', 'done')
return 1`}
)

// Claimed is a claim's reply read: the job's id, payload and attempts; ok
// is false for anything else (an empty array: nothing was pending).
func Claimed(val any, err error) (id, payload string, attempts int64, ok bool) {
	arr, isArr := val.([]any)
	if err != nil || !isArr || len(arr) != 3 {
		return "", "", 0, false
	}
	id, ok1 := arr[0].(string)
	payload, _ = arr[1].(string)
	attempts, ok2 := arr[2].(int64)
	return id, payload, attempts, ok1 && ok2
}

// Enqueue adds job id with its payload at place in line (a setup step).
func (x *Exec) Enqueue(q Queue, id, payload string, place int) Reply {
	return x.Eval(EnqueueLua, []string{x.Key(q.Pending()), x.Key(q.Job(id))}, id, payload, place, x.TTL(SafetyTTL))
}

// Claim runs the claim script as client libraries do (EVALSHA, then EVAL on
// NOSCRIPT) with a lease of lease story time, sent scaled. A reply with a
// job makes the actor its holder, with the attempts as its fencing token.
func (x *Exec) Claim(q Queue, lease time.Duration) Reply {
	active := x.Key(q.Active())
	op := &Op{Kind: OpAcquire, Form: FormClaim, Key: active, TTL: lease, NX: true}
	prefix := x.r.b.Key(q.Job(""))
	r := x.evalSHA(LockNode, ClaimLua, []string{x.Key(q.Pending()), active}, []any{prefix, x.TTL(lease), x.TTL(SafetyTTL)}, op)
	a := x.actor
	if id, _, att, ok := Claimed(r.Val, r.Err); ok {
		x.Key(q.Job(id))
		a.Holds, a.Lock, a.Value, a.Fence = true, JobLock(id), id, att
	}
	return r
}

// Reap runs the reap script: every active id past its deadline on the
// server's clock goes back to pending.
func (x *Exec) Reap(q Queue) Reply {
	active := x.Key(q.Active())
	op := &Op{Kind: OpRelease, Form: FormReap, Key: active}
	return x.eval(LockNode, ReapLua, []string{active, x.Key(q.Pending())}, []any{x.r.b.Key(q.Job("")), x.TTL(SafetyTTL)}, op)
}

// Complete sends the completion of the job the actor claimed last, with
// the attempts it was granted. Whatever the reply, the actor is done with
// the job.
func (x *Exec) Complete(q Queue) Reply {
	a := x.actor
	id := a.Value
	active := x.Key(q.Active())
	op := &Op{Kind: OpRelease, Form: FormComplete, Lock: JobLock(id), Key: active, Token: id, Fence: a.Fence}
	r := x.eval(LockNode, CompleteLua, []string{active, x.Key(q.Job(id))}, []any{id, a.Fence}, op)
	a.Holds = false
	return r
}
