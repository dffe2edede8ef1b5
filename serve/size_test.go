package serve

import (
	"os"
	"runtime/debug"
	"testing"

	"locksim/serve/termtest"
)

// TestHugeWindow: a terminal that says it is 10000x10000, when it opens
// and again in a window change while a story steps, is drawn at
// MaxCols x MaxRows, on both transports: a step's frame stays within what
// such a screen holds, and the sessions' memory (the process's RSS over
// them, after a GC, per session, the clients' included) stays under 8 MiB
// (16 under the race detector).
func TestHugeWindow(t *testing.T) {
	if _, err := termtest.ProcRSS(os.Getpid()); err != nil {
		t.Skipf("no RSS to read here: %v", err)
	}
	code, _ := fencingCode(t)
	onBoth(t, Config{}, func(t *testing.T, s *Server, d termtest.Dialer, _ string) {
		const n = 4
		// one session first, so that what the first costs the process once
		// (the course's content, the embedded server's code) is not counted
		warm := d.New(t).OpenLight(t, termtest.At{Story: code}, 80, 24)
		warm.Wait(t, " 3/? ")
		before := rssAfterGC(t)
		var terms []*termtest.Light
		for range n {
			lt := d.New(t).OpenLight(t, termtest.At{Story: code}, 10000, 10000)
			lt.Wait(t, " 3/? ")
			terms = append(terms, lt)
		}
		for _, lt := range terms {
			if err := lt.Resize(10000, 10000); err != nil {
				t.Fatal(err)
			}
			lt.Mark()
			sent := lt.Bytes()
			if err := lt.Send("\x1b[C"); err != nil {
				t.Fatal(err)
			}
			if !lt.Wait(t, " 4/? ") {
				t.FailNow()
			}
			// a frame draws at most every cell of MaxCols x MaxRows, each
			// with its colours: far below 64 bytes a cell
			if step := lt.Bytes() - sent; step > MaxCols*MaxRows*64 {
				t.Fatalf("a step's frames were %d bytes at 10000x10000", step)
			}
		}
		after := rssAfterGC(t)
		grew := int64(after) - int64(before)
		t.Logf("RSS %d MiB before, %d MiB with %d sessions at 10000x10000", before>>20, after>>20, n)
		// under the race detector the process holds its shadow memory too
		if grew/n > raceShadow*8<<20 {
			t.Fatalf("the process's RSS grew %d MiB for %d sessions: %d MiB a session, more than %d", grew>>20, n, grew/n>>20, raceShadow*8)
		}
	})
}

// rssAfterGC is the process's resident set after a collection that gives
// the freed memory back to the system.
func rssAfterGC(t *testing.T) uint64 {
	t.Helper()
	debug.FreeOSMemory()
	rss, err := termtest.ProcRSS(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return rss
}
