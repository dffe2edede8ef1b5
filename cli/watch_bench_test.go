//go:build linux

package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"locksim/play"
	"locksim/serve/termtest"
	"locksim/storycode"

	gossh "golang.org/x/crypto/ssh"
)

// watchers is how many of the class's students BenchmarkServedWatch's
// instructor sessions watch at once.
const watchers = 5

var watchingOn = regexp.MustCompile(`watching (s\d\d) \(`)

// BenchmarkServedWatch: locksim -serve in a process of its own; five
// instructors (five keys) each open a class and 60 students join them,
// twelve a class, on the fencing story; each instructor opens the class
// view. Over the idle window (-locksim.idle) it measures the server's CPU
// with the five in the class view, then with each watching a student of
// their class (W): watch-cpu-rise-% is the difference, as a share of one
// core. Then, each op a round, each watched student steps (forth and
// back, once a second): delay-p95-ms is from the step's counter reaching
// the student's client to it reaching the watcher's.
//
//	go test ./cli -run '^$' -bench ServedWatch -benchtime 30x -locksim.idle 30s
func BenchmarkServedWatch(b *testing.B) {
	n := sessions()
	keys := make([]gossh.Signer, watchers)
	var file []byte
	for i := range keys {
		keys[i] = termtest.NewKey(b)
		file = append(file, gossh.MarshalAuthorizedKey(keys[i].PublicKey())...)
	}
	instructors := filepath.Join(b.TempDir(), "instructors")
	if err := os.WriteFile(instructors, file, 0o600); err != nil {
		b.Fatal(err)
	}
	s := startServed(b, n+watchers, "-instructors", instructors)
	watching := make([]*termtest.Light, watchers)
	codes := make([]string, watchers)
	for i, key := range keys {
		lt := termtest.OpenLight(b, termtest.Dial(b, s.addr, fmt.Sprintf("prof%d", i), key), 100, 30, "")
		if !lt.Wait(b, "Your name") {
			b.FailNow()
		}
		lt.Mark()
		_, _ = io.WriteString(lt.In, fmt.Sprintf("Prof%d\r", i))
		if !lt.Wait(b, "l shows the class") {
			b.FailNow()
		}
		m := openedClass.FindStringSubmatch(lt.Text())
		if m == nil {
			b.Fatalf("no class code on the instructor's screen: %q", lt.Text())
		}
		watching[i], codes[i] = lt, m[1]
	}
	students := map[string]*termtest.Light{}
	var all []*termtest.Light
	for i := range n {
		name := fmt.Sprintf("s%02d", i)
		story, err := storycode.Encode(play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		lt := termtest.OpenLight(b, termtest.Dial(b, s.addr, codes[i%watchers], termtest.NewKey(b)), 100, 30, "story "+story)
		if !lt.Wait(b, "Your name") {
			b.FailNow()
		}
		lt.Mark()
		_, _ = io.WriteString(lt.In, name+"\r")
		if !lt.Wait(b, counter(0)) {
			b.FailNow()
		}
		students[name] = lt
		all = append(all, lt)
	}
	for _, lt := range watching {
		lt.Mark()
		_, _ = io.WriteString(lt.In, "l")
		if !lt.Wait(b, "W watch") {
			b.FailNow()
		}
	}
	everyone := append(slices.Clone(all), watching...)
	quiet(everyone)
	cpuView, tookView, _ := s.idle(b, everyone)

	watched := make([]*termtest.Light, watchers)
	for i, lt := range watching {
		lt.Mark()
		_, _ = io.WriteString(lt.In, "W")
		if !lt.Wait(b, "watching s") {
			b.Fatalf("watcher %d: %q", i, lt.Text())
		}
		m := watchingOn.FindStringSubmatch(lt.Text())
		if m == nil || students[m[1]] == nil || slices.Contains(watched, students[m[1]]) {
			b.Fatalf("watcher %d watches no student of its own: %q", i, lt.Text())
		}
		watched[i] = students[m[1]]
	}
	quiet(everyone)
	cpuWatch, tookWatch, sent := s.idle(b, everyone)
	rise := 100 * (cpuWatch.Seconds()/tookWatch.Seconds() - cpuView.Seconds()/tookView.Seconds())

	var delays []time.Duration
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for k := 0; b.Loop(); k++ {
		key, want := "\x1b[C", counter(1)
		if k%2 == 1 {
			key, want = "\x1b[D", counter(0)
		}
		for i, stu := range watched {
			w := watching[i]
			stu.Mark()
			w.Mark()
			_, _ = io.WriteString(stu.In, key)
			got := make(chan time.Time, 1)
			go func() {
				if w.Wait(b, want) {
					got <- time.Now()
				}
				close(got)
			}()
			if !stu.Wait(b, want) {
				b.FailNow()
			}
			own := time.Now()
			at, ok := <-got
			if !ok {
				b.FailNow()
			}
			delays = append(delays, max(at.Sub(own), 0))
		}
		<-tick.C
	}
	slices.Sort(delays)
	load := load1(b)
	b.Logf("%d students in %d classes, one watched in each: server CPU %.2f%% of a core with the watchers in the class view, %.2f%% watching (%+.2f), %d bytes sent idle; a watcher's frame after the student's: p95 %v, p50 %v over %d steps; load %.2f",
		n, watchers, 100*cpuView.Seconds()/tookView.Seconds(), 100*cpuWatch.Seconds()/tookWatch.Seconds(), rise, sent,
		termtest.Percentile(delays, 95), termtest.Percentile(delays, 50), len(delays), load)
	b.ReportMetric(rise, "watch-cpu-rise-%")
	b.ReportMetric(100*cpuWatch.Seconds()/tookWatch.Seconds(), "watch-idle-cpu-%")
	b.ReportMetric(termtest.Millis(termtest.Percentile(delays, 95)), "delay-p95-ms")
	b.ReportMetric(termtest.Millis(termtest.Percentile(delays, 50)), "delay-p50-ms")
	b.ReportMetric(load, "load")
	b.ReportMetric(0, "ns/op")
}
