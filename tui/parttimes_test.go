package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// The measure behind the parts' times (play.Parts): a first walk of each
// scene's story as written, headless, counting what a learner reads and
// does. Reading at readWPM words a minute, lookStep seconds to look at
// each step's log and cards, askSecs seconds to think over a question
// (quizSecs over each of a quiz's situations, a quicker call).
const (
	readWPM  = 180
	lookStep = 10
	askSecs  = 60
	quizSecs = 20
)

// walkMinutes is the measure of scene id's story as written, in minutes:
// the intro, the readout at every step, the question with its choices and
// hints, the recap and the library note; and the counts behind it.
func walkMinutes(t *testing.T, b *sim.Backend, id string) (minutes float64, steps, words int) {
	t.Helper()
	sc := scenes.Find(id)
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	read := []string{text.Get("intro"), text.Get("recap"), text.Get("library")}
	asks := 0
	if sc.Predict != nil || sc.Kind == scenes.Quiz {
		asks = 1
		read = append(read, sc.Question(text, nil, "predict"), sc.Question(text, nil, "choices"))
		for i := 1; text.Has("hint-" + strconv.Itoa(i)); i++ {
			read = append(read, sc.Question(text, nil, "hint-"+strconv.Itoa(i)))
		}
	}
	if sc.Kind == scenes.Quiz {
		sits, err := scenes.Situations(text)
		if err != nil {
			t.Fatal(err)
		}
		asks = len(sits)
	} else {
		ctx := context.Background()
		run := sim.NewRun(b, sc.Script(nil), 1)
		defer run.Close()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		steps = len(run.Moves())
		for pos := 0; pos <= steps; pos++ {
			if err := run.Seek(ctx, pos); err != nil {
				t.Fatal(err)
			}
			snap := run.Snapshot(ctx)
			read = append(read, scenes.Explain(sc, scenes.Frame{Snap: snap, L: scenes.Fold(snap), Sel: -1, Text: text}).Readout)
		}
	}
	for _, r := range read {
		words += len(strings.Fields(r))
	}
	secs := asks * askSecs
	if sc.Kind == scenes.Quiz {
		secs = asks * quizSecs
	}
	return float64(words)/readWPM + float64(steps*lookStep+secs)/60, steps, words
}

// TestPartTimesMeasured: each part's time in the contents and the README
// (play.Parts) is the measure of a first walk through its scenes' stories
// as written (see walkMinutes) rounded up to the next 5 minutes: at
// least the measure and less than 10 minutes over it. A learner who
// tries the settings takes longer. The lab's time is not measured here.
func TestPartTimesMeasured(t *testing.T) {
	t.Parallel()
	b := embedded(t)
	for _, p := range play.Parts() {
		if p.Lab {
			continue
		}
		total := 0.0
		var notes []string
		for _, id := range p.Scenes {
			m, steps, words := walkMinutes(t, b, id)
			total += m
			notes = append(notes, fmt.Sprintf("%s %.1f min (%d steps, %d words)", id, m, steps, words))
		}
		stated, err := strconv.Atoi(p.Minutes)
		if err != nil {
			t.Fatalf("%s: minutes %q", p.Title, p.Minutes)
		}
		t.Logf("%s: measured %.1f min, stated %d: %s", p.Title, total, stated, strings.Join(notes, "; "))
		if float64(stated) < total || float64(stated) >= total+10 {
			t.Errorf("%s: the contents say about %d min; a first walk measures %.1f (%s)", p.Title, stated, total, strings.Join(notes, "; "))
		}
	}
}
