package sim

import "time"

// ReleaseDelex is the release in one command of Redis 8.4: DELEX key IFEQ
// token. (integer) 1 deleted the actor's own lock; 0 did not, and says the
// same for a key another client holds and for no key at all (db.c
// delexCommand), where the script answers 0 and -1. Whatever the reply,
// the actor no longer believes it holds.
func (x *Exec) ReleaseDelex(lock, name string) Reply {
	r, _ := x.op(OpRelease, FormDelex, lock, name, func(key string) []any {
		return []any{"DELEX", key, "IFEQ", x.actor.Value}
	})
	x.actor.Holds = false
	return r
}

// ReleaseDelifeq is Valkey 9.0's release in one command, DELIFEQ key
// token, with ReleaseDelex's replies (t_string.c delifeqCommand).
func (x *Exec) ReleaseDelifeq(lock, name string) Reply {
	r, _ := x.op(OpRelease, FormDelifeq, lock, name, func(key string) []any {
		return []any{"DELIFEQ", key, x.actor.Value}
	})
	x.actor.Holds = false
	return r
}

// ExtendSetIfeq is the renewal in one command (Redis 8.4, Valkey 8.1): SET
// key token IFEQ token PX ttl. OK: the lease now ends ttl from now (the
// value is written again, the same token); nil: the key held another token
// or none, which the reply does not tell apart. It never creates a key;
// there is no PEXPIRE with a condition, so the renewal rewrites the value.
func (x *Exec) ExtendSetIfeq(lock, name, token string, ttl time.Duration) Reply {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	op := &Op{Kind: OpExtend, Form: FormSetIfeq, Lock: lock, Key: key, Token: token, TTL: ttl}
	args := []any{"SET", key, token, "IFEQ", token, "PX", x.TTL(ttl)}
	return x.send(x.conn(), LockNode, FormatCommand(args), args, op)
}

// ExtendSetIfeqGet is ExtendSetIfeq with GET (Redis 8.4, Valkey 8.1): SET
// key token IFEQ token GET PX ttl. The reply is the value the key held, nil
// for no key, whether or not the SET happened (t_string.c
// setGenericCommand): the token itself means renewed, another client's
// token means nothing was set though a value came back.
func (x *Exec) ExtendSetIfeqGet(lock, name, token string, ttl time.Duration) Reply {
	key := x.Key(name)
	if lock == "" {
		lock = name
	}
	op := &Op{Kind: OpExtend, Form: FormSetIfeqGet, Lock: lock, Key: key, Token: token, TTL: ttl}
	args := []any{"SET", key, token, "IFEQ", token, "GET", "PX", x.TTL(ttl)}
	return x.send(x.conn(), LockNode, FormatCommand(args), args, op)
}
