package tui

import (
	"strings"
	"testing"

	"locksim/sim"
	"locksim/views"
)

// TestKeyLineStoryTime: on a live server at a scale the key line labels
// the PTTL read back with its story time, written as the course writes
// a length of time.
func TestKeyLineStoryTime(t *testing.T) {
	k := sim.KeyState{Name: "locksim:x:resource:lock", Type: "string", Value: "t", PTTL: 180000}
	snap := sim.Snapshot{Live: true, Scale: 20}
	got := keyLine(views.ASCII(), k, snap, 200)
	if want := "PTTL 180000 ms (3600 s of story)"; !strings.Contains(got, want) {
		t.Errorf("key line %q, want it to say %q", got, want)
	}
	k.PTTL = 125
	if got, want := keyLine(views.ASCII(), k, snap, 200), "PTTL 125 ms (2.5 s of story)"; !strings.Contains(got, want) {
		t.Errorf("key line %q, want it to say %q", got, want)
	}
}
