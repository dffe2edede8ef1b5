package scenes

import (
	"strings"
	"testing"

	"locksim/content"
	"locksim/sim"
)

// hintTells are statements found in hints that answered their question:
// each says a choice's outcome outright (w2's SET refused, or writing
// over w1's key; a missing key not holding the marker; GET answering the
// old value whether or not the SET happened).
var hintTells = []string{
	"next set is refused",
	"does not look at the key before writing",
	"does not hold maintenance",
	"answers the value the key held before the command",
}

// TestHintsTellNoChoice: a hint is shown while its question is open, so
// no hint of any story that asks may state a choice's claim: no run of
// four words of a choice (after its "answer:" head) is in a hint, nor any
// of hintTells. A hint may state a rule and ask the learner to apply it.
func TestHintsTellNoChoice(t *testing.T) {
	for _, sc := range All() {
		if sc.Predict == nil {
			continue
		}
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range sc.Stories() {
			var labels []string
			for _, m := range sc.Script(p).Moves {
				labels = append(labels, sim.MoveLabel(m))
			}
			if sc.PredictAt(labels) < 0 {
				continue
			}
			var runs []string
			for _, c := range strings.Split(sc.Question(text, p, "choices"), "\n") {
				if _, rest, ok := strings.Cut(c, ": "); ok {
					c = rest
				}
				w := strings.Fields(strings.ToLower(strings.NewReplacer(",", "", ".", "").Replace(c)))
				for i := 0; i+4 <= len(w); i++ {
					runs = append(runs, strings.Join(w[i:i+4], " "))
				}
			}
			for n := 1; text.Has("hint-" + itoa(int64(n))); n++ {
				h := strings.ToLower(strings.Join(strings.Fields(sc.Question(text, p, "hint-"+itoa(int64(n)))), " "))
				h = strings.NewReplacer(",", "", ".", "").Replace(h)
				for _, r := range append(runs, hintTells...) {
					if strings.Contains(h, r) {
						t.Errorf("%s (%s): hint %d states %q, a choice's claim, while the question is open: %q", sc.ID, sc.Describe(p), n, r, h)
					}
				}
			}
		}
	}
}
