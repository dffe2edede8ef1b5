package serve

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes/progress"
	"locksim/serve/termtest"
)

// heapBytes is the live heap after a collection.
func heapBytes() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// classOf is the class benchmarks' size and idle window: a class of 60
// over two idle seconds, as docs/benchmarks.md gives their figures, or
// under -short (CI's smoke, each benchmark once) a class of six over half
// a second, through the same code.
func classOf() (students int, idle time.Duration) {
	if testing.Short() {
		return 6, 500 * time.Millisecond
	}
	return 60, 2 * time.Second
}

// BenchmarkClass is a class of 60 on the embedded server: each student
// opens the fencing scene (their saved place) and steps once a second,
// forth and back. It reports the 95th percentile from a step's key sent
// to its new step counter received, the heap per session (60 open minus
// none, divided by 60; the in-process clients included) and, over two
// idle seconds at the end, View calls and bytes per session.
//
//	go test ./serve -run '^$' -bench Class -benchtime 20x
func BenchmarkClass(b *testing.B) {
	students, idle := classOf()
	clock := newFakeClock() // the limits never fire during the run
	s, addr := testServer(b, Config{Clock: clock, MaxSessions: students + InstructorSlots})
	empty := heapBytes()
	terms := make([]*termtest.Light, students)
	for i := range terms {
		key := termtest.NewKey(b)
		pos := play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: uint64(i + 1)}
		place, _ := json.Marshal(pos)
		stu := s.students.get(Identity{ID: keyHash(key.PublicKey()), KeyHash: keyHash(key.PublicKey())})
		_ = stu.store.Save(progress.Progress{Place: place, Moment: progress.Moment{Scene: "fencing", Seed: pos.Seed}})
		stu.SetName("")
		terms[i] = termtest.OpenLight(b, termtest.Dial(b, addr, fmt.Sprintf("s%d", i), key), 100, 30, "")
		terms[i].Wait(b, termtest.FencingBar(0))
	}
	heap := heapBytes()

	b.ResetTimer()
	latencies := termtest.Steps(b, terms, b.N, func(_, n int) (string, string) {
		if n%2 == 1 {
			return "\x1b[D", termtest.FencingBar(0) // ←
		}
		return "\x1b[C", termtest.FencingBar(1) // →
	})
	b.StopTimer()
	b.ReportMetric(termtest.Millis(termtest.Percentile(latencies, 95)), "p95-ms")
	b.ReportMetric(termtest.Millis(termtest.Percentile(latencies, 50)), "p50-ms")
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(heap-min(empty, heap))/float64(students)/(1<<20), "MiB/session")

	// idle: two seconds (or -short's half) with no key
	time.Sleep(300 * time.Millisecond) // the last frames flushed
	views, sent := s.viewCalls.Load(), 0
	for _, bt := range terms {
		sent -= bt.Bytes()
	}
	time.Sleep(idle)
	for _, bt := range terms {
		sent += bt.Bytes()
	}
	per := float64(students) * idle.Seconds()
	b.ReportMetric(float64(s.viewCalls.Load()-views)/per, "idle-views/s/session")
	b.ReportMetric(float64(sent)/per, "idle-B/s/session")
}
