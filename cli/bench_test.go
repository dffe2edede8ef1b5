package cli

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"locksim/scenes"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// floor is the least a transcript of the race can cost as a whole process:
// start miniredis, connect, send the four SETs, print the replies. The
// benchmarks run it (LOCKSIM_FLOOR=1) beside locksim's own -plain.
func floor() int {
	mr := miniredis.NewMiniRedis()
	if err := mr.StartAddr("127.0.0.1:0"); err != nil {
		return 1
	}
	defer mr.Close()
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer c.Close()
	for _, tok := range []string{"a", "b", "c", "d"} {
		v, err := c.SetNX(context.Background(), "resource:lock", tok, 30*time.Second).Result()
		if err != nil {
			return 1
		}
		os.Stdout.WriteString(map[bool]string{true: "OK\n", false: "(nil)\n"}[v])
	}
	return 0
}

// process times one whole run of this binary as locksim (or as the floor).
func process(b *testing.B, env string, args ...string) {
	b.Helper()
	for b.Loop() {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), env)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
}

// runOnce runs this binary once as locksim (or as the floor) and returns
// how long the process took from start to exit.
func runOnce(b *testing.B, env string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), env)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		b.Fatalf("%v: %v\n%s", args, err, out)
	}
	return took
}

// loadAverage is the machine's load average over the last minute, where the
// system says it (/proc/loadavg); -1 elsewhere.
func loadAverage() float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// BenchmarkProcess times whole processes: the floor, then -plain of every
// scene on the embedded server. ns/op is one process from start to exit.
// race-to-floor runs the floor and -plain -scene race in turn, so that
// both meet the same load on a shared machine, and reports the median of
// their ratios (x-floor; the target is 1.3) and the load average when it
// ended (load1); its ns/op is one pair.
func BenchmarkProcess(b *testing.B) {
	b.Run("floor", func(b *testing.B) { process(b, "LOCKSIM_FLOOR=1") })
	b.Run("race-to-floor", func(b *testing.B) {
		var ratios []float64
		for b.Loop() {
			floor := runOnce(b, "LOCKSIM_FLOOR=1")
			race := runOnce(b, "LOCKSIM_MAIN=1", "-plain", "-scene", "race", "-seed", "1")
			ratios = append(ratios, float64(race)/float64(floor))
		}
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "x-floor")
		b.ReportMetric(loadAverage(), "load1")
	})
	for _, sc := range scenes.All() {
		b.Run("plain-"+sc.ID, func(b *testing.B) {
			process(b, "LOCKSIM_MAIN=1", "-plain", "-scene", sc.ID, "-seed", "1")
		})
	}
}
