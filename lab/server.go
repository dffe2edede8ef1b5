package lab

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	"github.com/redis/go-redis/v9"

	"locksim/sim"
)

// ErrorReply is an error reply from the server or a script, as redis-cli
// prints it after "(error) ". It satisfies go-redis's redis.Error, so the
// ledger and sim.FormatReply read it as they read a real one.
type ErrorReply string

func (e ErrorReply) Error() string { return string(e) }

// RedisError marks it as a reply from the server, not a failure to reach it.
func (ErrorReply) RedisError() {}

// errLost is the error a client sees when its reply was lost: the command
// ran, the client cannot know. It is not a redis.Error, so the ledger
// reads it as an unknown outcome.
var errLost = errors.New("i/o timeout: the reply was lost")

// Server is the adversary's embedded server: a miniredis whose commands it
// sends through the server's own dispatcher (no socket, no client
// library), on a virtual clock, with its keys saved and restored through
// miniredis's direct API. Not safe for concurrent use.
type Server struct {
	mr   *miniredis.Miniredis
	srv  *server.Server
	peer *server.Peer
	buf  bytes.Buffer
	wr   *bufio.Writer
	rd   *bufio.Reader
	now  time.Duration // virtual time since sim.Epoch
	// lastStatus is set when the last reply was a status (+OK), which Do
	// returns as a string like a bulk string, as go-redis does
	lastStatus bool
}

// NewServer starts the adversary's server at virtual time 0. Close it.
func NewServer() (*Server, error) {
	mr := miniredis.NewMiniRedis()
	// miniredis registers its commands when it starts; the adversary
	// never connects to it, so it listens on no port: Dial starts it
	// without a listener (as sim's embedded server does), and the pipe it
	// opens is not needed
	c, err := mr.Dial()
	if err != nil {
		return nil, fmt.Errorf("cannot start the embedded server: %w", err)
	}
	_ = c.Close()
	mr.SetTime(sim.Epoch())
	mr.ClockTTL(true)
	return serverOn(mr), nil
}

// serverOn sends commands to mr, a server started elsewhere (a story's),
// on a connection of its own; its clock is mr's, left as it is.
func serverOn(mr *miniredis.Miniredis) *Server {
	s := &Server{mr: mr, srv: mr.Server()}
	s.wr = bufio.NewWriter(&s.buf)
	s.peer = server.NewPeer(s.wr)
	s.rd = bufio.NewReader(&s.buf)
	return s
}

// Close stops the server.
func (s *Server) Close() { s.mr.Close() }

// Do runs one command and returns its reply typed as go-redis returns it
// over RESP2: int64, string (a status or a bulk string), []any, the error
// redis.Nil for nil, an ErrorReply for an error.
func (s *Server) Do(args ...string) (any, error) {
	if len(args) == 0 {
		return nil, ErrorReply("ERR empty command")
	}
	s.buf.Reset()
	s.srv.Dispatch(s.peer, args)
	_ = s.wr.Flush()
	s.rd.Reset(&s.buf)
	v, err := server.ParseReply(s.rd)
	_, s.lastStatus = v.(server.Simple)
	if err != nil {
		return nil, ErrorReply(err.Error())
	}
	return fromRESP(v), nilErr(v)
}

func nilErr(v any) error {
	if v == nil {
		return redis.Nil
	}
	return nil
}

func fromRESP(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int:
		return int64(x)
	case server.Simple:
		return string(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if e == nil {
				out[i] = nil // a nil inside an array stays nil, as go-redis gives it
				continue
			}
			out[i] = fromRESP(e)
		}
		return out
	}
	return v
}

// Now is the server's virtual time.
func (s *Server) Now() time.Duration { return s.now }

// Advance moves the server's clock forward by d. Redis 7 keeps a key
// through the millisecond its TTL ends; miniredis removes it once the TTL
// reaches 0: so, as sim's embedded backend does, every TTL that is a whole
// number of milliseconds gets 1 ns more before the clock moves.
func (s *Server) Advance(d time.Duration) {
	db := s.mr.DB(0)
	for _, k := range db.Keys() {
		if ttl := db.TTL(k); ttl > 0 && ttl%time.Millisecond == 0 {
			db.SetTTL(k, ttl+time.Nanosecond)
		}
	}
	s.now += d
	s.mr.SetTime(sim.Epoch().Add(s.now))
}

// Flush loses every key: a restart without persistence.
func (s *Server) Flush() { s.mr.FlushAll() }

// State is the server's keys and clock, saved by Save for Restore.
type State struct {
	now  time.Duration
	keys []savedKey
}

type savedKey struct {
	name, typ string
	ttl       time.Duration
	str       string
	list      []string
	hash      map[string]string
	zset      map[string]float64
}

// key is st as one string, equal for equal states: the clock, and every
// key with its type, TTL and contents (a hash's fields and a sorted set's
// members in order).
func (st State) key() string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(int64(st.now), 10))
	field := func(s string) {
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	for _, k := range st.keys {
		b.WriteByte(1)
		field(k.name)
		field(k.typ)
		field(strconv.FormatInt(int64(k.ttl), 10))
		field(k.str)
		field(strconv.Itoa(len(k.list)))
		for _, e := range k.list {
			field(e)
		}
		field(strconv.Itoa(len(k.hash)))
		for _, f := range slices.Sorted(maps.Keys(k.hash)) {
			field(f)
			field(k.hash[f])
		}
		field(strconv.Itoa(len(k.zset)))
		for _, m := range slices.Sorted(maps.Keys(k.zset)) {
			field(m)
			field(strconv.FormatFloat(k.zset[m], 'g', -1, 64))
		}
	}
	return b.String()
}

// maxData is the most the server's keys may hold, names and values, in
// bytes: a lock keeps a few short strings. A search saves the server at
// every branch and holds a copy for each move of the path it is on, so
// this is what bounds the search's own memory against a lock that fills
// the server.
const maxData = 1 << 20

// Save records every key (strings, hashes, lists, sets, sorted sets) with
// its TTL, and the clock. It fails on a type it cannot record, and with a
// *ScriptError (OverBudget) when the keys hold more than maxData bytes.
func (s *Server) Save() (State, error) {
	st, err := s.save()
	if err != nil {
		return st, err
	}
	size := 0
	for _, k := range st.keys {
		size += len(k.name) + len(k.str)
		for _, e := range k.list {
			size += len(e)
		}
		for f, v := range k.hash {
			size += len(f) + len(v)
		}
		for e := range k.zset {
			size += len(e) + 8
		}
	}
	if size > maxData {
		return State{}, &ScriptError{File: "the server", OverBudget: true,
			Msg: fmt.Sprintf("stopped: the lock's keys hold more than %d kB", maxData>>10)}
	}
	return st, nil
}

func (s *Server) save() (State, error) {
	st := State{now: s.now}
	// the lab's one database, taken once (each of its calls takes the
	// server's lock once)
	m := s.mr.DB(0)
	for _, k := range m.Keys() { // DB brought every TTL up to the clock
		sk := savedKey{name: k, typ: m.Type(k), ttl: m.TTL(k)}
		var err error
		switch sk.typ {
		case "string":
			sk.str, err = m.Get(k)
		case "list":
			sk.list, err = m.List(k)
		case "set":
			sk.list, err = m.Members(k)
		case "hash":
			var fields []string
			fields, err = m.HKeys(k)
			sk.hash = map[string]string{}
			for _, f := range fields {
				sk.hash[f] = m.HGet(k, f)
			}
		case "zset":
			sk.zset, err = m.SortedSet(k)
		default:
			err = fmt.Errorf("the lab saves strings, lists, sets, hashes and sorted sets, not a %s", sk.typ)
		}
		if err != nil {
			return st, fmt.Errorf("key %s: %w", k, err)
		}
		st.keys = append(st.keys, sk)
	}
	return st, nil
}

// Restore puts back the keys and clock Save recorded; the clock may only
// go back (a search restores its ancestors).
func (s *Server) Restore(st State) {
	s.now = st.now
	s.mr.SetTime(sim.Epoch().Add(st.now))
	// the lab's one database (scripts and commands may not select
	// another), taken after the clock is set (taking it moves the TTLs to
	// the clock): its few keys deleted cost less than FlushAll's new maps
	m := s.mr.DB(0)
	for _, k := range m.Keys() {
		m.Del(k)
	}
	for _, k := range st.keys {
		switch k.typ {
		case "string":
			_ = m.Set(k.name, k.str)
		case "list":
			_, _ = m.Push(k.name, k.list...)
		case "set":
			_, _ = m.SetAdd(k.name, k.list...)
		case "hash":
			for f, v := range k.hash {
				m.HSet(k.name, f, v)
			}
		case "zset":
			for mem, sc := range k.zset {
				_, _ = m.ZAdd(k.name, sc, mem)
			}
		}
		if k.ttl > 0 {
			m.SetTTL(k.name, k.ttl)
		}
	}
}

// value is key's value as one string, for telling whether a command
// changed it and who wrote it: a string as it is; a hash, a sorted set, a
// set or a list as its type and its fields, members or elements in a set
// order (a reentrant lock keeps its holder's token as a hash field, a
// lock with a queue as a sorted set's member). "" for a missing key.
func (s *Server) value(key string) string {
	return valueIn(s.mr.DB(0), key)
}

// valueIn is value read from db, the lab's one database: each of its
// calls takes the server's lock once, where the server's own (m.Get) take
// it twice and move its clock.
func valueIn(db *miniredis.RedisDB, key string) string {
	var parts []string
	typ := db.Type(key)
	switch typ {
	case "":
		return ""
	case "string":
		v, _ := db.Get(key)
		return v
	case "hash":
		fields, _ := db.HKeys(key)
		slices.Sort(fields)
		for _, f := range fields {
			parts = append(parts, f+"="+db.HGet(key, f))
		}
	case "zset":
		set, _ := db.SortedSet(key)
		for mem, sc := range set {
			parts = append(parts, fmt.Sprintf("%s=%g", mem, sc))
		}
		slices.Sort(parts)
	case "set":
		parts, _ = db.Members(key)
		slices.Sort(parts)
	case "list":
		parts, _ = db.List(key)
	default:
		return typ
	}
	// the type keeps a hash {a=1} apart from the string "a=1"
	return typ + "\x00" + strings.Join(parts, "\x00")
}

// formatArgs is a command as the log shows it.
func formatArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \"\n") {
			a = fmt.Sprintf("%q", a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
