package serve

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes/progress"
	"locksim/serve/termtest"
)

// BenchmarkWebClass is BenchmarkClass in browser tabs: a class of 60 on
// the embedded server, each tab at its saved place in the fencing scene,
// stepping once a second, forth and back. It reports the 95th percentile
// from a step's key sent to its new step counter received, the heap per
// session, and over two idle seconds at the end, bytes per session.
//
//	go test ./serve -run '^$' -bench WebClass -benchtime 20x
func BenchmarkWebClass(b *testing.B) {
	students, idle := classOf()
	clock := newFakeClock() // the limits never fire during the run
	s, _ := testServer(b, Config{Clock: clock, MaxSessions: students + InstructorSlots})
	base := serveWeb(b, s)
	empty := heapBytes()
	tabs := make([]*termtest.Light, students)
	var stepBytes int
	for i := range tabs {
		id := fmt.Sprintf("%032x", i+1) // an id cookie's form
		pos := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: uint64(i + 1)}
		place, _ := json.Marshal(pos)
		stu := s.students.get(Identity{ID: webStudentID(id)})
		_ = stu.store.Save(progress.Progress{Place: place, Moment: progress.Moment{Scene: "fencing", Seed: pos.Seed}})
		_ = stu.SetName("")
		br := termtest.NewBrowser(b)
		br.SetID(b, base, cookieName, id)
		tabs[i] = br.OpenLight(b, base, "/ws/", 100, 30)
		tabs[i].Wait(b, termtest.FencingBar(0))
	}
	heap := heapBytes()

	var (
		mu        sync.Mutex
		latencies []time.Duration
	)
	before := 0
	for _, lt := range tabs {
		before += lt.Bytes()
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, lt := range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * time.Second / time.Duration(students))
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for n := range b.N {
				key, want := "\x1b[C", termtest.FencingBar(1)
				if n%2 == 1 {
					key, want = "\x1b[D", termtest.FencingBar(0)
				}
				lt.Mark()
				sent := time.Now()
				_ = lt.Send(key)
				lt.Wait(b, want)
				d := time.Since(sent)
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
				<-tick.C
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	for _, lt := range tabs {
		stepBytes += lt.Bytes()
	}
	stepBytes -= before
	slices.Sort(latencies)
	if len(latencies) > 0 {
		b.ReportMetric(float64(latencies[len(latencies)*95/100].Microseconds())/1000, "p95-ms")
		b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(stepBytes)/float64(len(latencies)), "B/step")
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(heap-min(empty, heap))/float64(students)/(1<<20), "MiB/session")

	time.Sleep(300 * time.Millisecond)
	sent := 0
	for _, lt := range tabs {
		sent -= lt.Bytes()
	}
	time.Sleep(idle)
	for _, lt := range tabs {
		sent += lt.Bytes()
	}
	b.ReportMetric(float64(sent)/float64(students)/idle.Seconds(), "idle-B/s/session")
}
