package tui

import (
	"strings"
	"testing"
)

// TestSettingCycledBackReturnsToTheQuestion: at release's question, m
// through its six modes back to blind DEL comes back to the question, open
// (it ended at step 1/?); at lost-reply's, r through its three retries back
// to SET NX comes back to the question at step 5 (it ended at +1 s).
func TestSettingCycledBackReturnsToTheQuestion(t *testing.T) {
	for _, c := range []struct {
		scene, key string
		values     int
	}{{"release", "m", 6}, {"lost-reply", "r", 3}} {
		a, _ := openCourse(t, Options{Seed: 1, Scene: c.scene}, "")
		at := a.pl.QuestionAt()
		for a.pl.Snap.Pos < at {
			drive(t, a, keys("[right]")...)
		}
		if !a.pl.Asking || a.pl.Snap.Pos != at {
			t.Fatalf("%s: step %d asking %v, want its question at %d", c.scene, a.pl.Snap.Pos, a.pl.Asking, at)
		}
		drive(t, a, keys(strings.Repeat(c.key, c.values))...)
		if a.pl.Snap.Pos != at || !a.pl.Asking {
			t.Errorf("%s: %s through every value and back: step %d asking %v, want the question at step %d:\n%s", c.scene, c.key, a.pl.Snap.Pos, a.pl.Asking, at, a.View())
		}
	}
}
