package sim

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// KeyState is a key as the server reports it: TYPE, its value (GET, or the
// hash fields for a hash) and PTTL in ms (-1 no expiry, -2 no such key).
type KeyState struct {
	Name  string // as sent, with the prefix
	Type  string
	Value string
	PTTL  int64
}

// Exists reports whether the server had the key.
func (k KeyState) Exists() bool { return k.PTTL != -2 }

// Snapshot is a copy of a run's state that a view can draw while the run
// goes on: events, actors, the watched keys read back, the resource.
type Snapshot struct {
	Backend  string
	Prefix   string // the run's key prefix on a live server, "" embedded
	Live     bool
	Scale    int
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
	Scripts        map[string]Lua // the scripts sent so far, by name
	Err            string         // a backend error, if the last operation failed
}

// Snapshot reads the watched keys back from the server and copies the run's state.
func (r *Run) Snapshot(ctx context.Context) Snapshot {
	s := Snapshot{
		Backend: r.b.Name, Prefix: r.b.Prefix, Live: r.b.Live(), Scale: r.b.Scale,
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
		c.rng = nil // the run's own: a snapshot only reads
		c.Steps = slices.Clone(a.Steps)
		s.Actors = append(s.Actors, c)
	}
	for _, name := range r.script.Watch {
		ks, err := inspect(ctx, r.b, r.b.Key(name))
		if err != nil {
			s.Err = err.Error()
		}
		s.Keys = append(s.Keys, ks)
	}
	if r.Res != nil {
		rs, err := r.Res.read(ctx)
		if err != nil {
			s.Err = err.Error()
		}
		s.Resource = &rs
		s.SharedResource = r.Res.b == r.b
	}
	return s
}

// ReadKeys reads the named keys (as sent) back from b. It uses only the
// backend's own connection, so it may run while a run is busy elsewhere; a
// live screen calls it to show a lease running down in real time.
func ReadKeys(ctx context.Context, b *Backend, names []string) ([]KeyState, error) {
	out := make([]KeyState, 0, len(names))
	for _, n := range names {
		ks, err := inspect(ctx, b, n)
		if err != nil {
			return out, err
		}
		out = append(out, ks)
	}
	return out, nil
}

func inspect(ctx context.Context, b *Backend, key string) (KeyState, error) {
	ks := KeyState{Name: key, PTTL: -2}
	c := b.Admin()
	t, err := c.Type(ctx, key).Result()
	if err != nil {
		return ks, err
	}
	ks.Type = t
	switch t {
	case "none":
		return ks, nil
	case "string":
		ks.Value, err = c.Get(ctx, key).Result()
	case "hash":
		var h map[string]string
		h, err = c.HGetAll(ctx, key).Result()
		var parts []string
		for _, f := range slices.Sorted(maps.Keys(h)) {
			parts = append(parts, f+"="+h[f])
		}
		ks.Value = strings.Join(parts, " ")
	default:
		ks.Value = "(" + t + ")"
	}
	if err != nil {
		return ks, err
	}
	// Do, not the typed PTTL helper: it keeps -1 and -2 as the server sent them.
	v, err := c.Do(ctx, "PTTL", key).Int64()
	ks.PTTL = v
	return ks, err
}

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
			if status[m.Actor] == Ready {
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
