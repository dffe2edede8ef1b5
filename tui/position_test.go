package tui

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/storycode"

	tea "github.com/charmbracelet/bubbletea"
)

// TestPositionRoundTrip walks every story and the quiz with a seeded run of keys
// (steps, steps back, settings, the learner's own moves and faults, an
// answer when the question is asked), saves the position as JSON and then
// as a story code, opens it in a fresh course on a fresh server, and gets
// the same screen. A race
// is replayed from its record: the same screen but for the readout, which
// says it is a replay.
func TestPositionRoundTrip(t *testing.T) {
	for i, sc := range scenes.All() {
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			walk := storyWalk(sc, rand.New(rand.NewPCG(uint64(i), 18)))
			if sc.Kind == scenes.Quiz {
				walk = quizWalk(rand.New(rand.NewPCG(uint64(i), 18)))
			}
			a := openPosition(t, play.Position{}, sc.ID, walk)
			// what is not part of a position: a one-time note
			a.pl.SetFlash("")
			a.pl.SetErr("")
			pos := a.Position()
			data, err := json.Marshal(pos)
			if err != nil {
				t.Fatal(err)
			}
			back, err := play.ParsePosition(data)
			if err != nil {
				t.Fatal(err)
			}
			// and through its story code, as a learner hands it on
			code, err := storycode.Encode(back)
			if err != nil {
				t.Fatal(err)
			}
			back, err = storycode.Decode(code)
			if err != nil {
				t.Fatalf("%s: %v", code, err)
			}
			if again, _ := json.Marshal(back); string(again) != string(data) {
				t.Errorf("position %s came back from code %s as %s", data, code, again)
			}
			t.Logf("%q → %s → %s", walk, data, code)
			b := openPosition(t, back, "", "")
			got, want := b.View(), a.View()
			if sc.Kind == scenes.Race {
				// the readout says it is a replay when no worker is picked
				if pos.Race == nil || pos.Selected == "" && !strings.Contains(got, "Replayed from a recorded race") {
					t.Errorf("a race's position %s opens no replay of its record:\n%s", data, got)
				}
				got, want = withoutReadout(got), withoutReadout(want)
			}
			if got != want {
				t.Errorf("after %q, position %s opens a different screen:\n%s\nwant:\n%s", walk, data, got, want)
			}
			if sc.Kind == scenes.Quiz && pos.Quiz == nil {
				t.Errorf("a quiz's position %s has no quiz place", data)
			}
			if b.Position().Step != pos.Step || len(b.Position().Own) != len(pos.Own) {
				t.Errorf("reopened at %+v, want %+v", b.Position(), pos)
			}
		})
	}
}

// withoutReadout is screen v with the readout's rows left out.
func withoutReadout(v string) string {
	var out []string
	in := false
	for _, l := range strings.Split(v, "\n") {
		switch {
		case strings.HasPrefix(l, "── readout"):
			in = true
		case strings.HasPrefix(l, "verdict"):
			in = false
		}
		if !in {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// storyWalk is a run of keys for scene sc drawn from rng: mostly steps,
// some steps back, a setting now and then, and the learner's own moves.
func storyWalk(sc *scenes.Scene, rng *rand.Rand) string {
	own := []string{"1", "2", "x", "p", "w", "[enter]", "2", "[enter]"}
	if sc.Distributed {
		own = append(own, "A", "C", "s", "u", "d", "j", "H")
	}
	var walk string
	for range 14 {
		switch r := rng.IntN(10); {
		case r < 4:
			walk += "n"
		case r < 5:
			walk += "b"
		case r < 6 && len(sc.Knobs) > 0:
			walk += sc.Knobs[rng.IntN(len(sc.Knobs))].Key
		default:
			walk += own[rng.IntN(len(own))]
		}
	}
	return walk
}

// quizWalk is a run of quiz keys drawn from rng: answers, and the way
// between situations.
func quizWalk(rng *rand.Rand) string {
	keys := []string{"1", "2", "e", "c", "n", "n", "b"}
	var walk string
	for range 16 {
		walk += keys[rng.IntN(len(keys))]
	}
	return walk
}

// openPosition opens a course on a fresh embedded server at pos (or, with
// none, at scene id from the start), sized 100x32, and presses presses.
func openPosition(t *testing.T, pos play.Position, id, presses string) *App {
	t.Helper()
	o := Options{Seed: 7, Scene: id}
	if pos.Scene != "" {
		o.Position = &pos
	}
	a, err := NewCourse(embedded(t), o)
	if err != nil {
		t.Fatal(err)
	}
	drive(t, a, tea.WindowSizeMsg{Width: 100, Height: 32})
	runCmd(t, a, a.Init())
	drive(t, a, keys(presses)...)
	return a
}
