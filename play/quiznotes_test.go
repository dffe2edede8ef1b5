package play

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestChooseNotesNameNoSituation: choose is a quiz, whose speaker notes (N)
// a learner reads whole before answering any situation; they said "what if
// the reminder were a one-time code?", which tells that the reminder as
// given (no code) is the other class. The notes name no situation: none of
// the longer words of a situation's name is in them.
func TestChooseNotesNameNoSituation(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, Position{Version: PositionVersion, Scene: "choose", Seed: 1}, Env{Backend: embedded(t), Options: Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	notes := flat(s.Notes(Learner))
	n := 0
	for i := 1; s.Text.Has("name-" + strconv.Itoa(i)); i++ {
		n++
		for _, w := range strings.Fields(flat(s.Text.Get("name-" + strconv.Itoa(i)))) {
			if len(w) >= 6 && strings.Contains(notes, w) {
				t.Errorf("the notes name situation %d (%q): %s", i, w, notes)
			}
		}
	}
	if n < 8 {
		t.Errorf("choose has %d situations, want 8", n)
	}
}
