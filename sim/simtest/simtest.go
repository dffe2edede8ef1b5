// Package simtest starts a real redis-server for tests of the live path,
// and sorts tests into the two tiers.
//
// The quick tier, go test -race ./..., starts no redis-server and no
// fresh build of the program: StartServer (and so StartRedis, OnBoth's
// live half) and SkipUnlessSlow skip there. The slow tier, go test -race
// -tags slow ./..., runs only the tests the quick tier skipped a part of:
// a test that uses StartRedis, StartServer, SkipUnlessSlow, OnBoth, Slow,
// InTier or QuickOnly, in its body or through a helper of its package's
// test files, is a slow-tier test, and every other test is skipped there
// by its package's TestMain (testmain.Run, which every test package calls;
// its tier.go says how it reads the files). Within a slow-tier test, what
// the quick tier already ran skips in the slow tier: OnBoth's embedded
// half, a subtest that calls QuickOnly, a sweep's sample taken by InTier.
// Neither tier runs a test twice, and a test is in the slow tier because
// of the very call that makes it skip in the quick one.
package simtest

import (
	"context"
	"flag"
	"fmt"
	"locksim/sim"
	"locksim/sim/simtest/testmain"
	"net"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// StartRedis starts redis-server on a free 127.0.0.1 port with persistence
// off, waits until it answers PING and stops it when the test ends. It
// returns the server's URL. Without a redis-server binary on PATH the test
// is skipped with a message that says how to get one.
func StartRedis(t testing.TB) string {
	t.Helper()
	return StartServer(t).URL
}

// StartRedisArgs is StartRedis with more redis-server arguments (for
// example "--requirepass", "secret"). It waits for the server to accept
// connections, whatever it then answers.
func StartRedisArgs(t testing.TB, args ...string) string {
	t.Helper()
	return StartServer(t, args...).URL
}

// SkipUnlessSlow skips a test that belongs to the slower tier (a live
// server, a fresh process, a long walk) when the tests run without
// -tags slow, and says how to run it.
func SkipUnlessSlow(t testing.TB) {
	t.Helper()
	if Slow {
		return
	}
	// the slow tier skips every test its TestMain's reading of the test
	// files did not pick: a test that gets here unpicked would run in
	// neither tier
	if slow, read := testmain.SlowTest(t.Name()); !read {
		t.Fatalf("simtest: %s needs the slow tier, but its package's TestMain does not call testmain.Run, which picks the slow tier's tests", t.Name())
	} else if !slow {
		t.Fatalf("simtest: %s reaches the slow tier by a path the slow tier's reading of its package cannot see (through another package?), so it would run in neither tier: call simtest.SkipUnlessSlow(t) in the test itself", t.Name())
	}
	t.Skip("slow tier: run go test -race -tags slow ./... for the live-server and long tests")
}

// Slow is true in the slow tier (built with -tags slow).
const Slow = testmain.Slow

// QuickOnly skips, in the slow tier, a part of a slow-tier test that the
// quick tier has already run.
func QuickOnly(t testing.TB) {
	t.Helper()
	if Slow {
		t.Skip(quickRan)
	}
}

// quickRan is the skip message of a part the quick tier ran: .ci/skipped
// counts these rather than listing them.
const quickRan = "quick tier: go test -race ./... ran this"

// InTier reports whether a case of a sweep runs in this tier, given
// whether it is in the quick tier's sample: the quick tier runs the
// sample, the slow tier every other case, so none runs twice.
func InTier(inSample bool) bool { return inSample != Slow }

// Server is a redis-server a test can stop and start again on its port.
type Server struct {
	URL  string
	t    testing.TB
	bin  string
	port int
	args []string
	cmd  *exec.Cmd
}

// StartServer starts a redis-server like StartRedis, with args, and
// returns it so the test can Stop and Start it again.
func StartServer(t testing.TB, args ...string) *Server {
	t.Helper()
	SkipUnlessSlow(t)
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed, so the live-server test is skipped (apt-get install redis-server)")
	}
	return startBinary(t, bin, args)
}

// startBinary starts the server binary bin (redis-server, valkey-server)
// on a free port with args.
func startBinary(t testing.TB, bin string, args []string) *Server {
	t.Helper()
	s := &Server{t: t, bin: bin, args: args}
	t.Cleanup(s.Stop)
	// a free port can be taken by another test's server between our
	// asking for it and redis-server binding it: then try another
	for try := 0; try < 10; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("no free port: %v", err)
		}
		s.port = l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		s.URL = fmt.Sprintf("redis://127.0.0.1:%d/0", s.port)
		if s.start() {
			return s
		}
	}
	t.Fatalf("could not start a %s of this test's own", bin)
	return nil
}

// Start starts the server (again), empty, on its port, and waits until it
// answers.
func (s *Server) Start() {
	s.t.Helper()
	if !s.start() {
		s.t.Fatalf("redis-server on port %d did not start", s.port)
	}
}

// start runs redis-server and waits until the process answering on the
// port is this one (INFO's process_id); false if it is another's or none.
func (s *Server) start() bool {
	s.cmd = exec.Command(s.bin, append([]string{"--port", fmt.Sprint(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no"}, s.args...)...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start %s: %v", s.bin, err)
	}
	opts := &redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", s.port), DisableIdentity: true}
	for i, a := range s.args {
		if a == "--requirepass" && i+1 < len(s.args) {
			opts.Password = s.args[i+1]
		}
	}
	c := redis.NewClient(opts)
	defer c.Close()
	pid := fmt.Sprintf("process_id:%d", s.cmd.Process.Pid)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		info, err := c.Info(context.Background(), "server").Result()
		if err == nil && strings.Contains(info, pid) {
			return true
		}
		if err == nil {
			break // another test's server holds the port
		}
	}
	s.Stop()
	return false
}

// Stop kills the server, as a crash would.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		s.cmd = nil
	}
}

// LiveTimeout is the per-command timeout (and so the dial timeout) of a
// test's live backend when no timeout is what the test checks. The
// default, sim.DefaultTimeout (400 ms), suits a learner's loopback server,
// but a test shares its wall clock with whatever else runs on the machine:
// at a load of 10 or more on two cores a dial or a reply took longer, and
// a story failed with "cannot reach Redis … context deadline exceeded"
// that no reply of the server's caused. A test that waits for a reply
// waits for the reply, not against a clock the load runs down, so this
// bound is one a loaded machine does not reach; it still ends a test
// whose server is truly wedged. The sim's other real-clock bounds on the
// live path follow it (a heartbeat's beat and the cleanup allow it plus
// 1 s, the forms probe three times it plus 2 s).
const LiveTimeout = 10 * time.Second

// LiveOptions are the options of a test's live backend at the given scale,
// with LiveTimeout as its command timeout: every test that opens a live
// server uses them, unless a client's timeout is what it checks (a stall
// the client must give up on: then it sets its own, and says why).
func LiveOptions(scale int) sim.LiveOptions {
	return sim.LiveOptions{Scale: scale, Timeout: LiveTimeout}
}

// Client is a client of the server at url, closed when the test ends.
func Client(t testing.TB, url string) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.DisableIdentity = true
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

// Keys lists every key on the server at url (KEYS *: a test's own server),
// sorted.
func Keys(t testing.TB, url string) []string {
	t.Helper()
	keys, err := Client(t, url).Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(keys)
	return keys
}

// Embedded opens an embedded server (miniredis with locksim's clock) for a
// test and closes it when the test ends.
func Embedded(t testing.TB) *sim.Backend {
	t.Helper()
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	return b
}

// OnBoth runs check against an embedded server in the quick tier and
// against a redis-server of its own, with story time divided by scale, in
// the slow tier (skipped with a message without the binary). The test
// itself runs in parallel with the others: live stories wait in real time,
// and the embedded walks use the CPU meanwhile.
func OnBoth(t *testing.T, scale int, check func(t *testing.T, b *sim.Backend)) {
	t.Parallel()
	t.Run("embedded", func(t *testing.T) {
		QuickOnly(t)
		t.Parallel()
		check(t, Embedded(t))
	})
	t.Run("live", func(t *testing.T) {
		t.Parallel()
		url := StartRedis(t)
		// a loaded machine's slow reply must not become a client timeout
		b, err := sim.OpenLive(context.Background(), url, LiveOptions(scale))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close(context.Background()) })
		check(t, b)
	})
}

// Commands returns the command events of the given actor and step label
// ("" matches any), in order.
func Commands(events []sim.Event, actor, step string) []sim.Event {
	var out []sim.Event
	for _, e := range events {
		if e.Kind == sim.Command && (actor == "" || e.Actor == actor) && (step == "" || e.Step == step) {
			out = append(out, e)
		}
	}
	return out
}

// LastOf returns the last event of Commands(events, actor, step), if any.
func LastOf(events []sim.Event, actor, step string) (sim.Event, bool) {
	c := Commands(events, actor, step)
	if len(c) == 0 {
		return sim.Event{}, false
	}
	return c[len(c)-1], true
}

// Sent returns the command events of actor whose command is cmd (SET,
// PTTL, EVAL, SETNX...), in order.
func Sent(events []sim.Event, actor, cmd string) []sim.Event {
	var out []sim.Event
	for _, e := range events {
		if e.Kind == sim.Command && e.Actor == actor && len(e.Args) > 0 && e.Args[0] == cmd {
			out = append(out, e)
		}
	}
	return out
}

// ParallelLive lets more parallel tests run at once than there are cores
// (unless -parallel was given): the live-server tests spend most of their
// time waiting for story time to pass, not on the CPU. Call it from
// TestMain, before m.Run.
func ParallelLive() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "16")
	}
}
