package race_test

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"locksim/race"
	"locksim/sim"
	"locksim/sim/simtest"
)

// pool is the trials' pool on b: lanes of four connections, a key each.
func pool(b *sim.Backend, lanes int) race.Pool {
	return race.Pool{Lanes: lanes, Conn: b.NewConn, Admin: b.Admin(), Key: func(i int) string { return b.Key(fmt.Sprintf("bench:%d", i)) }}
}

// runTrials runs b.N trials of v and reports trials/s and every command
// sent per second (PINGs, DELs and PTTLs included).
func runTrials(b *testing.B, be *sim.Backend, v race.Variant) float64 {
	tr, err := race.New(pool(be, 8), race.DefaultConfig(1))
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	b.ResetTimer()
	c, err := tr.Run(context.Background(), v, b.N, nil)
	if err != nil {
		b.Fatal(err)
	}
	cmds := float64(c.Commands) / c.Took.Seconds()
	b.ReportMetric(float64(c.Trials)/c.Took.Seconds(), "trials/s")
	b.ReportMetric(cmds, "cmds/s")
	return cmds
}

// setRate is redis-benchmark's SET rate against the server at url with as
// many clients as the trials open (8 lanes of 4), the median of three runs:
// the server's limit on this machine. 0 if redis-benchmark is not installed.
func setRate(b *testing.B, url string) float64 {
	bin, err := exec.LookPath("redis-benchmark")
	if err != nil {
		return 0
	}
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	var rates []float64
	for range 3 {
		out, err := exec.Command(bin, "-p", port, "-t", "set", "-c", "32", "-n", "50000", "-q").CombinedOutput()
		if err != nil {
			b.Fatalf("redis-benchmark: %v\n%s", err, out)
		}
		// "SET: 81699.35 requests per second, p50=…"
		f := strings.Fields(strings.TrimSpace(string(out[strings.LastIndex(string(out), "SET:"):])))
		rate, _ := strconv.ParseFloat(f[1], 64)
		rates = append(rates, rate)
	}
	slices.Sort(rates)
	return rates[1]
}

// BenchmarkTrials runs trials of every variant on an embedded server (keys
// on the real clock) and on a local redis-server; on the latter it also
// runs redis-benchmark -t set -c 4 and reports locksim's commands per
// second as a fraction of it.
func BenchmarkTrials(b *testing.B) {
	for _, v := range race.Variants() {
		b.Run("embedded/"+strings.ReplaceAll(v.String(), " ", ""), func(b *testing.B) {
			be, err := sim.OpenEmbeddedRealClock()
			if err != nil {
				b.Fatal(err)
			}
			defer be.Close(context.Background())
			runTrials(b, be, v)
		})
	}
	url := simtest.StartRedis(b)
	ref := setRate(b, url)
	for _, v := range race.Variants() {
		b.Run("live/"+strings.ReplaceAll(v.String(), " ", ""), func(b *testing.B) {
			be, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(1))
			if err != nil {
				b.Fatal(err)
			}
			defer be.Close(context.Background())
			cmds := runTrials(b, be, v)
			if ref > 0 {
				b.ReportMetric(ref, "redis-benchmark-SET/s")
				b.ReportMetric(cmds/ref, "of-redis-benchmark")
			}
		})
	}
}

// BenchmarkTrialsMemory runs 1 000 and 10 000 atomic trials once per call,
// whatever b.N, and reports the peak heap in use while they ran: it must
// not grow with the count.
func BenchmarkTrialsMemory(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			be, err := sim.OpenEmbeddedRealClock()
			if err != nil {
				b.Fatal(err)
			}
			defer be.Close(context.Background())
			tr, _ := race.New(pool(be, 8), race.DefaultConfig(1))
			defer tr.Close()
			{
				runtime.GC()
				var peak atomic.Uint64
				stop := make(chan struct{})
				done := make(chan struct{})
				go func() {
					defer close(done)
					var m runtime.MemStats
					for {
						runtime.ReadMemStats(&m)
						if m.HeapInuse > peak.Load() {
							peak.Store(m.HeapInuse)
						}
						select {
						case <-stop:
							return
						case <-time.After(5 * time.Millisecond):
						}
					}
				}()
				if _, err := tr.Run(context.Background(), race.Atomic, n, nil); err != nil {
					b.Fatal(err)
				}
				close(stop)
				<-done
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
			}
		})
	}
}
