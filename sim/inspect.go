package sim

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
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
	Capped   bool // the scene capped the backend's scale (Script.MaxScale)
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
		Now: r.Now(), Pos: r.pos,
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
	keys, err := ReadKeys(ctx, r.b, names)
	if err != nil {
		s.Err = err.Error()
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
		rs, err := r.Res.read(ctx)
		if err != nil {
			s.Err = err.Error()
		}
		s.Resource = &rs
		s.SharedResource = r.Res.shared
	}
	return s
}

// ReadKeys reads the named keys (as sent) back from b in one pipelined
// round trip (TYPE, GET, PTTL of each; HGETALL after it for a hash, and for
// a sorted set TIME, then ZRANGE … WITHSCORES). It uses
// only the backend's own connection, so it may run while a run is busy
// elsewhere; a live screen calls it to show a lease running down.
func ReadKeys(ctx context.Context, b *Backend, names []string) ([]KeyState, error) {
	out := make([]KeyState, len(names))
	if len(names) == 0 {
		return out, nil
	}
	c := b.Admin()
	type cmds struct {
		typ  *redis.StatusCmd
		get  *redis.StringCmd
		pttl *redis.Cmd
	}
	sent := make([]cmds, len(names))
	var err error
	// in chunks: the embedded server's pipe has no buffer, and a pipeline
	// larger than what the server reads at once would stall both ends
	const chunk = 8
	for from := 0; from < len(names) && (err == nil || errors.Is(err, redis.Nil) || isWrongType(err)); from += chunk {
		_, err = c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i := from; i < min(from+chunk, len(names)); i++ {
				n := names[i]
				// Do, not the typed PTTL helper: it keeps -1 and -2 as sent.
				sent[i] = cmds{p.Type(ctx, n), p.Get(ctx, n), p.Do(ctx, "PTTL", n)}
			}
			return nil
		})
	}
	if err != nil && !errors.Is(err, redis.Nil) && !isWrongType(err) {
		for i, n := range names {
			out[i] = KeyState{Name: n, PTTL: -2}
		}
		return out, err // the reads that were not sent have no reply to read
	}
	var hashes []int
	for i, n := range names {
		ks := KeyState{Name: n, PTTL: -2}
		ks.Type = sent[i].typ.Val()
		ks.PTTL, _ = sent[i].pttl.Int64()
		switch ks.Type {
		case "none", "":
			ks.PTTL = -2
		case "string":
			ks.Value = sent[i].get.Val()
		case "hash", "zset":
			hashes = append(hashes, i)
		default:
			ks.Value = "(" + ks.Type + ")"
		}
		out[i] = ks
	}
	if err != nil && !errors.Is(err, redis.Nil) && !isWrongType(err) {
		return out, err
	}
	var clock int64
	for _, i := range hashes {
		if out[i].Type == "zset" && clock == 0 {
			now, err := c.Time(ctx).Result()
			if err != nil {
				return out, err
			}
			clock = now.UnixMilli()
		}
		if out[i].Type == "zset" {
			out[i].Clock = clock
		}
		fs, err := readFields(ctx, c, out[i].Type, names[i])
		if err != nil {
			return out, err
		}
		var parts []string
		for _, f := range fs {
			parts = append(parts, f.Name+"="+f.Value)
		}
		out[i].Fields, out[i].Value = fs, strings.Join(parts, " ")
	}
	return out, nil
}

// readFields reads a hash's fields (HGETALL, sorted by field) or a sorted
// set's members with their scores (ZRANGE 0 -1 WITHSCORES).
func readFields(ctx context.Context, c *redis.Client, typ, name string) ([]Field, error) {
	var fs []Field
	if typ == "zset" {
		zs, err := c.ZRangeWithScores(ctx, name, 0, -1).Result()
		for _, z := range zs {
			fs = append(fs, Field{fmt.Sprint(z.Member), strconv.FormatFloat(z.Score, 'f', -1, 64)})
		}
		return fs, err
	}
	h, err := c.HGetAll(ctx, name).Result()
	for _, f := range slices.Sorted(maps.Keys(h)) {
		fs = append(fs, Field{f, h[f]})
	}
	return fs, err
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
		return "wait " + storyDuration(m.D)
	case MoveCrash:
		return m.Actor + " crashes"
	case MovePause:
		return m.Actor + " pauses"
	case MoveResume:
		return m.Actor + " wakes"
	}
	return "move"
}

func storyDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return d.String()
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
