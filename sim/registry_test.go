package sim

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// registryServer is a miniredis with a client on it.
func registryServer(t *testing.T) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr(), DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	return mr, c
}

// registered writes prefix's registration as locksim does, and keys under it.
func registered(mr *miniredis.Miniredis, prefix string, keys ...string) {
	reg, val := Registration(prefix, strings.Repeat("ab", 16))
	mr.Set(reg, val)
	for _, k := range keys {
		mr.Set(prefix+k, "v")
	}
}

// TestSweepDecisions: a sweep deletes the keys of a registered run whose
// heartbeat is gone, the registration last, and of a registered replay
// only when asked; it leaves alone a live run, and every key under
// locksim: whose prefix has no registration in locksim's shape, and says
// why for each.
func TestSweepDecisions(t *testing.T) {
	mr, c := registryServer(t)
	ctx := context.Background()
	registered(mr, "locksim:0000aa:", "resource:lock", "resource:fence")
	registered(mr, "locksim:0000bb:", "resource:lock")
	mr.Set("locksim:0000bb:heartbeat", "alive")
	mr.SetTTL("locksim:0000bb:heartbeat", time.Minute)
	registered(mr, "locksim:replay:0000cc01:", "resource:lock")
	user := map[string]string{
		"locksim:0000dd:resource:lock":         "no registration at all",
		"locksim:0000ee:resource:lock":         "a registration of the wrong shape",
		"locksim:0000ee:registration":          "hello",
		"locksim:0000ff:resource:lock":         "a registration naming another prefix",
		"locksim:0000ff:registration":          "locksim:0000aa: " + strings.Repeat("ab", 16),
		"locksim:replay:resource:lock":         "the old replay shape",
		"locksim:replay:0000cc02:resource:x":   "an unregistered replay",
		"locksim:cleanup-check":                "the old pre-check's name",
		"locksim:0000aa":                       "no colon after the run",
		"locksim:abcdef:preflight":             "a preflight-shaped key",
		"locksim:abcdef:heartbeat":             "a heartbeat without registration",
		"locksim:replay:0000cc02:registration": "x",
	}
	for k, v := range user {
		mr.Set(k, v)
	}
	mr.HSet("locksim:000011:registration", "f", "a hash where a registration would be")
	mr.Set("locksim:000011:resource:lock", "v")

	start, err := Sweep(ctx, c, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(start.Removed) != 1 || start.Removed[0].ID != "0000aa" || start.Removed[0].Replay {
		t.Fatalf("the start sweep should remove run 0000aa only: %+v", start.Removed)
	}
	if got, want := start.Removed[0].Keys, []string{"locksim:0000aa:resource:fence", "locksim:0000aa:resource:lock", "locksim:0000aa:registration"}; !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v (the registration last)", got, want)
	}
	if !mr.Exists("locksim:replay:0000cc01:resource:lock") || !mr.Exists("locksim:replay:0000cc01:registration") {
		t.Error("the start sweep touched a replay")
	}
	for _, f := range start.Foreign {
		if strings.HasPrefix(f.Key, ReplayPrefix) {
			t.Errorf("the start sweep reported a replay's key: %v", f)
		}
	}
	if len(start.Alive) != 1 || start.Alive[0].ID != "0000bb" {
		t.Errorf("run 0000bb lives: %+v", start.Alive)
	}
	if n := start.StartNote(); n != "removed 3 keys of 1 locksim run (0000aa), each registered by locksim with its heartbeat expired: it was killed, or lost the server for longer than its heartbeat's TTL" {
		t.Errorf("start note: %q", n)
	}

	clean, err := Sweep(ctx, c, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(clean.Removed) != 1 || !clean.Removed[0].Replay || clean.Removed[0].ID != "0000cc01" || len(clean.Removed[0].Keys) != 2 {
		t.Fatalf("-cleanup should remove replay 0000cc01: %+v", clean.Removed)
	}
	foreign := map[string]string{}
	for _, f := range clean.Foreign {
		foreign[f.Key] = f.Why
	}
	for k := range user {
		if !mr.Exists(k) {
			t.Errorf("%s (%s) was deleted", k, user[k])
		}
		if foreign[k] == "" {
			t.Errorf("%s should be listed as not locksim's", k)
		}
	}
	if !mr.Exists("locksim:000011:resource:lock") || !strings.Contains(foreign["locksim:000011:resource:lock"], "not a registration") {
		t.Errorf("a hash registration is not locksim's: %q", foreign["locksim:000011:resource:lock"])
	}
	if !strings.Contains(foreign["locksim:0000dd:resource:lock"], "no registration locksim:0000dd:registration") {
		t.Errorf("why: %q", foreign["locksim:0000dd:resource:lock"])
	}
	lines := clean.Lines()
	for _, l := range lines {
		if strings.Contains(l, "\n") {
			t.Errorf("a message of more than one line: %q", l)
		}
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "replay 0000cc01: 2 keys removed") }) ||
		!slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "not locksim's, left alone: locksim:cleanup-check (") }) ||
		!slices.ContainsFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "run 0000bb: 3 keys left alone (its heartbeat has not expired")
		}) {
		t.Errorf("-cleanup's lines:\n%s", strings.Join(lines, "\n"))
	}
}

// TestSweepRaces: between a sweep's check and its delete, a run that
// starts again under the prefix (a new nonce, a heartbeat) or a second
// sweep that removes the run first makes the delete do nothing, and the
// keys are counted once.
func TestSweepRaces(t *testing.T) {
	ctx := context.Background()
	t.Run("restarted", func(t *testing.T) {
		mr, c := registryServer(t)
		registered(mr, "locksim:0000aa:", "resource:lock")
		keys, _ := scanNamespace(ctx, c)
		r, err := sweepKeys(ctx, c, keys, false, func(string) {
			reg, val := Registration("locksim:0000aa:", strings.Repeat("cd", 16))
			c.Set(ctx, reg, val, 0)
			c.Set(ctx, "locksim:0000aa:heartbeat", "x", time.Minute)
		})
		if err != nil || len(r.Removed) != 0 || !slices.Equal(r.Changed, []string{"locksim:0000aa:"}) {
			t.Fatalf("%+v %v", r, err)
		}
		if !mr.Exists("locksim:0000aa:resource:lock") {
			t.Error("the restarted run's key was deleted")
		}
	})
	t.Run("two sweeps", func(t *testing.T) {
		mr, c := registryServer(t)
		registered(mr, "locksim:0000aa:", "resource:lock", "resource:fence")
		keys, _ := scanNamespace(ctx, c)
		var inner SweepReport
		outer, err := sweepKeys(ctx, c, keys, false, func(string) {
			inner, _ = Sweep(ctx, c, false)
		})
		if err != nil || inner.Keys() != 3 || outer.Keys() != 0 || len(outer.Changed) != 1 {
			t.Fatalf("inner %+v, outer %+v, %v", inner, outer, err)
		}
		if len(mr.Keys()) != 0 {
			t.Errorf("left: %v", mr.Keys())
		}
	})
	t.Run("concurrent", func(t *testing.T) {
		mr, c := registryServer(t)
		for range 20 {
			registered(mr, "locksim:0000aa:", "a", "b", "c")
			var wg sync.WaitGroup
			var mu sync.Mutex
			total := 0
			for range 4 {
				wg.Go(func() {
					r, err := Sweep(ctx, c, false)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					total += r.Keys()
					mu.Unlock()
				})
			}
			wg.Wait()
			if total != 4 || len(mr.Keys()) != 0 {
				t.Fatalf("four sweeps at once removed %d keys in all, want 4; left %v", total, mr.Keys())
			}
		}
	})
}

// TestRegisterAndClose: a run's registration and heartbeat are written
// together, the registration with no TTL and in locksim's shape; a sweep
// leaves the run alone while it beats; Close's cleanup deletes its keys
// and then its registration; a lapsed heartbeat registers the run again.
func TestRegisterAndClose(t *testing.T) {
	mr, c := registryServer(t)
	ctx := context.Background()
	b := &Backend{Name: "test", Timeout: time.Second, opts: &redis.Options{Addr: mr.Addr(), DisableIdentity: true}, admin: c, beatTTL: 2 * time.Second, wrote: &written{}}
	mr.Set("locksim:0000aa:resource:lock", "a user's")
	if err := b.register(ctx, map[string]bool{}); err != nil {
		t.Fatal(err)
	}
	val, err := mr.Get(b.registrationKey())
	if err != nil || !registers(b.Prefix, val) || mr.TTL(b.registrationKey()) != 0 || mr.TTL(b.heartbeatKey()) != 2*time.Second {
		t.Fatalf("registration %q (%v, TTL %v), heartbeat TTL %v", val, err, mr.TTL(b.registrationKey()), mr.TTL(b.heartbeatKey()))
	}
	mr.Set(b.Key("resource:lock"), "x")
	mr.Set(b.Prefix+"unnamed", "a key the run never named")
	if r, _ := Sweep(ctx, c, true); r.Keys() != 0 || len(r.Alive) != 1 {
		t.Fatalf("a live run was swept: %+v", r)
	}
	mr.Del(b.heartbeatKey())
	mr.Del(b.registrationKey())
	if err := b.beat(ctx); err != nil || !mr.Exists(b.registrationKey()) {
		t.Fatalf("a lapsed beat should register the run again: %v", err)
	}
	if err := b.Cleanup(ctx); err != nil {
		t.Fatal(err)
	}
	if keys := mr.Keys(); !slices.Equal(keys, []string{"locksim:0000aa:resource:lock", b.Prefix + "unnamed"}) {
		t.Errorf("after Close: %v (Cleanup deletes the names the run sent, and its registration)", keys)
	}
}

// TestRegisterSkipsAUsedPrefix: with no start sweep (a class server's
// session: OpenLive with NoSweep gives register an empty taken, as here;
// OpenLive itself cannot run on miniredis, which refuses INFO's two
// sections), a prefix with a key under it, any key, is never registered,
// and the key outlives the run's Cleanup; nor is one whose registration
// or heartbeat exists.
func TestRegisterSkipsAUsedPrefix(t *testing.T) {
	mr, c := registryServer(t)
	ctx := context.Background()
	// more keys than one SCAN call's COUNT, so the user's key is found on
	// a later call than the first
	for i := range 2500 {
		mr.Set("user:"+strconv.Itoa(i), "x")
	}
	mr.Set("locksim:0000aa:deep:key:of:a:user", "the user's")
	mr.SetTTL("locksim:0000aa:deep:key:of:a:user", time.Hour)
	mr.Set("locksim:0000bb:heartbeat", "a user's, shaped like a heartbeat")
	ids := []string{"0000aa", "0000bb", "0000cc"}
	var tried []string
	b := &Backend{Name: "test", Timeout: time.Second, opts: &redis.Options{Addr: mr.Addr(), DisableIdentity: true}, admin: c,
		beatTTL: 2 * time.Second, wrote: &written{},
		newRunID: func() string { id := ids[len(tried)%len(ids)]; tried = append(tried, id); return id }}
	if err := b.register(ctx, map[string]bool{}); err != nil {
		t.Fatal(err)
	}
	if b.Prefix != "locksim:0000cc:" || !slices.Equal(tried, ids) {
		t.Fatalf("registered %q after trying %v; want locksim:0000cc: after all three", b.Prefix, tried)
	}
	mr.Set(b.Key("resource:lock"), "the run's")
	if err := b.Cleanup(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := mr.Get("locksim:0000aa:deep:key:of:a:user"); v != "the user's" || mr.TTL("locksim:0000aa:deep:key:of:a:user") != time.Hour {
		t.Errorf("the user's key changed: %q, TTL %v", v, mr.TTL("locksim:0000aa:deep:key:of:a:user"))
	}
	if !mr.Exists("locksim:0000bb:heartbeat") || mr.Exists("locksim:0000cc:resource:lock") || mr.Exists("locksim:0000cc:registration") {
		t.Errorf("after Cleanup: %v", slices.DeleteFunc(mr.Keys(), func(k string) bool { return strings.HasPrefix(k, "user:") }))
	}
	// every candidate taken: one line, no panic
	tried = nil
	ids = []string{"0000aa"}
	b.Prefix = ""
	if err := b.register(ctx, map[string]bool{}); err == nil || strings.Contains(err.Error(), "\n") || len(tried) != 16 {
		t.Errorf("register with every prefix taken: %v after %d tries", err, len(tried))
	}
}

// TestSweepRaceReportsNoForeign: a sweep that reads a prefix's
// registration after another sweep removed the prefix's keys says the
// prefix changed, and does not list its vanished keys as not locksim's.
func TestSweepRaceReportsNoForeign(t *testing.T) {
	mr, c := registryServer(t)
	ctx := context.Background()
	registered(mr, "locksim:0000aa:", "resource:lock", "resource:fence")
	mr.Set("locksim:0000dd:resource:lock", "a user's")
	keys, _ := scanNamespace(ctx, c)
	if _, err := Sweep(ctx, c, false); err != nil { // the first sweep, after this one's SCAN
		t.Fatal(err)
	}
	r, err := sweepKeys(ctx, c, keys, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Keys() != 0 || !slices.Equal(r.Changed, []string{"locksim:0000aa:"}) || len(r.Foreign) != 1 || r.Foreign[0].Key != "locksim:0000dd:resource:lock" {
		t.Errorf("the second sweep: %+v", r)
	}
	if !mr.Exists("locksim:0000dd:resource:lock") {
		t.Error("the user's key was deleted")
	}
}

// TestCleanupCheckTouchesNothing: -cleanup's check before it starts
// deletes nothing, not even a key named as the old check's was.
func TestCleanupCheckTouchesNothing(t *testing.T) {
	mr, c := registryServer(t)
	for _, k := range []string{"locksim:cleanup-check", "locksim:cleanup-check:", "user"} {
		mr.Set(k, "v")
	}
	b := &Backend{Name: "test", Timeout: time.Second, opts: &redis.Options{Addr: mr.Addr()}}
	if err := b.cleanupCheck(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if len(mr.Keys()) != 3 {
		t.Errorf("the check changed the keys: %v", mr.Keys())
	}
}

// TestReplayEnd: an exported replay's last command is one plain DEL (no
// script, no SCAN) of the keys it names, the registration last; it
// deletes those and nothing else, not even a key under its prefix that it
// does not name.
func TestReplayEnd(t *testing.T) {
	mr, c := registryServer(t)
	ctx := context.Background()
	p := ReplayKeyPrefix("0000cc01")
	registered(mr, p, "resource:lock", "emq:{q}:job:1", "unnamed")
	mr.Set(ReplayKeyPrefix("0000cc02")+"resource:lock", "another replay's")
	mr.Set("resource:lock", "a user's")
	reg, _ := Registration(p, "")
	end := ReplayEnd(reg, []string{p + "emq:{q}:job:1", reg, p + "resource:lock"})
	if want := []any{"DEL", p + "emq:{q}:job:1", p + "resource:lock", reg}; !slices.Equal(end, want) {
		t.Fatalf("ReplayEnd = %v, want %v", end, want)
	}
	n, err := c.Do(ctx, end...).Int()
	if err != nil || n != 3 {
		t.Fatalf("deleted %d: %v", n, err)
	}
	if keys := mr.Keys(); len(keys) != 3 || !mr.Exists(p+"unnamed") {
		t.Errorf("left: %v", keys)
	}
	if got := UnderReplay("locksim:0a1b2c:emq:{q}:job:", p); got != p+"emq:{q}:job:" {
		t.Errorf("UnderReplay: %q", got)
	}
	if got := UnderReplay("A:0a1b2c", p); got != "A:0a1b2c" {
		t.Errorf("UnderReplay of a token: %q", got)
	}
}
