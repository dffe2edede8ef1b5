package class

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"locksim/sim"

	"github.com/redis/go-redis/v9"
)

// Redis is a Hub kept in a Redis or Valkey server, so that several
// locksim servers serve one class: a class's record is the string
// Prefix+code (SET NX EX, so two servers never open the same code), the
// class's leading place Prefix+code+":lead" (moved by a script that
// compares its version), the roster the hash
// Prefix+code+":members" (member id → row as JSON), the instructor's
// matches by hand the hash Prefix+code+":matches" (member id → the
// school roster's row), the classes whose instructor beats the sorted
// set Prefix+"led" (code scored by the instructor's last beat, in ms: the
// index Leading reads), and its events go
// by PUBLISH on the channel Prefix+code. Every key it writes is under
// Prefix and has a TTL, set again at each write; it never deletes a
// key it did not write, and sends no FLUSH, CONFIG or KEYS.
type Redis struct {
	c   *redis.Client
	now func() time.Time
	// Retention is how long a class's keys outlive its last change (0:
	// h.ttl()): set it before the first call.
	Retention time.Duration

	mu   sync.Mutex
	subs map[string]*subscription // class code → this server's subscription
}

// NewRedis connects to the server at rawURL (redis://[user:password@]host:port/db
// or rediss://) and checks that it answers PING. Its errors never
// contain the password.
func NewRedis(ctx context.Context, rawURL string, now func() time.Time) (*Redis, error) {
	if !strings.HasPrefix(rawURL, "redis://") && !strings.HasPrefix(rawURL, "rediss://") {
		return nil, fmt.Errorf("bad -class-redis URL %s: a Redis URL looks like redis://host:port/db or rediss://…", sim.Redact(rawURL))
	}
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("bad -class-redis URL %s: %s", sim.Redact(rawURL), scrub(err.Error(), opts))
	}
	opts.DisableIdentity = true
	opts.ContextTimeoutEnabled = true
	c := redis.NewClient(opts)
	if err := c.Ping(ctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("-class-redis %s: %s", sim.Redact(rawURL), scrub(err.Error(), opts))
	}
	if now == nil {
		now = time.Now
	}
	h := &Redis{c: c, now: now, subs: map[string]*subscription{}}
	if err := h.register(ctx); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("-class-redis %s: %s", sim.Redact(rawURL), scrub(err.Error(), opts))
	}
	return h, nil
}

// registrationKey makes the keys under Prefix locksim's for a sweep
// (sim.ClassRegistration): -cleanup reports them as the classroom's,
// never as keys locksim did not write.
var registrationKey, _ = sim.ClassRegistration("")

// register writes the classroom's registration if there is none, with
// the retention's TTL (every write of a class sets it again). One that
// holds what locksim does not write is left as it is: the sweep then
// says the class keys are not locksim's, which is the truth.
func (h *Redis) register(ctx context.Context) error {
	_, val := sim.ClassRegistration(sim.NewNonce())
	if err := h.c.SetNX(ctx, registrationKey, val, h.ttl()).Err(); err != nil {
		return fmt.Errorf("registering the classes: %w", err)
	}
	return nil
}

// scrub removes opts's password from s, in case a library echoed it.
func scrub(s string, opts *redis.Options) string {
	if opts != nil && opts.Password != "" {
		s = strings.ReplaceAll(s, opts.Password, "xxxxx")
	}
	return s
}

// ttl is how long a key outlives its last write.
func (h *Redis) ttl() time.Duration {
	if h.Retention > 0 {
		return h.Retention
	}
	return TTL
}

func classKey(code string) string   { return Prefix + code }
func leadKey(code string) string    { return Prefix + code + ":lead" }
func membersKey(code string) string { return Prefix + code + ":members" }
func beatsKey(code string) string   { return Prefix + code + ":beats" }
func matchesKey(code string) string { return Prefix + code + ":matches" }
func channel(code string) string    { return Prefix + code }

// leadsKey names the code of the class named name that lead leads.
func leadsKey(lead, name string) string {
	k := Prefix + "lead:" + safe(lead)
	if name != "" {
		k += ":" + safe(name)
	}
	return k
}

// Open is OpenNamed with no name.
func (h *Redis) Open(ctx context.Context, lead string) (Info, error) {
	return h.OpenNamed(ctx, lead, "")
}

// OpenNamed opens the class named name that lead leads, or a new one
// under a code no class has: SET NX claims it. The instructor's class of
// that name is found again by Prefix+"lead:"+id[+":"+name], which names
// its code.
func (h *Redis) OpenNamed(ctx context.Context, lead, name string) (Info, error) {
	leads := leadsKey(lead, name)
	code, err := h.c.Get(ctx, leads).Result()
	switch {
	case err == nil:
		if info, err := h.Find(ctx, code); err == nil && info.Lead == lead && info.Closed.IsZero() {
			h.c.Do(ctx, "PEXPIRE", leads, h.ttl().Milliseconds())
			return info, nil
		}
	case !errors.Is(err, redis.Nil):
		return Info{}, fmt.Errorf("opening a class: %w", err)
	}
	for range 100 {
		info := Info{Code: newCode(), Name: name, Lead: lead, Opened: h.now().UTC().Truncate(time.Second)}
		data, err := json.Marshal(info)
		if err != nil {
			return Info{}, err
		}
		if err := h.register(ctx); err != nil {
			return Info{}, err
		}
		ok, err := h.c.SetNX(ctx, classKey(info.Code), data, h.ttl()).Result()
		if err != nil {
			return Info{}, fmt.Errorf("opening a class: %w", err)
		}
		if ok {
			if err := h.c.Set(ctx, leads, info.Code, h.ttl()).Err(); err != nil {
				return Info{}, fmt.Errorf("opening a class: %w", err)
			}
			return info, nil
		}
	}
	return Info{}, fmt.Errorf("no free class code after 100 draws")
}

// FindNamed is the open class named name that lead leads, by the key
// OpenNamed keeps its code in, or ErrNoClass; it writes nothing.
func (h *Redis) FindNamed(ctx context.Context, lead, name string) (Info, error) {
	code, err := h.c.Get(ctx, leadsKey(lead, name)).Result()
	if errors.Is(err, redis.Nil) {
		return Info{}, ErrNoClass
	}
	if err != nil {
		return Info{}, fmt.Errorf("finding a class: %w", err)
	}
	info, err := h.Find(ctx, code)
	if err != nil {
		return Info{}, err
	}
	if info.Lead != lead || !info.Closed.IsZero() {
		return Info{}, ErrNoClass
	}
	return info, nil
}

// CloseClass marks class code closed (its record keeps its TTL), and
// lets go of its name, so the next Open of it opens a new class.
func (h *Redis) CloseClass(ctx context.Context, code string) error {
	info, err := h.Find(ctx, code)
	if err != nil {
		return err
	}
	if info.Closed.IsZero() {
		info.Closed = h.now().UTC().Truncate(time.Second)
	}
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	leads := leadsKey(info.Lead, info.Name)
	_, err = h.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, classKey(code), data, h.ttl())
		// the name's index goes only if it still names this class
		p.Do(ctx, "EVAL", `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1, leads, code)
		p.Do(ctx, "ZREM", ledKey, code) // a closed class is led no more
		return nil
	})
	if err != nil {
		return fmt.Errorf("closing class %s: %w", code, err)
	}
	return nil
}

// ClearRoster deletes class code's roster and beats.
func (h *Redis) ClearRoster(ctx context.Context, code string) error {
	if _, err := h.Find(ctx, code); err != nil {
		return err
	}
	if err := h.c.Del(ctx, membersKey(code), beatsKey(code), matchesKey(code)).Err(); err != nil {
		return fmt.Errorf("clearing class %s: %w", code, err)
	}
	return nil
}

// Find is the class with code.
func (h *Redis) Find(ctx context.Context, code string) (Info, error) {
	if !ValidCode(code) {
		return Info{}, ErrNoClass // never a key built from a stranger's text
	}
	data, err := h.c.Get(ctx, classKey(code)).Bytes()
	if errors.Is(err, redis.Nil) {
		return Info{}, ErrNoClass
	}
	if err != nil {
		return Info{}, fmt.Errorf("finding class %s: %w", code, err)
	}
	var info Info
	if err := json.Unmarshal(data, &info); err != nil {
		return Info{}, fmt.Errorf("class %s: %w", code, err)
	}
	return info, nil
}

// publish writes key (with field, for the roster's hash) and the class's
// TTLs, and tells the watchers, in one MULTI/EXEC: a watcher that reads
// the key on the event finds what it says.
func (h *Redis) publish(ctx context.Context, code string, e Event, write func(p redis.Pipeliner, data []byte)) error {
	if !ValidCode(code) {
		return ErrNoClass
	}
	var row any = e.Lead
	if e.Kind == KindMember {
		row = e.Member
	}
	data, err := json.Marshal(row)
	if err != nil {
		return err
	}
	msg, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = h.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		write(p, data)
		p.Do(ctx, "PEXPIRE", classKey(code), h.ttl().Milliseconds())
		p.Do(ctx, "PEXPIRE", registrationKey, h.ttl().Milliseconds())
		p.Do(ctx, "PUBLISH", channel(code), msg)
		return nil
	})
	if err != nil {
		return fmt.Errorf("class %s: %w", code, err)
	}
	return nil
}

// Put records m's row and tells the watchers.
func (h *Redis) Put(ctx context.Context, code string, m Member) error {
	m.Row = "" // the class's matches keep it (Match)
	return h.publish(ctx, code, Event{Kind: KindMember, Member: &m}, func(p redis.Pipeliner, data []byte) {
		p.Do(ctx, "HSET", membersKey(code), m.ID, data)
		p.Do(ctx, "PEXPIRE", membersKey(code), h.ttl().Milliseconds())
	})
}

// swapLead is SwapLead's compare-and-set, in one script so no move
// slips between the read and the write: KEYS[1] the place, KEYS[2] the
// class's record; ARGV the version the move was made from, the new
// place, the TTL in seconds, the channel and the event. It answers
// {1, new place} or {0, the place there}.
//
// It is sent whole with EVAL by Do: redis.Script's EVALSHA, and go-redis's
// typed script methods, link a wrapper for every client type (about
// 10 KB of binary) to save a few hundred bytes a move.
const swapLead = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local v = tonumber(cjson.decode(cur)['version'] or 0)
  if v ~= tonumber(ARGV[1]) then return {0, cur} end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return {1, ARGV[2]}
`

// SwapLead puts l if the place there is of version prev (or there is
// none), and tells the watchers, in one script (swapLead).
func (h *Redis) SwapLead(ctx context.Context, code string, prev int64, l Lead) (Lead, bool, error) {
	if !ValidCode(code) {
		return Lead{}, false, ErrNoClass
	}
	l.Version, l.Seq = prev+1, prev+1
	data, err := json.Marshal(l)
	if err != nil {
		return Lead{}, false, err
	}
	msg, err := json.Marshal(Event{Kind: KindLead, Lead: &l})
	if err != nil {
		return Lead{}, false, err
	}
	res, err := h.c.Do(ctx, "EVAL", swapLead, 2, leadKey(code), classKey(code),
		prev, data, int64(h.ttl()/time.Second), channel(code), msg).Slice()
	if err != nil {
		return Lead{}, false, fmt.Errorf("class %s: %w", code, err)
	}
	if len(res) != 2 {
		return Lead{}, false, fmt.Errorf("class %s: the place's script answered %v", code, res)
	}
	won, _ := res[0].(int64)
	cur, _ := res[1].(string)
	var out Lead
	if err := json.Unmarshal([]byte(cur), &out); err != nil {
		return Lead{}, false, fmt.Errorf("class %s: %w", code, err)
	}
	return out, won == 1, nil
}

// Roster is every row, by name (HGETALL of the roster's hash).
func (h *Redis) Roster(ctx context.Context, code string) ([]Member, error) {
	if _, err := h.Find(ctx, code); err != nil {
		return nil, err
	}
	var rowsCmd, beatsCmd, matchesCmd *redis.MapStringStringCmd
	_, err := h.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		rowsCmd = p.HGetAll(ctx, membersKey(code))
		beatsCmd = p.HGetAll(ctx, beatsKey(code))
		matchesCmd = p.HGetAll(ctx, matchesKey(code))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("class %s: %w", code, err)
	}
	rows, beats := rowsCmd.Val(), map[string]time.Time{}
	for f, ms := range beatsCmd.Val() {
		if n, err := strconv.ParseInt(ms, 10, 64); err == nil {
			beats[f] = time.UnixMilli(n)
		}
	}
	var out []Member
	for _, data := range rows {
		var m Member
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			continue // a row a later locksim wrote: left out
		}
		migrate(&m) // a row an older locksim wrote
		out = append(out, m)
	}
	withBeats(out, beats, h.now())
	withMatches(out, matchesCmd.Val())
	sortRoster(out)
	return out, nil
}

// Match keeps member id's match by hand in the hash
// Prefix+code+":matches" and tells the watchers, in one MULTI/EXEC.
func (h *Redis) Match(ctx context.Context, code, id, ref string) error {
	if _, err := h.Find(ctx, code); err != nil {
		return err // a class that is gone gets no key of its own again
	}
	msg, err := json.Marshal(Event{Kind: KindMatch, Match: &Matched{ID: id, Ref: ref}})
	if err != nil {
		return err
	}
	_, err = h.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if ref == "" {
			p.Do(ctx, "HDEL", matchesKey(code), id)
		} else {
			p.Do(ctx, "HSET", matchesKey(code), id, ref)
		}
		p.Do(ctx, "PEXPIRE", matchesKey(code), h.ttl().Milliseconds())
		p.Do(ctx, "PEXPIRE", classKey(code), h.ttl().Milliseconds())
		p.Do(ctx, "PEXPIRE", registrationKey, h.ttl().Milliseconds())
		p.Do(ctx, "PUBLISH", channel(code), msg)
		return nil
	})
	if err != nil {
		return fmt.Errorf("class %s: %w", code, err)
	}
	return nil
}

// Beat keeps member id's last beat, in ms since the epoch, in the hash
// Prefix+code+":beats"; nothing is published: the roster reads the beats.
func (h *Redis) Beat(ctx context.Context, code, id string, role Role, at time.Time) error {
	if !ValidCode(code) {
		return ErrNoClass
	}
	_, err := h.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if at.IsZero() {
			p.Do(ctx, "HDEL", beatsKey(code), beatField(id, role))
		} else {
			p.Do(ctx, "HSET", beatsKey(code), beatField(id, role), at.UnixMilli())
		}
		p.Do(ctx, "PEXPIRE", beatsKey(code), h.ttl().Milliseconds())
		if role == Instructor && !at.IsZero() {
			// the index Leading reads: this class, and no class whose
			// instructor's beat is Gone old. A session that leaves takes
			// nothing from it (as Memory.Beat)
			p.Do(ctx, "ZADD", ledKey, at.UnixMilli(), code) // (by Do: see Leading)
			p.Do(ctx, "ZREMRANGEBYSCORE", ledKey, "-inf", "("+strconv.FormatInt(at.Add(-Gone).UnixMilli(), 10))
			p.Do(ctx, "PEXPIRE", ledKey, h.ttl().Milliseconds())
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("class %s: %w", code, err)
	}
	return nil
}

// LastBeat is member id's last beat.
func (h *Redis) LastBeat(ctx context.Context, code, id string, role Role) (time.Time, error) {
	if !ValidCode(code) {
		return time.Time{}, ErrNoClass
	}
	n, err := h.c.HGet(ctx, beatsKey(code), beatField(id, role)).Int64()
	if errors.Is(err, redis.Nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("class %s: %w", code, err)
	}
	return time.UnixMilli(n), nil
}

// LeadOf is the instructor's place.
func (h *Redis) LeadOf(ctx context.Context, code string) (Lead, bool, error) {
	if !ValidCode(code) {
		return Lead{}, false, ErrNoClass
	}
	data, err := h.c.Get(ctx, leadKey(code)).Bytes()
	if errors.Is(err, redis.Nil) {
		return Lead{}, false, nil
	}
	if err != nil {
		return Lead{}, false, fmt.Errorf("class %s: %w", code, err)
	}
	var l Lead
	if err := json.Unmarshal(data, &l); err != nil {
		return Lead{}, false, fmt.Errorf("class %s: %w", code, err)
	}
	return l, true, nil
}

// Watch subscribes to the class's channel and, once the server has
// confirmed it, reads the instructor's place, so nothing said after the
// call is missed. The sessions of one class on this server share one
// subscription (one connection), however many they are.
func (h *Redis) Watch(ctx context.Context, code string) (*Watch, error) {
	if _, err := h.Find(ctx, code); err != nil {
		return nil, err
	}
	ch, err := h.channel(ctx, code)
	if err != nil {
		return nil, err
	}
	var w *Watch
	w = newWatch(func() { h.unwatch(code, ch, w) })
	ch.mu.Lock()
	ch.watchers[w] = struct{}{}
	ch.mu.Unlock()
	if l, ok, err := h.LeadOf(ctx, code); err != nil {
		w.Close()
		return nil, err
	} else if ok {
		w.put(Event{Kind: KindLead, Lead: &l})
	}
	go func() {
		select {
		case <-ctx.Done():
			w.Close()
		case <-w.done:
		}
	}()
	return w, nil
}

// subscription is this server's one subscription to a class's channel,
// and the watches its messages go to.
type subscription struct {
	ps       *redis.PubSub
	mu       sync.Mutex
	watchers map[*Watch]struct{}
	users    int // watches that hold it, counted under Redis.mu
}

// channel is the class's subscription, subscribed (and confirmed by the
// server) by its first watch.
func (h *Redis) channel(ctx context.Context, code string) (*subscription, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ch, ok := h.subs[code]; ok {
		ch.users++
		return ch, nil
	}
	ps := h.c.Subscribe(ctx, channel(code))
	if _, err := ps.Receive(ctx); err != nil {
		_ = ps.Close()
		return nil, fmt.Errorf("class %s: subscribing: %w", code, err)
	}
	ch := &subscription{ps: ps, watchers: map[*Watch]struct{}{}, users: 1}
	h.subs[code] = ch
	msgs := ps.ChannelWithSubscriptions()
	go func() {
		// a message that does not read is dropped; one failure here ends
		// the subscription, never the server
		defer func() { _ = recover() }()
		for m := range msgs {
			var e Event
			switch m := m.(type) {
			case *redis.Subscription:
				// go-redis subscribed again after losing the connection
				// (the store went away): what was published meanwhile is
				// lost, so the place is read again, as Watch does
				if m.Kind != "subscribe" {
					continue
				}
				rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				l, ok, err := h.LeadOf(rctx, code)
				cancel()
				if err != nil || !ok {
					continue
				}
				e = Event{Kind: KindLead, Lead: &l}
			case *redis.Message:
				if json.Unmarshal([]byte(m.Payload), &e) != nil || (e.Lead == nil && e.Member == nil && e.Match == nil) {
					continue
				}
			default:
				continue
			}
			ch.mu.Lock()
			for w := range ch.watchers {
				w.put(e)
			}
			ch.mu.Unlock()
		}
	}()
	return ch, nil
}

// unwatch takes w off the class's subscription, which ends with its last watch.
func (h *Redis) unwatch(code string, ch *subscription, w *Watch) {
	ch.mu.Lock()
	delete(ch.watchers, w)
	ch.mu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	ch.users--
	if ch.users == 0 {
		delete(h.subs, code)
		_ = ch.ps.Close()
	}
}

// Close releases the hub's connections, its subscriptions' too.
func (h *Redis) Close() error {
	h.mu.Lock()
	for code, ch := range h.subs {
		_ = ch.ps.Close()
		delete(h.subs, code)
	}
	h.mu.Unlock()
	return h.c.Close()
}

// safe is id with every byte outside [0-9a-zA-Z-] replaced by "_", for a
// key name: an id is a key's hash, but a key name is never built from
// text the server did not make.
func safe(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}
