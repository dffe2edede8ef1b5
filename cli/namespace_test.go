package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/transcript"

	"github.com/redis/go-redis/v9"
)

// killHeartbeat is the heartbeat's TTL in the runs this file kills, so
// that the sweep may take them within seconds rather than 15.
const killHeartbeat = 1500 * time.Millisecond

// TestNamespaceOnlyLocksims: on a server holding 1 000 keys of a user's,
// some shaped exactly like a run's, a replay's and the pre-checks' keys,
// every scene plays; runs and a redis-cli replay are killed with SIGKILL
// at points drawn from a seed; then a run's start sweep and -cleanup run.
// Every user key keeps its value and its expiry byte for byte (DUMP and
// PEXPIRETIME, the absolute expiry, which PTTL only counts down to), and
// no key locksim wrote is left. The seed is logged; LOCKSIM_KILL_SEED=N
// repeats the kill points' draw. A kill point is a seeded delay after the
// process starts, not a seeded command: where in the run a delay lands
// depends on how busy the machine is, so a seed repeats the draw, not
// the exact command a run was killed after (that would need a hook in
// the run's command path that the child reads from its environment,
// which locksim does not have).
func TestNamespaceOnlyLocksims(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("LOCKSIM_KILL_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("LOCKSIM_KILL_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d: LOCKSIM_KILL_SEED=%d go test -tags slow -run TestNamespaceOnlyLocksims . repeats it", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	url := simtest.StartRedis(t)
	admin := client(t, url)
	ctx := context.Background()
	seeded := seedThousand(t, admin, rng)
	before := dumpKeys(t, admin, seeded)

	// every scene, to its end, several at once: each sweeps at start
	// while the others run
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, sc := range scenes.All() {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if code, _, errs := runMain("-plain", "-scene", sc.ID, "-seed", "1", "-scale", "400", "-redis", url); code != 0 {
				t.Errorf("%s: exit %d: %s", sc.ID, code, errs)
			}
		})
	}
	wg.Wait()

	// runs killed at seeded points: before they register, mid-story, in
	// their Close; two at a time
	var stories []string
	for _, sc := range scenes.All() {
		if sc.Kind != scenes.Quiz {
			stories = append(stories, sc.ID)
		}
	}
	type kill struct {
		scene string
		scale int
		after time.Duration
	}
	var kills []kill
	for range 10 {
		kills = append(kills, kill{stories[rng.IntN(len(stories))], []int{1, 20, 400}[rng.IntN(3)], time.Duration(rng.IntN(2500)) * time.Millisecond})
	}
	for i, k := range kills {
		t.Logf("kill %d: %s at ÷%d after %v", i, k.scene, k.scale, k.after)
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-plain", "-scene", k.scene, "-seed", "1", "-scale", strconv.Itoa(k.scale), "-redis", url)
			cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1", "LOCKSIM_HEARTBEAT_TTL="+killHeartbeat.String())
			if err := cmd.Start(); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(k.after)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
		})
		if i%2 == 1 {
			wg.Wait()
		}
	}
	wg.Wait()

	// two replays by redis-cli: one to its end, which leaves nothing, and
	// one killed at a seeded point
	cli, err := exec.LookPath("redis-cli")
	if err == nil {
		port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
		for i, id := range []string{"fencing", "claim-lease"} {
			script := exportStory(t, id)
			cmd := exec.Command(cli, "-p", port)
			cmd.Stdin = strings.NewReader(script)
			if i == 0 {
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("redis-cli replaying %s: %v\n%s", id, err, out)
				}
				continue
			}
			after := time.Duration(rng.IntN(1500)) * time.Millisecond
			t.Logf("replay of %s killed after %v", id, after)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(after)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
		}
	} else {
		t.Log("redis-cli is not installed: no replay is tried")
	}

	// the killed runs' heartbeats expire on their own
	deadline := time.Now().Add(10 * killHeartbeat)
	for time.Now().Before(deadline) && len(liveHeartbeats(t, admin, seeded)) > 0 {
		time.Sleep(100 * time.Millisecond)
	}
	if hb := liveHeartbeats(t, admin, seeded); len(hb) > 0 {
		t.Fatalf("heartbeats of killed runs did not expire: %v", hb)
	}
	left := locksimKeys(t, admin, seeded)
	t.Logf("%d keys of killed runs and replays before the sweeps", len(left))

	// a run's start sweep: it removes the killed runs' keys, never a replay's
	code, _, errs := runMain("-plain", "-scene", "race", "-seed", "1", "-redis", url)
	if code != 0 {
		t.Fatalf("the run after the kills: exit %d: %s", code, errs)
	}
	for _, k := range left {
		if !strings.HasPrefix(k, sim.ReplayPrefix) && !strings.HasSuffix(k, ":registration") {
			if n, _ := admin.Exists(ctx, k).Result(); n > 0 && !slices.Contains(seeded, k) {
				t.Errorf("the start sweep left a killed run's %s", k)
			}
		}
	}
	var regs []string
	for _, k := range locksimKeys(t, admin, seeded) {
		if !strings.HasPrefix(k, sim.ReplayPrefix) {
			t.Errorf("after the start sweep, %s is left of a run", k)
		} else if strings.HasSuffix(k, ":registration") {
			regs = append(regs, k)
		}
	}
	if strings.Contains(errs, "replay") {
		t.Errorf("the start sweep spoke of replays: %s", errs)
	}

	code, out, errs := runMain("-cleanup", "-redis", url)
	if code != 0 {
		t.Fatalf("-cleanup: exit %d\n%s%s", code, out, errs)
	}
	for _, r := range regs {
		id := strings.TrimSuffix(strings.TrimPrefix(r, sim.ReplayPrefix), ":registration")
		if !strings.Contains(out, "replay "+id+": ") {
			t.Errorf("-cleanup should say what it removed of replay %s:\n%s", id, out)
		}
	}
	for _, k := range seeded {
		if strings.HasPrefix(k, sim.Namespace) && !strings.Contains(out, "not locksim's, left alone: "+k+" (") {
			t.Errorf("-cleanup should list %s as not locksim's:\n%s", k, out)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(l, "removed") && !strings.Contains(l, "registered by") && !strings.Contains(l, "removed, each under a registration locksim wrote") {
			t.Errorf("a line that removes without saying why: %q", l)
		}
	}

	if keys := locksimKeys(t, admin, seeded); len(keys) != 0 {
		t.Errorf("keys locksim wrote are left: %v", keys)
	}
	after := dumpKeys(t, admin, seeded)
	changed := 0
	for _, k := range seeded {
		if after[k] != before[k] {
			if changed++; changed <= 20 {
				t.Errorf("%s changed: %v → %v", k, before[k], after[k])
			}
		}
	}
	if n, _ := admin.DBSize(ctx).Result(); n != int64(len(seeded)) {
		t.Errorf("the server holds %d keys, the user wrote %d", n, len(seeded))
	}
}

// TestEveryReplayLeavesNothing: every scene's story, exported at ÷20 and
// replayed to its end by redis-cli on a live server, leaves no key: the
// replay's last command, one DEL of the keys the script names and then its
// registration, covers every key its scripts make. Two exports of one
// story register two prefixes, so two students replaying it at once do
// not delete each other's keys.
func TestEveryReplayLeavesNothing(t *testing.T) {
	t.Parallel()
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		simtest.SkipUnlessSlow(t)
		t.Skip("redis-cli is not installed: no replay is tried")
	}
	for _, sc := range scenes.All() {
		if sc.Kind == scenes.Quiz {
			continue
		}
		// each scene's replay on a server of its own, all at once: a
		// replay mostly waits out its story's time (÷20)
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			url := simtest.StartRedis(t)
			port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
			admin := client(t, url)
			admin.Set(context.Background(), "resource:lock", "the user's", 0)
			script := exportStory(t, sc.ID)
			last := script[strings.LastIndex(strings.TrimSuffix(script, "\n"), "\n")+1:]
			if !strings.HasPrefix(last, "DEL ") || strings.Contains(script, "SCAN") {
				t.Errorf("%s: the replay should end with a plain DEL and never SCAN: %s", sc.ID, last)
			}
			cmd := exec.Command(cli, "-p", port)
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("redis-cli replaying %s: %v\n%s", sc.ID, err, out)
			}
			if keys := locksimKeys(t, admin, nil); len(keys) != 0 {
				t.Errorf("%s: the replay left %v", sc.ID, keys)
			}
			if v, _ := admin.Get(context.Background(), "resource:lock").Result(); v != "the user's" {
				t.Errorf("%s: the user's resource:lock holds %q", sc.ID, v)
			}
		})
	}
	if a, b := replayID(t, exportStory(t, "fencing")), replayID(t, exportStory(t, "fencing")); a == b {
		t.Errorf("two exports of one story share replay %s", a)
	}
}

// seedThousand writes 1 000 keys of a user's, of every type, some with
// an expiry an hour or more away and some with none: among them keys under
// locksim: shaped exactly like a run's (story keys, a heartbeat, a
// preflight key, registrations that are not in locksim's shape), like a
// replay's, old and new, and like the pre-checks' names. It returns their
// names.
func seedThousand(t *testing.T, c *redis.Client, rng *rand.Rand) []string {
	t.Helper()
	ctx := context.Background()
	hex := func(n int) string { return fmt.Sprintf("%0*x", n, rng.Uint64()&(1<<(4*n)-1)) }
	var keys []string
	str := func(k, v string) {
		if err := c.Set(ctx, k, v, 0).Err(); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	for range 5 {
		run := sim.Namespace + hex(6) + ":"
		str(run+"resource:lock", "the user's, shaped like a run's")
		str(run+"resource:fence", "33")
		str(run+"heartbeat", "2026-01-01T09:00:00Z")
		str(run+"preflight", "1")
		replay := sim.ReplayKeyPrefix(hex(8))
		str(replay+"resource:lock", "the user's, shaped like a replay's")
		str(replay+"emq:{q}:job:1", "x")
	}
	// registrations a user wrote, not in locksim's shape
	run := sim.Namespace + hex(6) + ":"
	str(run+"resource:lock", "x")
	str(run+"registration", "hello")
	run2 := sim.Namespace + hex(6) + ":"
	str(run2+"resource:lock", "x")
	str(run2+"registration", run+" "+strings.Repeat("ab", 16)) // names another prefix
	replay := sim.ReplayKeyPrefix(hex(8))
	str(replay+"resource:lock", "x")
	str(replay+"registration", replay+" not a nonce")
	for _, k := range []string{"locksim:replay:resource:lock", "locksim:replay:resource:fence", "locksim:cleanup-check",
		"locksim:cleanup-check:" + hex(16) + hex(16), "locksim", "locksim:", "locksim:registration", "locksim:replay:"} {
		str(k, "the user's")
	}
	state := sim.Namespace + hex(6) + ":resource:state"
	if err := c.HSet(ctx, state, "value", "user data").Err(); err != nil {
		t.Fatal(err)
	}
	keys = append(keys, state)
	for _, k := range keys {
		if rng.IntN(2) == 0 {
			c.PExpire(ctx, k, time.Hour+time.Duration(rng.IntN(3600000))*time.Millisecond)
		}
	}
	// the rest, outside the namespace, of every type
	for i := 0; len(keys) < 1000; i++ {
		k := fmt.Sprintf("user:%d:%s", i, []string{"s", "h", "l", "z", "set"}[i%5])
		var err error
		switch {
		case i == 0:
			k = "resource:lock" // the name every story locks
			err = c.Set(ctx, k, "the user's own lock", 0).Err()
		case i%5 == 0:
			err = c.Set(ctx, k, fmt.Sprint(rng.Uint64()), 0).Err()
		case i%5 == 1:
			err = c.HSet(ctx, k, "a", i, "b", "x").Err()
		case i%5 == 2:
			err = c.RPush(ctx, k, i, i+1).Err()
		case i%5 == 3:
			err = c.ZAdd(ctx, k, redis.Z{Score: float64(i), Member: "m"}).Err()
		default:
			err = c.SAdd(ctx, k, i, "y").Err()
		}
		if err != nil {
			t.Fatal(err)
		}
		if rng.IntN(3) == 0 {
			c.PExpire(ctx, k, time.Hour+time.Duration(rng.IntN(3600000))*time.Millisecond)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// dumpKeys is each key's DUMP and absolute expiry (PEXPIRETIME: -1 for
// none), which a key keeps byte for byte unless something changed it.
func dumpKeys(t *testing.T, c *redis.Client, keys []string) map[string][2]string {
	t.Helper()
	ctx := context.Background()
	out := map[string][2]string{}
	p := c.Pipeline()
	dumps := make([]*redis.StringCmd, len(keys))
	exp := make([]*redis.Cmd, len(keys))
	for i, k := range keys {
		dumps[i] = p.Dump(ctx, k)
		exp[i] = p.Do(ctx, "PEXPIRETIME", k)
	}
	_, _ = p.Exec(ctx)
	for i, k := range keys {
		d, err := dumps[i].Result()
		if err != nil {
			d = "error: " + err.Error()
		}
		e, _ := exp[i].Int64()
		out[k] = [2]string{d, strconv.FormatInt(e, 10)}
	}
	return out
}

// locksimKeys is every key under locksim: the user did not write.
func locksimKeys(t *testing.T, c *redis.Client, seeded []string) []string {
	t.Helper()
	var out []string
	iter := c.Scan(context.Background(), 0, sim.Namespace+"*", 1000).Iterator()
	for iter.Next(context.Background()) {
		if k := iter.Val(); !slices.Contains(seeded, k) {
			out = append(out, k)
		}
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// liveHeartbeats are the heartbeats of runs the user did not write.
func liveHeartbeats(t *testing.T, c *redis.Client, seeded []string) []string {
	var out []string
	for _, k := range locksimKeys(t, c, seeded) {
		if strings.HasSuffix(k, ":heartbeat") {
			out = append(out, k)
		}
	}
	return out
}

// exportStory is the scene's story on the embedded server, played to its
// end, as the y key exports it at ÷20: a redis-cli script of a few seconds.
func exportStory(t *testing.T, id string) string {
	t.Helper()
	ctx := context.Background()
	b := simtest.Embedded(t)
	sc := scenes.Find(id)
	s, err := play.Open(ctx, play.Position{Version: play.PositionVersion, Scene: sc.ID, Seed: 1}, play.Env{Backend: b, ID: 1, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	d := play.Driver{S: s}
	d.Run(s.Start(nil))
	d.Run(s.SeekTo(len(s.Snap.Moves)))
	return transcript.RedisCLIScript(s.Snap, 20, false)
}

// replayID is the id of the replay a script registers with its first line.
func replayID(t *testing.T, script string) string {
	t.Helper()
	first, _, _ := strings.Cut(script, "\n")
	f := strings.Fields(first)
	if len(f) < 2 || !strings.HasPrefix(f[1], sim.ReplayPrefix) {
		t.Fatalf("the script does not start with its registration: %q", first)
	}
	return strings.TrimSuffix(strings.TrimPrefix(f[1], sim.ReplayPrefix), ":registration")
}
