package scenes

import (
	"strings"
	"testing"

	"locksim/sim"
)

// TestLostRenewalStopSaysWhyItDoesNotWrite: A that stops after its
// renewal got no reply says why it does not write in plain words true of
// the replies on screen. Where the renewal ran, the key still holds A's
// token when A stops (B's SET is refused), so "A holds no lock" would be
// false there: the note says what A took the silence for instead.
func TestLostRenewalStopSaysWhyItDoesNotWrite(t *testing.T) {
	sc := Find("lost-reply")
	const want = `A took its renewal's silence as "not renewed", so it does not write`
	for _, c := range []struct {
		story    string
		bRefused bool // B's first SET, at the note's moment
	}{{lrRanStop, true}, {lrLateStop, false}} {
		p := Params{"story": knobAt(t, sc, "story", c.story)}
		pl := playStory(t, embedded(t), "lost-reply", p, 1)
		var notes []string
		bSet := -1
		for _, e := range pl.snap.Events {
			if e.Kind == sim.Info && strings.Contains(e.Note, "does not write") {
				notes = append(notes, e.Actor+": "+e.Note)
			}
			if e.Actor == "B" && e.Op != nil && e.Op.Kind == sim.OpAcquire && bSet < 0 {
				bSet = 0
				if e.IsNil() {
					bSet = 1
				}
			}
		}
		if len(notes) != 1 || notes[0] != "A: "+want {
			t.Errorf("%s: the notes of not writing are %q, want A's %q", c.story, notes, want)
		}
		if (bSet == 1) != c.bRefused {
			t.Errorf("%s: B's first SET refused %v, want %v", c.story, bSet == 1, c.bRefused)
		}
	}
}
