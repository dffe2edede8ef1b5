package tui

import (
	"strings"
	"testing"

	"locksim/sim"
	"locksim/sim/simtest"
)

// liveScale divides story time in the live-server tests: a 30 s lease is
// sent as PX 600, so every story plays in a second or two.
const liveScale = 50

// onBoth runs check against the embedded server and, in parallel, against
// a redis-server of its own (skipped with a message when there is none).
// The test itself runs in parallel with the others: live stories wait in
// real time, and the embedded walks use the CPU meanwhile.
func onBoth(t *testing.T, check func(t *testing.T, b *sim.Backend)) {
	onBothAt(t, liveScale, check)
}

// onBothAt is onBoth with the live server's story time divided by scale.
func onBothAt(t *testing.T, scale int, check func(t *testing.T, b *sim.Backend)) {
	simtest.OnBoth(t, scale, check)
}

// 10: the log shows a script by name, the story page its source, and an
// error reply in full.
func TestLogShowsWhatWasSent(t *testing.T) {
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		a := openScene(t, b, "fencing", 1, 120, 40, "nnnnnnnn")
		v := a.View()
		if !strings.Contains(v, "(error) STALE token 33, seen 34") || !strings.Contains(v, "<fenced-write>") {
			t.Fatalf("the log should show the script's name and the error in full:\n%s", v)
		}
		drive(t, a, keys("i[down][down][down][down][down][down][down][down][down][down][down][down][down][down]")...)
		page := a.View()
		if !strings.Contains(page, "<fenced-write>") || !strings.Contains(page, `redis.call("HGET", KEYS[1], "max")`) {
			t.Errorf("the story page should show the scripts' source:\n%s", page)
		}
	})
}
