package scenes

import (
	"context"
	"strings"
	"testing"

	"locksim/content"
	"locksim/sim"
)

// TestOptionsQuestionQuotesTheSentCommand: for every combination of the
// options scene's settings, a question that quotes a command ("w1 sends
// SET …. What") quotes the SET the story sends at the move the question
// comes before, with the key written "key" and a random token "token";
// the constant token and the options (IFNE, PX or none) as sent. Only the
// IFNE question quotes one; the others must quote none.
func TestOptionsQuestionQuotesTheSentCommand(t *testing.T) {
	b := embedded(t)
	sc := Find("options")
	text, err := content.Load("options")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	quoted := 0
	for nx := range 3 {
		for px := range 2 {
			for tok := range 2 {
				p := Params{"NX": nx, "PX": px, "token": tok}
				run := sim.NewRun(b, sc.Script(p), 1)
				if err := run.Reset(ctx); err != nil {
					run.Close()
					t.Fatal(err)
				}
				var labels []string
				for _, m := range run.Moves() {
					labels = append(labels, m.Label)
				}
				at := sc.PredictAt(labels)
				if err := run.Seek(ctx, at+1); err != nil {
					run.Close()
					t.Fatal(err)
				}
				snap := run.Snapshot(ctx)
				run.Close()
				actor := strings.Fields(labels[at])[0]
				sets := sent(snap.Events, actor, "SET")
				if len(sets) == 0 {
					t.Fatalf("%v: %s sent no SET by move %d", p, actor, at)
				}
				e := sets[len(sets)-1]
				want := strings.Replace(e.Cmd, " "+b.Key(sim.CourseKey)+" ", " key ", 1)
				if tok == 0 {
					want = strings.Replace(want, " "+e.Op.Token+" ", " token ", 1)
				}
				q := strings.Join(strings.Fields(sc.Question(text, p, "predict")), " ")
				i := strings.Index(q, " sends ")
				if nx != 2 {
					if i >= 0 {
						t.Errorf("%v: the question quotes a command: %q", p, q)
					}
					continue
				}
				j := strings.Index(q, ". What")
				if i < 0 || j < i {
					t.Errorf("%v: the IFNE question quotes no command: %q", p, q)
					continue
				}
				quoted++
				if got := q[i+len(" sends ") : j]; got != want {
					t.Errorf("%v: the question quotes %q, the story sends %q", p, got, want)
				}
			}
		}
	}
	if quoted != 4 {
		t.Errorf("%d IFNE questions quoted a command, want 4", quoted)
	}
}
