package sim

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeyState is a key as the server reports it: TYPE, its value (GET; for a
// hash its fields, HGETALL, sorted by field; for a sorted set its members
// with their scores, ZRANGE 0 -1 WITHSCORES, lowest score first) and PTTL
// in ms (-1 no expiry, -2 no such key).
type KeyState struct {
	Name string // as sent, with the prefix
	Type string
	// Value is the string, or the fields as "f=v f=v" (a hash) or
	// "m=score m=score" (a sorted set).
	Value  string
	Fields []Field // a hash's fields or a sorted set's members, in order
	PTTL   int64
	// Node is the node it was read on in a distributed story ("" for the
	// single lock service); Down is set when that node was stopped and
	// could not be read.
	Node string
	Down bool
	// Clock is the server's clock (TIME) in epoch ms when a sorted set was
	// read, so scores that are deadlines can be shown as time left; 0 for
	// other types.
	Clock int64
}

// Field is a hash field and its value, or a sorted-set member and its
// score as Redis prints it.
type Field struct{ Name, Value string }

// Exists reports whether the server had the key.
func (k KeyState) Exists() bool { return k.PTTL != -2 }

// Snapshot is a copy of a run's state that a view can draw while the run
// goes on: events, actors, the watched keys read back, the resource.
type Snapshot struct {
	Backend  string
	Prefix   string // the run's key prefix on a live server, "" embedded
	Live     bool
	Scale    int
	Capped   bool          // the scene capped the backend's scale (Script.MaxScale)
	Timeout  time.Duration // how long a client waits for a reply (wire time)
	Now      time.Duration
	Pos      int
	Moves    []string   // a label per schedule move
	Kinds    []MoveKind // the kind of each schedule move
	Actors   []Actor
	Events   []Event
	Keys     []KeyState
	Resource *ResourceState
	// SharedResource is set when the resource lives on the lock service's
	// own server (a live server without -resource-redis).
	SharedResource bool
	// Held is set while the story's clock is held on a live server.
	Held    bool
	Scripts map[string]Lua // the scripts sent so far, by name
	// Nodes are a distributed story's nodes and their faults; Keys then
	// hold the watched keys of each node, with Node set.
	Nodes       []NodeState
	SharedNodes bool // the nodes are namespaces of one live server
	// Timers are each actor's running timers by label, soonest first.
	Timers map[string][]string
	Err    string // a backend error, if the last operation failed
}

// Snapshot reads the watched keys back from the server and copies the run's state.
func (r *Run) Snapshot(ctx context.Context) Snapshot {
	s := Snapshot{
		Backend: r.b.Name, Prefix: r.b.Prefix, Live: r.b.Live(), Scale: r.Scale(), Capped: r.Scale() < r.b.Scale,
		Timeout: r.b.commandTimeout(), Now: r.Now(), Pos: r.pos,
		Events: slices.Clone(r.Events), Scripts: r.Scripts(),
	}
	for _, m := range r.script.Moves {
		s.Moves = append(s.Moves, MoveLabel(m))
		s.Kinds = append(s.Kinds, m.Kind)
	}
	if r.edited {
		r.predictLabels(s.Moves)
	}
	for _, a := range r.Actors {
		c := *a
		c.rng, c.jitter = nil, nil // the run's own: a snapshot only reads
		c.Steps = slices.Clone(a.Steps)
		s.Actors = append(s.Actors, c)
		if ts := r.Timers(a.Name); len(ts) > 0 {
			if s.Timers == nil {
				s.Timers = map[string][]string{}
			}
			s.Timers[a.Name] = ts
		}
	}
	// a distributed story watches its keys on each node, not on the backend
	var names []string
	if len(r.script.Nodes) == 0 {
		for _, name := range r.script.Watch {
			names = append(names, r.b.Key(name))
		}
	}
	// a resource on the lock service's own server is read in the same
	// round as the watched keys
	resAt := -1
	if r.Res != nil && r.Res.b == r.b {
		resAt = len(names)
		names = append(names, r.Res.key)
	}
	keys, err := ReadKeys(ctx, r.b, names)
	if err != nil {
		s.Err = oneLine(err) // a live server's words: escaped
	}
	var resHash map[string]string
	if resAt >= 0 {
		resHash = map[string]string{}
		for _, f := range keys[resAt].Fields {
			resHash[f.Name] = f.Value
		}
		keys = keys[:resAt]
	}
	for i, k := range keys {
		// a held key reads PTTL -1 on the server; its story TTL is the held one
		if ms, ok := r.heldPTTL(r.b, k.Name); ok && k.PTTL == -1 {
			keys[i].PTTL = ms
		}
	}
	s.Keys = keys
	s.Nodes, s.SharedNodes = r.Nodes(), r.shared
	for _, n := range r.nodes {
		s.Keys = append(s.Keys, r.readNode(ctx, n, r.script.Watch)...)
	}
	s.Held = r.Held()
	if r.Res != nil {
		var rs ResourceState
		if resHash != nil {
			rs = resourceState(resHash)
		} else if rs, err = r.Res.read(ctx); err != nil {
			s.Err = oneLine(err) // a live server's words: escaped
		}
		s.Resource = &rs
		s.SharedResource = r.Res.shared
	}
	return s
}

// ReadKeys reads the named keys (as sent) back from b in one pipelined
// round trip: TYPE and PTTL of each, and the value by the type the key had
// when last read (GET for a string or a new key, HGETALL for a hash,
// ZRANGE … WITHSCORES for a sorted set, with one TIME to show its scores
// as deadlines). A key whose type changed since is read again in a second
// round. It uses only the backend's own connection, so it may run while a
// run is busy elsewhere; a live screen calls it to show a lease running
// down. On the embedded server the round goes in chunks (see dialPipe).
func ReadKeys(ctx context.Context, b *Backend, names []string) ([]KeyState, error) {
	out := make([]KeyState, len(names))
	for i, n := range names {
		out[i] = KeyState{Name: n, PTTL: -2}
	}
	if len(names) == 0 {
		return out, nil
	}
	guess := make([]string, len(names))
	for i, n := range names {
		guess[i] = b.lastType(n)
	}
	again, err := readRound(ctx, b, out, guess)
	if err == nil && len(again) > 0 {
		sub := make([]KeyState, len(again))
		types := make([]string, len(again))
		for j, i := range again {
			sub[j], types[j] = out[i], out[i].Type
		}
		if _, err = readRound(ctx, b, sub, types); err == nil {
			for j, i := range again {
				out[i] = sub[j]
			}
		}
	}
	for _, k := range out {
		b.rememberType(k.Name, k.Type)
	}
	return out, err
}

// keyReads are the replies of one key's reads in a round.
type keyReads struct {
	typ   *redis.StatusCmd
	pttl  *redis.Cmd
	value *redis.Cmd // GET, HGETALL or ZRANGE WITHSCORES, by the guessed type
}

// readRound reads out's keys in one pipelined round, each key's value by
// its guessed type, and returns the positions whose real type needs a
// read the guess did not send.
func readRound(ctx context.Context, b *Backend, out []KeyState, guess []string) ([]int, error) {
	c := b.Admin()
	sent := make([]keyReads, len(out))
	var clock *redis.TimeCmd
	chunk := len(out) // a live server reads a round of any size
	if !b.Live() {
		// the embedded server's pipe has no buffer, and a pipeline larger
		// than what the server reads at once would stall both ends
		chunk = 8
	}
	var err error
	for from := 0; from < len(out) && ignorable(err); from += chunk {
		_, err = c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i := from; i < min(from+chunk, len(out)); i++ {
				n := out[i].Name
				// Do, not the typed helpers: PTTL keeps -1 and -2 as sent,
				// and a value read of the wrong type answers WRONGTYPE
				sent[i] = keyReads{typ: p.Type(ctx, n), pttl: p.Do(ctx, "PTTL", n), value: p.Do(ctx, valueRead(guess[i], n)...)}
				if guess[i] == "zset" && clock == nil {
					clock = p.Time(ctx)
				}
			}
			return nil
		})
	}
	if !ignorable(err) {
		return nil, err // the reads that were not sent have no reply to read
	}
	var now int64
	if clock != nil {
		if t, err := clock.Result(); err == nil {
			now = t.UnixMilli()
		}
	}
	var again []int
	for i := range out {
		ks := KeyState{Name: out[i].Name, PTTL: -2}
		ks.Type = sent[i].typ.Val()
		ks.PTTL, _ = sent[i].pttl.Int64()
		switch ks.Type {
		case "none", "":
			ks.PTTL = -2
		case "string":
			if guess[i] == "hash" || guess[i] == "zset" {
				again = append(again, i)
				break
			}
			ks.Value, _ = sent[i].value.Text()
		case "hash", "zset":
			if guess[i] != ks.Type || ks.Type == "zset" && now == 0 {
				again = append(again, i)
				break
			}
			fs, err := fields(ks.Type, sent[i].value)
			if err != nil {
				return nil, err
			}
			var parts []string
			for _, f := range fs {
				parts = append(parts, f.Name+"="+f.Value)
			}
			ks.Fields, ks.Value = fs, strings.Join(parts, " ")
			if ks.Type == "zset" {
				ks.Clock = now
			}
		default:
			ks.Value = "(" + ks.Type + ")"
		}
		out[i] = ks
	}
	return again, nil
}

// ignorable is an error of a round that is a reply, not a failure: a
// missing key's GET (nil) or a value read of the wrong type.
func ignorable(err error) bool {
	return err == nil || errors.Is(err, redis.Nil) || isWrongType(err)
}

// valueRead is the command that reads a key of type typ: HGETALL for a
// hash, ZRANGE 0 -1 WITHSCORES for a sorted set, GET otherwise.
func valueRead(typ, name string) []any {
	switch typ {
	case "hash":
		return []any{"HGETALL", name}
	case "zset":
		return []any{"ZRANGE", name, 0, -1, "WITHSCORES"}
	}
	return []any{"GET", name}
}

// fields reads a hash's fields (sorted by field) or a sorted set's members
// with their scores (lowest first) from the reply of valueRead. RESP2 sends
// both as a flat array of strings.
func fields(typ string, cmd *redis.Cmd) ([]Field, error) {
	flat, err := cmd.StringSlice()
	if err != nil {
		return nil, err
	}
	var fs []Field
	for i := 0; i+1 < len(flat); i += 2 {
		v := flat[i+1]
		if typ == "zset" {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				v = strconv.FormatFloat(f, 'f', -1, 64)
			}
		}
		fs = append(fs, Field{flat[i], v})
	}
	if typ == "hash" {
		// sort.Slice, not slices.SortFunc: see Foreign's sort (sweep.go).
		sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	}
	return fs, nil
}

// isWrongType reports the error a GET gets on a key that is not a string:
// expected in the pipeline above, which sends GET before it knows the type.
func isWrongType(err error) bool { return strings.HasPrefix(err.Error(), "WRONGTYPE") }

// MoveLabel is how the timeline names a move.
func MoveLabel(m Move) string {
	if m.Label != "" {
		return m.Label
	}
	switch m.Kind {
	case MoveStep:
		return m.Actor + " step"
	case MoveAdvance:
		return "wait " + FormatSpan(m.D)
	case MoveCrash:
		return m.Actor + " crashes"
	case MovePause:
		return m.Actor + " pauses"
	case MoveResume:
		return m.Actor + " wakes"
	}
	return "move"
}

// predictLabels relabels the steps still to come by walking the schedule
// from the current state: which step of its program each actor will run,
// or that it cannot.
func (r *Run) predictLabels(labels []string) {
	pc := map[string]int{}
	status := map[string]Status{}
	steps := map[string][]string{}
	for _, a := range r.Actors {
		pc[a.Name], status[a.Name], steps[a.Name] = a.PC, a.Status, a.Steps
	}
	for i := r.pos; i < len(r.script.Moves); i++ {
		m := r.script.Moves[i]
		switch m.Kind {
		case MoveCrash:
			status[m.Actor] = Crashed
		case MovePause:
			if status[m.Actor] == Ready || status[m.Actor] == Done {
				status[m.Actor] = Paused
			}
		case MoveResume:
			if status[m.Actor] == Paused {
				status[m.Actor] = Ready
			}
		case MoveStep:
			switch {
			case status[m.Actor] == Crashed:
				labels[i] = m.Actor + " (down)"
			case status[m.Actor] == Paused:
				labels[i] = m.Actor + " (frozen)"
			case pc[m.Actor] >= len(steps[m.Actor]):
				labels[i] = m.Actor + " (nothing left)"
			default:
				labels[i] = m.Actor + " " + steps[m.Actor][pc[m.Actor]]
				pc[m.Actor]++
			}
		}
	}
}

// readNode reads the watched keys back on one node of a distributed story;
// a stopped node reads as down, not as an error of the run.
func (r *Run) readNode(ctx context.Context, n *node, watch []string) []KeyState {
	names := make([]string, len(watch))
	for i, w := range watch {
		names[i] = n.b.Key(w)
	}
	var ks []KeyState
	var err error
	if !n.down {
		ks, err = ReadKeys(ctx, n.b, names)
	}
	if n.down || err != nil {
		ks = make([]KeyState, len(names))
		for i, name := range names {
			ks[i] = KeyState{Name: name, PTTL: -2, Down: true}
		}
	}
	for i := range ks {
		ks[i].Node = n.name
		if ms, ok := r.heldPTTL(n.b, ks[i].Name); ok && ks[i].PTTL == -1 {
			ks[i].PTTL = ms
		}
	}
	return ks
}
