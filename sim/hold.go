package sim

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"
)

// The scripts that hold the story's clock on a live server while the
// learner reads: one atomic step per server, so no key of the run loses or
// gains time between the first key and the last.
var (
	// HoldLua reads the remaining PTTL of each key in KEYS that has one and
	// removes it (PERSIST). Returns key, ms, key, ms, ...
	HoldLua = Lua{Name: "hold-clock", Src: `local out = {}
for _, k in ipairs(KEYS) do
  local t = redis.call("PTTL", k)
  if t > 0 then
    redis.call("PERSIST", k)
    out[#out + 1] = k
    out[#out + 1] = t
  end
end
return out`}

	// ResumeLua gives each key in KEYS back its remaining ms from ARGV, if
	// it still has no TTL (PEXPIRE 0 would delete it, so 1 is the least).
	ResumeLua = Lua{Name: "resume-clock", Src: `for i, k in ipairs(KEYS) do
  if redis.call("PTTL", k) == -1 then
    redis.call("PEXPIRE", k, math.max(tonumber(ARGV[i]), 1))
  end
end
return #KEYS`}
)

// hold is the clock held on one server: the keys it persisted, with the
// milliseconds each had left.
type hold struct {
	b    *Backend
	left map[string]int64
}

// Hold stops the story's clock on a live server until the next move: the
// remaining PTTL of every key of the run is read and removed in one script
// per server, and the run's story time stops. The next Seek or Insert gives
// each key back its remaining milliseconds first. So a learner who reads for
// a minute between steps sees the story's timing, and a step forward runs
// only the next move. Keys without a TTL in the story are left alone. It is
// a no-op on the embedded server, whose clock only moves when a move says so.
func (r *Run) Hold(ctx context.Context) error {
	if !r.b.Live() || r.holds != nil {
		return nil
	}
	r.heldAt = time.Now()
	r.holds = []hold{}
	n := 0
	for _, side := range r.sides() {
		h, err := holdOn(ctx, side.b, side.keys)
		if err != nil {
			return err
		}
		r.holds = append(r.holds, h)
		n += len(h.left)
	}
	if n > 0 {
		r.record(Event{Kind: Aside, Move: -1, Note: fmt.Sprintf("EVAL <%s>: %d TTL(s) held while you read", HoldLua.Name, n)})
	}
	return nil
}

// Held reports whether the story's clock is held.
func (r *Run) Held() bool { return r.holds != nil }

// heldPTTL is the remaining ms a held key had, if it is held.
func (r *Run) heldPTTL(b *Backend, key string) (int64, bool) {
	for _, h := range r.holds {
		if ms, ok := h.left[key]; ok && h.b == b {
			return ms, true
		}
	}
	return 0, false
}

// resume gives every held key its remaining ms back and lets the story's
// clock run again.
func (r *Run) resume(ctx context.Context) error {
	if r.holds == nil {
		return nil
	}
	for _, h := range r.holds {
		if len(h.left) == 0 {
			continue
		}
		keys := slices.Sorted(maps.Keys(h.left))
		args := []any{"EVAL", ResumeLua.Src, len(keys)}
		for _, k := range keys {
			args = append(args, k)
		}
		for _, k := range keys {
			args = append(args, h.left[k])
		}
		if err := h.b.admin.Do(ctx, args...).Err(); err != nil {
			return fmt.Errorf("giving the held keys their TTL back: %w", err)
		}
	}
	r.heldFor += time.Since(r.heldAt)
	r.holds = nil
	return nil
}

type side struct {
	b    *Backend
	keys []string
}

// sides are the run's keys by the server they live on.
func (r *Run) sides() []side {
	out := []side{{r.b, slices.Sorted(maps.Keys(r.keys))}}
	if r.Res != nil {
		if r.Res.b == r.b {
			out[0].keys = append(out[0].keys, r.Res.key)
		} else {
			out = append(out, side{r.Res.b, []string{r.Res.key}})
		}
	}
	for _, n := range r.nodes {
		if !n.own && !n.down {
			out = append(out, side{n.b, slices.Sorted(maps.Keys(n.keys))})
		}
	}
	return out
}

func holdOn(ctx context.Context, b *Backend, keys []string) (hold, error) {
	h := hold{b: b, left: map[string]int64{}}
	if len(keys) == 0 {
		return h, nil
	}
	args := []any{"EVAL", HoldLua.Src, len(keys)}
	for _, k := range keys {
		args = append(args, k)
	}
	res, err := b.admin.Do(ctx, args...).Slice()
	if err != nil {
		return h, fmt.Errorf("holding the clock: %w", err)
	}
	for i := 0; i+1 < len(res); i += 2 {
		k, _ := res[i].(string)
		ms, _ := res[i+1].(int64)
		h.left[k] = ms
	}
	return h, nil
}
