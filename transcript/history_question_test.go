package transcript

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
)

// storyLine is the page's line that names the story (its settings, seed
// and the step played to): what the screen shows of it at the question
// too (the settings line, the timeline's labels up to the question).
var storyLine = regexp.MustCompile(`<p class="story">[^\n]*</p>\n`)

// TestHistoryPageAtAQuestionTellsNoStoryApart: for every scene that asks,
// the history page written at each story's question (a code handed over
// there: its reader has not answered) is the same page for every story of
// the scene but for the line that names the story, as the screen at the
// question shows nothing of the checked history (its verdicts, the
// server's side). Stories whose answers differ played there with
// porcupine's view and the verdicts on the page would tell the answer
// (crash-gap's fenced model fails only where s2 got the lock), and the
// page does not hold them on its own: it asks the disclosure rule.
func TestHistoryPageAtAQuestionTellsNoStoryApart(t *testing.T) {
	b := embedded(t)
	scenesAsked, pagesWritten := 0, 0
	for _, sc := range scenes.All() {
		if sc.Kind != scenes.Story || sc.Predict == nil || !sc.Sends() {
			continue
		}
		all := *sc
		all.Variants = nil
		var first, firstName string
		for _, p := range all.Stories() {
			at := play.QuestionAt(sc, p, nil)
			if at < 0 {
				continue
			}
			pos := play.Position{Version: play.PositionVersion, Scene: sc.ID, Seed: 5, Settings: map[string]int(p), Step: at}
			var page strings.Builder
			rep, err := History(context.Background(), &page, b, pos, false, time.Second)
			if err != nil {
				t.Fatalf("%s at step %d: %v", sc.Describe(p), at, err)
			}
			pagesWritten++
			if len(rep.Findings) > 0 {
				t.Errorf("%s at its question (step %d): History reports %q", sc.Describe(p), at, rep.Line())
			}
			got := storyLine.ReplaceAllString(page.String(), "")
			if first == "" {
				first, firstName = got, sc.Describe(p)
				scenesAsked++
				continue
			}
			if got != first {
				t.Errorf("%s: the history pages at the question of %q and of %q differ beyond the story's line:\n%s",
					sc.ID, firstName, sc.Describe(p), firstDiff(first, got))
			}
		}
	}
	if scenesAsked < 5 || pagesWritten < 20 {
		t.Errorf("only %d scenes and %d pages at a question compared", scenesAsked, pagesWritten)
	}
}

// firstDiff shows where a and b part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return "…" + a[lo:min(i+160, len(a))] + "\n—\n…" + b[lo:min(i+160, len(b))]
}
