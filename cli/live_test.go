package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"

	"github.com/redis/go-redis/v9"
)

func client(t *testing.T, url string) *redis.Client { return simtest.Client(t, url) }

// userData is a user's keys, as DUMP and PTTL read them.
type userData map[string][2]string

// seedUserData writes keys that are not locksim's, one literally named
// resource:lock, and one with a TTL.
func seedUserData(t *testing.T, c *redis.Client) {
	ctx := context.Background()
	c.Set(ctx, "resource:lock", "the user's own lock", 0)
	c.Set(ctx, "resource:fence", "7", 0)
	c.HSet(ctx, "resource:state", "value", "user data")
	c.Set(ctx, "session:42", "alive", time.Hour)
	c.Set(ctx, "locksim", "a key named like the namespace, but not in it", 0)
}

func readUserData(t *testing.T, c *redis.Client, more ...string) userData {
	ctx := context.Background()
	out := userData{}
	for _, k := range append([]string{"resource:lock", "resource:fence", "resource:state", "session:42", "locksim"}, more...) {
		dump, err := c.Dump(ctx, k).Result()
		if err != nil {
			t.Fatalf("DUMP %s: %v", k, err)
		}
		pttl, _ := c.Do(ctx, "PTTL", k).Int64()
		// a TTL runs down while the test runs: keep only whether it has one
		out[k] = [2]string{dump, fmt.Sprint(pttl == -1)}
	}
	return out
}

// loadedTimeout is the command timeout of runs a test starts by the dozen
// in one process: with twenty at once under -race on two busy cores, a
// reply took longer than the default 400 ms, and a run gave up on its own
// keys. What such a test checks is not how long Redis takes.
const loadedTimeout = "5s"

// TestUserDataUntouched plays every scene's transcript against a server
// holding a user's keys, with the default user and with an ACL user
// limited to ~locksim:*, and compares every user key's DUMP and TTL before
// and after: nothing may change, and nothing of locksim's may remain.
func TestUserDataUntouched(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	admin := client(t, url)
	ctx := context.Background()
	// the smallest ACL the live-server guide gives, read from the guide itself
	if err := admin.Do(ctx, readmeACL(t)...).Err(); err != nil {
		t.Fatal(err)
	}
	seedUserData(t, admin)
	before := readUserData(t, admin)
	limited := strings.Replace(url, "redis://", "redis://learner:s3cret@", 1)
	var wg sync.WaitGroup
	for _, u := range []string{url, limited} {
		for _, sc := range scenes.All() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// -label: the ACL must allow the ECHO that marks each step
				code, _, errs := runMain("-plain", "-label", "-scene", sc.ID, "-seed", "1", "-scale", "400", "-timeout", loadedTimeout, "-redis", u)
				if code != 0 {
					t.Errorf("%s as %s: exit %d: %s", sc.ID, sim.Redact(u), code, errs)
				}
				if strings.Contains(errs, "s3cret") {
					t.Errorf("the password was printed: %s", errs)
				}
			}()
		}
		// the trials too, replies lost among them (the key read around a
		// lost release and at a give-up): their keys under the run's
		// prefix, gone after
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, out, errs := runMain("-trials", "20", "-loss-rate", "0.3", "-plain", "-timeout", loadedTimeout, "-redis", u)
			if code != 0 || !strings.Contains(out, "deleted by a retry") {
				t.Errorf("trials as %s: exit %d: %s\n%s", sim.Redact(u), code, errs, out)
			}
		}()
	}
	wg.Wait()
	after := readUserData(t, admin)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed: %v → %v", k, v, after[k])
		}
	}
	if keys, _ := admin.Keys(ctx, "locksim:*").Result(); len(keys) != 0 {
		t.Errorf("locksim left keys behind: %v", keys)
	}
}

// TestKilledRunIsSwept kills locksim with -9 in the middle of each story
// scene, which leaves the run's keys (some with no TTL, the lesson), its
// registration and its heartbeat. While the heartbeat lives, -cleanup
// leaves the run alone; once it has expired (the test deletes it rather
// than wait 15 s), -cleanup removes exactly the run's keys and its
// registration, and the server holds only the user's.
func TestKilledRunIsSwept(t *testing.T) {
	t.Parallel()
	for _, sc := range scenes.All() {
		if sc.ID == "race" || sc.Kind == scenes.Quiz {
			continue // one instant, or no command at all: there is no middle to kill it in
		}
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			killAndSweep(t, sc.ID)
		})
	}
}

func killAndSweep(t *testing.T, id string) {
	url := simtest.StartRedis(t)
	admin := client(t, url)
	ctx := context.Background()
	seedUserData(t, admin)
	before := readUserData(t, admin)
	cmd := exec.Command(os.Args[0], "-plain", "-scene", id, "-scale", "1", "-redis", url)
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// mid-scene: the story has written its keys and waits (at ÷1 its
	// waits are 35 s and more); crash-gap's split lock has no TTL by then
	var story []string
	heartbeat, noTTL := "", false
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		keys, _ := admin.Keys(ctx, "locksim:*").Result()
		story = story[:0]
		for _, k := range keys {
			switch {
			case strings.HasSuffix(k, ":heartbeat"):
				heartbeat = k
			case !strings.HasSuffix(k, ":preflight") && !strings.HasSuffix(k, ":registration"):
				story = append(story, k)
				if ttl, _ := admin.Do(ctx, "PTTL", k).Int64(); ttl == -1 {
					noTTL = true
				}
			}
		}
		if len(story) > 0 && (id != "crash-gap" || noTTL) {
			break
		}
	}
	if len(story) == 0 || heartbeat == "" || id == "crash-gap" && !noTTL {
		t.Fatalf("the scene never wrote its keys (%v, no TTL: %v)", story, noTTL)
	}
	time.Sleep(200 * time.Millisecond)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if ttl, _ := admin.Do(ctx, "PTTL", heartbeat).Int64(); ttl <= 0 || ttl > sim.HeartbeatTTL.Milliseconds() {
		t.Errorf("the heartbeat must expire on its own: PTTL %d", ttl)
	}
	code, out, errs := runMain("-cleanup", "-redis", url)
	if code != 0 || !strings.Contains(out, "0 keys removed") || !strings.Contains(out, "left alone (its heartbeat has not expired") {
		t.Fatalf("while the run's heartbeat lives nothing is removed: exit %d\n%s%s", code, out, errs)
	}
	admin.Del(ctx, heartbeat)
	if id == "gc-pause" || id == "fencing" {
		// the next run sweeps at start, and says so
		code, _, errs = runMain("-plain", "-scene", "race", "-redis", url)
		if code != 0 || !strings.Contains(errs, "removed") || !strings.Contains(errs, "killed") {
			t.Fatalf("the next run's start-up sweep: exit %d, stderr %q", code, errs)
		}
	} else {
		// a key the dead run left that cannot expire or be deleted before
		// -cleanup gets to it: the story moves on between the listing
		// above and the kill (a loaded machine showed the timeout scene's
		// lock gone by then), and a key with a short TTL may lapse
		lasting := ""
		keys, _ := admin.Keys(ctx, "locksim:*").Result()
		for _, k := range keys {
			if strings.HasSuffix(k, ":registration") || strings.HasSuffix(k, ":preflight") {
				continue
			}
			if ttl, _ := admin.Do(ctx, "PTTL", k).Int64(); ttl == -1 || ttl > 10_000 {
				lasting = k
				break
			}
		}
		code, out, errs = runMain("-cleanup", "-redis", url)
		if code != 0 || !strings.Contains(out, "removed, its registration last") || lasting != "" && !strings.Contains(out, " "+lasting+" ") {
			t.Fatalf("-cleanup should remove the dead run's keys (%s, of %v): exit %d\n%s%s", lasting, story, code, out, errs)
		}
	}
	if keys, _ := admin.Keys(ctx, "locksim:*").Result(); len(keys) != 0 {
		t.Errorf("keys left after -cleanup: %v", keys)
	}
	after := readUserData(t, admin)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed: %v → %v", k, v, after[k])
		}
	}
}

// TestQuitDuringStall: the server stalls (CLIENT PAUSE for 20 s) with a
// scene running; a signal makes locksim quit within about a second, say on
// stderr which keys it could not delete, and exit 1.
func TestQuitDuringStall(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	admin := client(t, url)
	ctx := context.Background()
	var stderr bytes.Buffer
	cmd := exec.Command(os.Args[0], "-plain", "-scene", "crash-gap", "-scale", "1", "-redis", url)
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if keys, _ := admin.Keys(ctx, "locksim:*:resource:lock").Result(); len(keys) > 0 {
			break
		}
	}
	if err := admin.Do(ctx, "CLIENT", "PAUSE", 20000, "ALL").Err(); err != nil {
		t.Fatal(err)
	}
	// no bound on the time it takes (a loaded machine stretches it): a
	// run that waited out the 20 s pause would clean up and exit 0
	_ = cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want 1", err)
	}
	if !strings.Contains(stderr.String(), "could not delete the keys under locksim:") || !strings.Contains(stderr.String(), "-cleanup") {
		t.Errorf("stderr should name the prefix left behind and the way out:\n%s", stderr.String())
	}
}

// TestLiveErrors: each way a live server can refuse gets its own line,
// and no line shows the password.
func TestLiveErrors(t *testing.T) {
	t.Parallel()
	locked := simtest.StartRedisArgs(t, "--requirepass", "hunter2")
	plain := simtest.StartRedis(t)
	host := strings.TrimPrefix(locked, "redis://")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-redis", locked}, "wants a password"},
		{[]string{"-redis", "redis://:wrong-hunter3@" + host}, "refused the user name or password"},
		{[]string{"-redis", strings.Replace(plain, "redis://", "rediss://", 1)}, "TLS"},
		{[]string{"-redis", strings.Replace(plain, "/0", "/99", 1)}, "has no database 99"},
		{[]string{"-redis", "redis://:hunter2@127.0.0.1:notaport/0"}, "bad Redis URL"},
	}
	for _, c := range cases {
		code, out, errs := runMain(append(c.args, "-plain", "-timeout", "300ms")...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", c.args, code, errs, c.want)
		}
		if strings.Contains(errs, "hunter") {
			t.Errorf("%v: a password was printed: %s", c.args, errs)
		}
		// -cleanup finds the same server unfit before it touches anything:
		// the same exit status, and no password either
		code, _, errs = runMain(append(c.args, "-cleanup", "-timeout", "300ms")...)
		if code != 2 || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "hunter") {
			t.Errorf("%v -cleanup: exit %d, stderr %q, want exit 2 and one line without the password", c.args, code, errs)
		}
	}
}

// readmeACL is the live-server guide's ACL SETUSER command, with the test's password.
func readmeACL(t *testing.T) []any {
	t.Helper()
	b, err := os.ReadFile("../docs/live-server.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "ACL SETUSER ")
	block, _, _ := strings.Cut(rest, "```")
	if !ok || block == "" {
		t.Fatal("docs/live-server.md gives no ACL SETUSER block")
	}
	args := []any{"ACL", "SETUSER"}
	for _, f := range strings.Fields(block) {
		if strings.HasPrefix(f, ">") {
			f = ">s3cret"
		}
		args = append(args, f)
	}
	return args
}

// TestCleanupExportKeys: -cleanup removes the keys a registered replay
// left and a registered dead run's, says "replay <id>: N keys" and why,
// leaves a live run's, and lists the keys under locksim: it did not write
// (a run's shape with no registration, the old replay shape) as not
// locksim's, left alone. It needs no more of the ACL than SCAN, GET,
// EXISTS, WATCH, MULTI, DEL and EXEC: it runs here as a user allowed only
// those.
func TestCleanupExportKeys(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	admin := client(t, url)
	ctx := context.Background()
	acl := []any{"ACL", "SETUSER", "sweeper", "on", ">s3cret", "~locksim:*", "resetchannels", "-@all", "+hello", "+scan", "+get", "+exists", "+watch", "+unwatch", "+multi", "+exec", "+del"}
	if err := admin.Do(ctx, acl...).Err(); err != nil {
		t.Fatal(err)
	}
	seedUserData(t, admin)
	notOurs := []string{"locksim:replay:resource:lock", "locksim:0000dd:resource:lock", "locksim:cleanup-check"}
	for _, k := range notOurs {
		admin.Set(ctx, k, "a user's", 0)
	}
	before := readUserData(t, admin, notOurs...)
	register := func(prefix string, keys ...string) {
		reg, val := sim.Registration(prefix, strings.Repeat("0f", 16))
		admin.Set(ctx, reg, val, 0)
		for _, k := range keys {
			admin.Set(ctx, prefix+k, "x", 0)
		}
	}
	register("locksim:replay:0000cc01:", "resource:lock", "resource:fence")
	register("locksim:0000aa:", "resource:lock")
	register("locksim:0000bb:", "resource:lock")
	admin.Set(ctx, "locksim:0000bb:heartbeat", "alive", time.Minute)
	limited := strings.Replace(url, "redis://", "redis://sweeper:s3cret@", 1)
	code, out, errs := runMain("-cleanup", "-redis", limited)
	if code != 0 {
		t.Fatalf("-cleanup as a user with the commands it needs only: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"replay 0000cc01: 3 keys removed, its registration last (registered by an exported replay",
		"run 0000aa: 2 keys removed, its registration last (registered by a locksim run whose heartbeat had expired",
		"run 0000bb: 3 keys left alone (its heartbeat has not expired",
		"not locksim's, left alone: locksim:0000dd:resource:lock (no registration locksim:0000dd:registration)\n",
		"not locksim's, left alone: locksim:replay:resource:lock (",
		"not locksim's, left alone: locksim:cleanup-check (",
		"5 keys removed, each under a registration locksim wrote",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("-cleanup should say %q:\n%s", want, out)
		}
	}
	keys, _ := admin.Keys(ctx, "locksim:0000bb:*").Result()
	if len(keys) != 3 {
		t.Errorf("the live run's keys should stay: %v", keys)
	}
	after := readUserData(t, admin, notOurs...)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed: %v → %v", k, v, after[k])
		}
	}
	// the same user without DEL gets the line that names it, exit 2 as for
	// any server found unfit before anything is touched, and nothing goes
	admin.Do(ctx, "ACL", "SETUSER", "sweeper", "-del")
	register("locksim:0000aa:", "resource:lock")
	if code, _, errs := runMain("-cleanup", "-redis", limited); code != 2 || !strings.Contains(errs, "which -cleanup needs") || !strings.Contains(errs, "'del'") {
		t.Errorf("-cleanup without DEL: exit %d, %q", code, errs)
	}
	if n, _ := admin.Exists(ctx, "locksim:0000aa:resource:lock", "locksim:0000aa:registration").Result(); n != 2 {
		t.Error("-cleanup without DEL deleted something")
	}
}

// TestTodaysFormsOnRedis7: a redis-server 7 has none of the one-command
// forms. A story asked for in one is refused in one line naming the form,
// the release that has it and the server; the whole scene's transcript
// says which stories it could not play there and plays the others.
func TestTodaysFormsOnRedis7(t *testing.T) {
	t.Parallel()
	url := simtest.StartRedis(t)
	code, out, errs := runMain("-redis", url, "-plain", "-scene", "release", "-set", "release=DELIFEQ")
	if code == 0 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "DELIFEQ needs Valkey 9.0 or later; this server is Redis 7") {
		t.Errorf("-set release=DELIFEQ on Redis 7: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// the stories of SET's new conditions: extend's renewal with GET (SET
	// … IFEQ, Valkey 8.1 has it too) and options' IFNE (Redis 8.4 only)
	for _, c := range []struct{ scene, set, line string }{
		{"extend", "story=GET after takeover", "SET … IFEQ needs Redis 8.4 or later, or Valkey 8.1 or later; this server is Redis 7"},
		{"options", "NX=IFNE", "SET … IFNE needs Redis 8.4 or later; this server is Redis 7"},
	} {
		code, out, errs := runMain("-redis", url, "-plain", "-scene", c.scene, "-set", c.set)
		if code == 0 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.line) {
			t.Errorf("-scene %s -set %s on Redis 7: exit %d, stdout %q, stderr %q", c.scene, c.set, code, out, errs)
		}
	}
	code, out, errs = runMain("-redis", url, "-plain", "-scene", "release")
	if code != 0 || errs != "" {
		t.Fatalf("-plain -scene release on Redis 7: exit %d, stderr %q", code, errs)
	}
	flat := words(out)
	for _, w := range []string{"Not played here: DELEX … IFEQ needs Redis 8.4 or later; this server is Redis 7",
		"Not played here: DELIFEQ needs Valkey 9.0 or later; this server is Redis 7", "EVAL"} {
		if !strings.Contains(flat, w) {
			t.Errorf("the transcript lacks %q", w)
		}
	}
	if strings.Contains(flat, "unknown command") {
		t.Errorf("a story sent a command the server does not have:\n%s", out)
	}
}
