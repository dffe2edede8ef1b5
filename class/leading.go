package class

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"locksim/scenes"
)

// Held are the scenes whose question a class of hub has open now
// (Asking), whichever server its sessions are on: every class Leading
// finds, so a class seated on one server of a shared store holds the
// pages and commands of every server of it, and a class closed, or whose
// instructor's sessions left or stopped beating Gone ago, holds nothing.
// A store that cannot be read (out of reach, or more than MaxLeading
// classes led at once) may have any class asking any question: every
// scene that asks is held then, erring towards holding too much. nil for
// none.
func Held(ctx context.Context, hub Hub) map[string]bool {
	leads, err := hub.Leading(ctx)
	var out map[string]bool
	if err != nil {
		out = map[string]bool{}
		for _, sc := range scenes.All() {
			if sc.Predict != nil {
				out[sc.ID] = true
			}
		}
		return out
	}
	for _, l := range leads {
		if scene, asks := Asking(l); asks {
			if out == nil {
				out = map[string]bool{}
			}
			out[scene] = true
		}
	}
	return out
}

// ledKey is the index of the classes whose instructor beats (Leading):
// a sorted set of codes, each scored by its instructor's last beat in ms
// since the epoch. Each instructor's beat drops the codes whose beat is
// Gone old, and sets its TTL again, as every key of the hub's.
const ledKey = Prefix + "led"

// Leading reads the index of the classes whose instructor beats (ledKey)
// for those that beat within Gone of now, at most MaxLeading+1, then
// their records and places in one MGET: two round trips, whatever the
// number of classes the store keeps.
func (h *Redis) Leading(ctx context.Context) (map[string]Lead, error) {
	since := h.now().Add(-Gone).UnixMilli()
	// by Do, not go-redis's typed sorted-set methods: each of those links
	// a wrapper for every client type go-redis has (about 40 KB of binary)
	codes, err := h.c.Do(ctx, "ZRANGEBYSCORE", ledKey, "("+strconv.FormatInt(since, 10), "+inf", "LIMIT", 0, MaxLeading+1).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("the classes led: %w", err)
	}
	codes = slices.DeleteFunc(codes, func(c string) bool { return !ValidCode(c) })
	if len(codes) > MaxLeading {
		return nil, ErrTooManyLeading
	}
	out := map[string]Lead{}
	if len(codes) == 0 {
		return out, nil
	}
	keys := make([]string, 0, 2*len(codes))
	for _, c := range codes {
		keys = append(keys, classKey(c), leadKey(c))
	}
	vals, err := h.c.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, fmt.Errorf("the classes led: %w", err)
	}
	for i, c := range codes {
		rec, _ := vals[2*i].(string)
		place, _ := vals[2*i+1].(string)
		var info Info
		var l Lead
		if rec == "" || place == "" || json.Unmarshal([]byte(rec), &info) != nil || !info.Closed.IsZero() {
			continue // gone, closed, or led nowhere yet
		}
		if err := json.Unmarshal([]byte(place), &l); err != nil {
			return nil, fmt.Errorf("class %s: %w", c, err)
		}
		out[c] = l
	}
	return out, nil
}
