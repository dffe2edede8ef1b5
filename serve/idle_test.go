package serve

import (
	"testing"
	"time"

	"locksim/serve/sshtest"
)

// TestIdleSessionIsIdle: a session on the race, left alone, gets no
// message (its model draws no view: no tick reaches it) and sends the
// client no byte; a key then is drawn at once. The idle second is a window
// in which nothing must happen, not a bound on anything's speed: a loaded
// machine can only make it quieter.
func TestIdleSessionIsIdle(t *testing.T) {
	s, addr := testServer(t, Config{Clock: newFakeClock()})
	tm := sshtest.Open(t, sshtest.Dial(t, addr, "student", sshtest.NewKey(t)), "xterm-256color", 100, 30)
	tm.WaitFor("the course: Redis distributed locks", "1  race")
	tm.Send("\r") // the race
	tm.WaitFor("1-3 your prediction")
	// a frame of the burst may still wait for its turn (frames, FPS)
	time.Sleep(4 * time.Second / FPS)

	views, seen := s.viewCalls.Load(), tm.BytesSeen()
	time.Sleep(time.Second)
	if n := s.viewCalls.Load() - views; n != 0 {
		t.Errorf("an idle session's model drew %d views in a second: something ticks", n)
	}
	if n := tm.BytesSeen() - seen; n != 0 {
		t.Errorf("an idle session sent %d bytes in a second: %q", n, tm.RawSince(seen))
	}

	tm.Send("2")
	tm.WaitFor("OK · holder")
	if tm.BytesSeen() == seen {
		t.Error("the key's frame sent nothing")
	}
}
