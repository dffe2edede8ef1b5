//go:build linux

package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"locksim/play"
	"locksim/serve/termtest"
	"locksim/storycode"

	gossh "golang.org/x/crypto/ssh"
)

// The served benchmarks' sizes. The figures are for 60 sessions
// and 30 idle seconds; the idle window is 2 s unless asked, and CI's
// smoke (-short -benchtime=1x) takes 10 sessions and half a second, each
// through the same code (sessions and idleWindow):
//
//	go test ./cli -run '^$' -bench Served -benchtime 30x -locksim.idle 30s
var (
	benchSessions = flag.Int("locksim.sessions", 60, "the served benchmarks' sessions")
	benchIdle     = flag.Duration("locksim.idle", 2*time.Second, "BenchmarkServedIdle's idle window")
	benchHogs     = flag.Int("locksim.hogs", 0, "CPU hogs (processes that spin, one core each) beside BenchmarkServedFollow, as CI's soak runs it")
)

// sessions is the served benchmarks' class: -locksim.sessions, at most
// 10 under -short.
func sessions() int {
	if testing.Short() {
		return min(*benchSessions, 10)
	}
	return *benchSessions
}

// idleWindow is -locksim.idle, at most half a second under -short.
func idleWindow() time.Duration {
	if testing.Short() {
		return min(*benchIdle, 500*time.Millisecond)
	}
	return *benchIdle
}

// A hog (LOCKSIM_HOG=1) spins until it is killed: a core the machine
// does not have, as `yes > /dev/null` takes one.
func init() {
	if os.Getenv("LOCKSIM_HOG") != "1" {
		return
	}
	for {
	}
}

// startHogs starts n hogs, each a process of this binary; stop kills
// them (and the benchmark's end, if it was not called).
func startHogs(b *testing.B, n int) (stop func()) {
	var cmds []*exec.Cmd
	stop = func() {
		for _, cmd := range cmds {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		cmds = nil
	}
	b.Cleanup(stop)
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), "LOCKSIM_HOG=1")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	return stop
}

// A server process the benchmarks start (LOCKSIM_MAIN=1 with
// LOCKSIM_BENCH_SIGNALS=1) answers SIGUSR1 with its live heap after a
// collection and SIGUSR2 with debug.FreeOSMemory, each with a line on its
// stderr: the benchmark reads the process's RSS from /proc itself.
func init() {
	if os.Getenv("LOCKSIM_MAIN") != "1" || os.Getenv("LOCKSIM_BENCH_SIGNALS") != "1" {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		for s := range sig {
			if s == syscall.SIGUSR2 {
				debug.FreeOSMemory()
				fmt.Fprintln(os.Stderr, "locksim-bench: freed")
				continue
			}
			runtime.GC()
			runtime.GC()
			m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/cpu/classes/scavenge/total:cpu-seconds"}}
			metrics.Read(m)
			fmt.Fprintf(os.Stderr, "locksim-bench: heap %d scavenge %g\n", m[0].Value.Uint64(), m[1].Value.Float64())
		}
	}()
}

// served is locksim -serve in a process of its own (this binary as
// locksim), so that its CPU time and RSS are its own and not the clients'.
type served struct {
	pid     int
	addr    string
	teacher gossh.Signer
	mu      sync.Mutex
	closed  int           // sessions the server logged as closed
	said    chan string   // the bench signals' lines
	changed chan struct{} // a signal after each line
}

var servingOn = regexp.MustCompile(`serving the course on (\S+) \(`)

// startServed starts the server with room for sessions students and an
// instructor whose key is s.teacher, no idle limit, and flags after
// those, and stops it at the end of the benchmark.
func startServed(b *testing.B, sessions int, flags ...string) *served {
	b.Helper()
	dir := b.TempDir()
	s := &served{teacher: termtest.NewKey(b), said: make(chan string, 4), changed: make(chan struct{}, 1)}
	instructors := filepath.Join(dir, "instructors")
	if err := os.WriteFile(instructors, gossh.MarshalAuthorizedKey(s.teacher.PublicKey()), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-serve", "127.0.0.1:0", "-host-key", filepath.Join(dir, "host_ed25519"),
		"-serve-dir", filepath.Join(dir, "state"), "-instructors", instructors,
		"-max-sessions", strconv.Itoa(sessions+8), "-idle", "0")
	cmd.Args = append(cmd.Args, flags...)
	cmd.Env = append(os.Environ(), "LOCKSIM_MAIN=1", "LOCKSIM_BENCH_SIGNALS=1")
	errOut, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s.pid = cmd.Process.Pid
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case servingOn.MatchString(line):
				addr <- servingOn.FindStringSubmatch(line)[1]
			case strings.HasPrefix(line, "locksim-bench: "):
				s.said <- strings.TrimPrefix(line, "locksim-bench: ")
			case strings.Contains(line, " closed after "):
				s.mu.Lock()
				s.closed++
				s.mu.Unlock()
			}
			select {
			case s.changed <- struct{}{}:
			default:
			}
		}
		_, _ = io.Copy(io.Discard, errOut)
	}()
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(termtest.Hang):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	select {
	case s.addr = <-addr:
	case <-time.After(termtest.Hang):
		b.Fatal("the server never said where it serves")
	}
	return s
}

// ask sends sig and returns the server's line in answer.
func (s *served) ask(b *testing.B, sig os.Signal) string {
	b.Helper()
	if err := syscall.Kill(s.pid, sig.(syscall.Signal)); err != nil {
		b.Fatal(err)
	}
	select {
	case line := <-s.said:
		return line
	case <-time.After(termtest.Hang):
		b.Fatalf("the server did not answer %v", sig)
	}
	return ""
}

// heap is the server's live heap in bytes after a collection, and the
// CPU time its runtime has spent so far giving memory back to the system
// (runtime/metrics' estimate).
func (s *served) heap(b *testing.B) (uint64, time.Duration) {
	line := s.ask(b, syscall.SIGUSR1)
	var heap uint64
	var scav float64
	if _, err := fmt.Sscanf(line, "heap %d scavenge %g", &heap, &scav); err != nil {
		b.Fatalf("the server's heap: %q: %v", line, err)
	}
	return heap, time.Duration(scav * float64(time.Second))
}

func (s *served) rss(b *testing.B) uint64 {
	n, err := termtest.ProcRSS(s.pid)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func (s *served) cpu(b *testing.B) time.Duration {
	d, err := termtest.ProcCPU(s.pid)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// waitClosed waits until the server has logged n sessions closed.
func (s *served) waitClosed(b *testing.B, n int) {
	deadline := time.After(termtest.Hang)
	for {
		s.mu.Lock()
		got := s.closed
		s.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-s.changed:
		case <-deadline:
			b.Fatalf("%d of %d sessions closed", got, n)
		}
	}
}

// idle waits out the idle window (-locksim.idle) with no key, and returns
// the server's CPU time in it, its length, and the bytes terms got.
func (s *served) idle(b *testing.B, terms []*termtest.Light) (cpu, took time.Duration, sent int) {
	for _, lt := range terms {
		sent -= lt.Bytes()
	}
	cpu0, at := s.cpu(b), time.Now()
	time.Sleep(idleWindow())
	cpu, took = s.cpu(b)-cpu0, time.Since(at)
	for _, lt := range terms {
		sent += lt.Bytes()
	}
	return cpu, took, sent
}

// counter is the bar's step counter at step i of fencing, before its
// question (termtest.FencingBar).
func counter(i int) string { return termtest.FencingBar(i) }

// openStudent connects a fresh key as user, gives the name the server
// asks for, and opens the fencing story (ssh -t HOST story CODE) at
// seed; the client is returned for closing.
func openStudent(b *testing.B, addr, user string, seed uint64) (*termtest.Light, *gossh.Client) {
	b.Helper()
	code, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	c := termtest.Dial(b, addr, user, termtest.NewKey(b))
	lt := termtest.OpenLight(b, c, 100, 30, "story "+code)
	if !lt.Wait(b, "Your name") {
		b.FailNow()
	}
	lt.Mark()
	_, _ = io.WriteString(lt.In, user+"\r")
	if !lt.Wait(b, counter(0)) {
		b.FailNow()
	}
	return lt, c
}

// quiet waits until no terminal has been sent a byte for a second: the
// screens have settled.
func quiet(terms []*termtest.Light) {
	total := func() (n int) {
		for _, lt := range terms {
			n += lt.Bytes()
		}
		return n
	}
	for last := -1; ; {
		n := total()
		if n == last {
			return
		}
		last = n
		time.Sleep(time.Second)
	}
}

// load1 is the one-minute load average (/proc/loadavg).
func load1(b *testing.B) float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		b.Fatal(err)
	}
	f, err := strconv.ParseFloat(strings.Fields(string(raw))[0], 64)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkServedSteps: locksim -serve in a process of its own; 60
// students on the fencing story, each stepping once a second, forth and
// back (each op a round: one step of each student). p95-ms and p50-ms are from a key sent to the new
// step counter received at the client; load is the one-minute load
// average at the end (the clients run on the same two cores).
//
//	go test ./cli -run '^$' -bench ServedSteps -benchtime 30x
func BenchmarkServedSteps(b *testing.B) {
	s := startServed(b, sessions())
	terms := make([]*termtest.Light, sessions())
	for i := range terms {
		terms[i], _ = openStudent(b, s.addr, fmt.Sprintf("s%d", i), uint64(i+1))
	}
	quiet(terms)
	// one round a second: every student steps once, spread over it
	var latencies []time.Duration
	for k := 0; b.Loop(); k++ {
		latencies = append(latencies, termtest.Steps(b, terms, 1, func(int, int) (string, string) {
			if k%2 == 1 {
				return "\x1b[D", counter(0) // ←
			}
			return "\x1b[C", counter(1) // →
		})...)
	}
	slices.Sort(latencies)
	p95, p50 := termtest.Percentile(latencies, 95), termtest.Percentile(latencies, 50)
	load := load1(b)
	b.Logf("%d students, %d steps: p95 %v, p50 %v, load %.2f", len(terms), len(latencies), p95, p50, load)
	b.ReportMetric(termtest.Millis(p95), "p95-ms")
	b.ReportMetric(termtest.Millis(p50), "p50-ms")
	b.ReportMetric(load, "load")
	b.ReportMetric(0, "ns/op")
}

var openedClass = regexp.MustCompile(`class ([a-z2-9]{5}) \(`)

// BenchmarkServedFollow: locksim -serve in a process of its own; an
// instructor opens a class on the fencing story and 60 students follow;
// the instructor steps once a second, forth and back (each op one step). p95-ms
// is over every follower's time from the instructor's key sent to the new
// step counter on that follower's screen; all-p95-ms is the 95th
// percentile of the time until the last of the 60 showed it (the
// fan-out); cpu-ms/step is the server's CPU time over the steps, a step's
// share (the clients' and other processes' are not in it); load is the
// one-minute load average after the steps, and hogs the CPU hogs
// -locksim.hogs ran beside them. Then, with the class
// idle for the idle window (-locksim.idle), the server's CPU and the
// bytes sent, as BenchmarkServedIdle measures them.
//
//	go test ./cli -run '^$' -bench ServedFollow -benchtime 30x -locksim.hogs 1
func BenchmarkServedFollow(b *testing.B) {
	s := startServed(b, sessions())
	teach := termtest.OpenLight(b, termtest.Dial(b, s.addr, "prof", s.teacher), 100, 30, "")
	if !teach.Wait(b, "Your name") {
		b.FailNow()
	}
	_, _ = io.WriteString(teach.In, "Prof\r")
	if !teach.Wait(b, "l shows the class") {
		b.FailNow()
	}
	m := openedClass.FindStringSubmatch(teach.Text())
	if m == nil {
		b.Fatalf("no class code on the instructor's screen: %q", teach.Text())
	}
	code := m[1]
	teach.Mark()
	_, _ = io.WriteString(teach.In, "/fencing\r")
	if !teach.Wait(b, counter(0)) {
		b.FailNow()
	}
	teach.Mark()
	_, _ = io.WriteString(teach.In, "F")
	if !teach.Wait(b, "the class is asked to follow") {
		b.FailNow()
	}
	terms := make([]*termtest.Light, sessions())
	for i := range terms {
		lt := termtest.OpenLight(b, termtest.Dial(b, s.addr, code, termtest.NewKey(b)), 100, 30, "")
		if !lt.Wait(b, "Your name") {
			b.FailNow()
		}
		lt.Mark()
		_, _ = io.WriteString(lt.In, fmt.Sprintf("s%d\r", i))
		if !lt.Wait(b, "F follows") {
			b.FailNow()
		}
		lt.Mark()
		_, _ = io.WriteString(lt.In, "F")
		if !lt.Wait(b, counter(0)) {
			b.FailNow()
		}
		terms[i] = lt
	}
	quiet(append(terms, teach))
	stopHogs := startHogs(b, *benchHogs)

	var each, all []time.Duration
	cpu0 := s.cpu(b)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for k := 0; b.Loop(); k++ {
		key, want := "\x1b[C", counter(1)
		if k%2 == 1 {
			key, want = "\x1b[D", counter(0)
		}
		for _, lt := range terms {
			lt.Mark()
		}
		sent := time.Now()
		_, _ = io.WriteString(teach.In, key)
		got := make([]time.Duration, len(terms))
		var wg sync.WaitGroup
		for i, lt := range terms {
			wg.Go(func() {
				if lt.Wait(b, want) {
					got[i] = time.Since(sent)
				}
			})
		}
		wg.Wait()
		last := time.Duration(0)
		for _, d := range got {
			if d > 0 {
				each = append(each, d)
				last = max(last, d)
			}
		}
		all = append(all, last)
		<-tick.C
	}
	slices.Sort(each)
	slices.Sort(all)
	stepCPU := (s.cpu(b) - cpu0) / time.Duration(max(len(all), 1))
	load := load1(b)
	stopHogs()
	// the class idle: the followers' seats beat once a second each
	b.StopTimer()
	quiet(append(terms, teach))
	cpu, took, sent := s.idle(b, append(terms, teach))
	pct := 100 * cpu.Seconds() / took.Seconds()
	b.Logf("an instructor and %d followers, %d steps: p95 %v to each follower, p95 %v to all of them (the fan-out), server CPU %v a step, load %.2f with %d CPU hogs; then idle for %v: server CPU %.2f%% of a core, %d bytes sent",
		len(terms), len(all), termtest.Percentile(each, 95), termtest.Percentile(all, 95), stepCPU.Round(time.Millisecond), load, *benchHogs, took.Round(time.Millisecond), pct, sent)
	b.ReportMetric(pct, "idle-cpu-%")
	b.ReportMetric(float64(sent), "idle-bytes")
	b.ReportMetric(termtest.Millis(termtest.Percentile(each, 95)), "p95-ms")
	b.ReportMetric(termtest.Millis(termtest.Percentile(all, 95)), "all-p95-ms")
	b.ReportMetric(load, "load")
	b.ReportMetric(termtest.Millis(stepCPU), "cpu-ms/step")
	b.ReportMetric(float64(*benchHogs), "hogs")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkServedIdle: locksim -serve in a process of its own with 60
// students on the fencing story, idle. It reports the server's RSS and
// live heap per session (60 open minus none, over 60); over the idle
// window (-locksim.idle, 2 s unless asked) the server's CPU time as a
// percentage of one core and the bytes the clients got; once every
// session has closed, the RSS left, then after debug.FreeOSMemory.
//
//	go test ./cli -run '^$' -bench ServedIdle -benchtime 1x -locksim.idle 30s
func BenchmarkServedIdle(b *testing.B) {
	const mib = 1 << 20
	n := sessions()
	for b.Loop() {
		// the measure below runs once whatever -benchtime says, after the
		// loop: b.Loop's start drops the metrics reported before it
	}
	{
		s := startServed(b, n)
		// one session first, closed: the code every session runs is paged
		// in before the baseline is read
		lt, c := openStudent(b, s.addr, "warm", 1)
		quiet([]*termtest.Light{lt})
		c.Close()
		s.waitClosed(b, 1)
		rss0 := s.rss(b)
		heap0, _ := s.heap(b)

		terms := make([]*termtest.Light, n)
		clients := make([]*gossh.Client, n)
		for i := range terms {
			terms[i], clients[i] = openStudent(b, s.addr, fmt.Sprintf("s%d", i), uint64(i+1))
		}
		quiet(terms)
		rss := s.rss(b)
		heap, scav0 := s.heap(b)

		cpu, took, sent := s.idle(b, terms)
		_, scav := s.heap(b)
		scav -= scav0
		load := load1(b)

		for _, c := range clients {
			c.Close()
		}
		s.waitClosed(b, n+1)
		time.Sleep(time.Second) // the sessions' last goroutines end
		rssClosed := s.rss(b)
		s.ask(b, syscall.SIGUSR2)
		rssFreed := s.rss(b)

		pct, scavPct := 100*cpu.Seconds()/took.Seconds(), 100*scav.Seconds()/took.Seconds()
		b.Logf("%d idle sessions for %v: server CPU %.2f%% of a core (%.2f%% the runtime giving memory back), %d bytes sent, load %.2f; RSS %.2f MiB a session (heap %.2f MiB), %.1f MiB with none, %.1f MiB after they closed, %.1f MiB after FreeOSMemory",
			n, took.Round(time.Millisecond), pct, scavPct, sent, load, float64(rss-rss0)/mib/float64(n), float64(heap-min(heap0, heap))/mib/float64(n),
			float64(rss0)/mib, float64(rssClosed)/mib, float64(rssFreed)/mib)
		b.ReportMetric(pct, "idle-cpu-%")
		b.ReportMetric(scavPct, "idle-scavenge-cpu-%")
		b.ReportMetric(float64(sent), "idle-bytes")
		b.ReportMetric(float64(rss-rss0)/mib/float64(n), "rss-MiB/session")
		b.ReportMetric(float64(heap-min(heap0, heap))/mib/float64(n), "heap-MiB/session")
		b.ReportMetric(float64(rss0)/mib, "rss-none-MiB")
		b.ReportMetric(float64(rssClosed)/mib, "rss-closed-MiB")
		b.ReportMetric(float64(rssFreed)/mib, "rss-freed-MiB")
		b.ReportMetric(load, "load")
	}
	b.ReportMetric(0, "ns/op")
}
