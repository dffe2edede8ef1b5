package transcript

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
)

// storyLine is the page's line that names the story (its settings, seed
// and the step played to): what the screen shows of it at the question
// too (the settings line, the timeline's labels up to the question).
var storyLine = regexp.MustCompile(`<p class="story">[^\n]*</p>\n`)

// clientsPart is the page's clients' side at an open question: what each
// client sent and got back, as the log shows it (historyClient).
var clientsPart = regexp.MustCompile(`(?s)<li class="clients">.*?(</ul>)`)

// clientLine is one of a client's lines on the page.
var clientLine = regexp.MustCompile(`<code>([^<]*)</code>`)

// TestHistoryPageAtAQuestionTellsNoStoryApart: for every scene that asks,
// the history page written at each story's question (a code handed over
// there: its reader has not answered) is the same page for every story of
// the scene but for the line that names the story and the clients' side
// (what each sent and got back, which is the log's and the transcript's
// before the question, line for line, a line for each command sent), as
// the screen at the question shows nothing of the checked history (its
// verdicts, the server's side). Stories whose answers differ played there with
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
			// the page's text agrees with what it shows: no porcupine's
			// view to read below, no empty slot for a story's name
			for _, said := range []string{"Below, porcupine's view", "Click a bar", "porcupine's visualisation"} {
				if strings.Contains(page.String(), said) {
					t.Errorf("%s at its question: the page says %q, though porcupine's view waits for the answer", sc.Describe(p), said)
				}
			}
			if line := storyLine.FindString(page.String()); strings.Contains(strings.Join(strings.Fields(line), " "), ": ·") {
				t.Errorf("%s at its question: the story's line has an empty slot: %q", sc.Describe(p), line)
			}
			if len(rep.Findings) > 0 {
				t.Errorf("%s at its question (step %d): History reports %q", sc.Describe(p), at, rep.Line())
			}
			// the clients' side is the log before the question, which
			// differs as the stories do on screen: every line of it is
			// the code's own text's before its question, and there is one
			// for every command sent
			clients := clientsPart.FindString(page.String())
			text := plainBeforeQuestion(t, b, pos)
			lines := clientLine.FindAllStringSubmatch(clients, -1)
			for _, l := range lines {
				// (the transcript wraps a long line)
				if line := strings.Join(strings.Fields(html.UnescapeString(l[1])), " "); !strings.Contains(text, line) {
					t.Errorf("%s at its question: the page's client line %q is not the transcript's before the question:\n%s", sc.Describe(p), line, text)
				}
			}
			if sent := sentBefore(t, b, pos); len(lines) != sent {
				t.Errorf("%s at its question: the page has %d client lines for %d commands sent:\n%s", sc.Describe(p), len(lines), sent, clients)
			}
			got := clientsPart.ReplaceAllString(storyLine.ReplaceAllString(page.String(), ""), "$1")
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

// plainBeforeQuestion is the text of the code of pos, at its question,
// before the question's line, its runs of white space one space each.
func plainBeforeQuestion(t *testing.T, b *sim.Backend, pos play.Position) string {
	t.Helper()
	var out strings.Builder
	if err := PlainPositionWith(context.Background(), &out, b, pos, PositionOptions{Role: play.Code, GoOn: "go on"}); err != nil {
		t.Fatal(err)
	}
	before, _, ok := strings.Cut(out.String(), "[predict:")
	if !ok {
		t.Fatalf("the code of %+v asks nothing:\n%s", pos, out.String())
	}
	return strings.Join(strings.Fields(before), " ")
}

// sentBefore is how many commands the story of pos sent by its step.
func sentBefore(t *testing.T, b *sim.Backend, pos play.Position) int {
	t.Helper()
	ctx := context.Background()
	s, err := play.Open(ctx, pos, play.Env{Backend: b, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if err := (play.Driver{S: s}).Start(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range s.Snap.Events {
		if e.Kind == sim.Command && e.Actor != "" {
			n++
		}
	}
	return n
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
