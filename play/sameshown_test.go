package play

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"locksim/scenes"
)

// shownBefore is what a story shows before its question is answered, by
// part, and what it asks.
type shownBefore struct {
	name     string
	parts    map[string]string
	question string
	setting  string
	answer   int
	// log is the commands sent before the question and their replies
	log string
}

// shownAtQuestion opens the story of sc under p, reads what the learner is
// shown from its start to its question, answers it, and reads the answer.
func shownAtQuestion(t *testing.T, sc *scenes.Scene, p scenes.Params) (shownBefore, bool) {
	ctx := context.Background()
	s, err := started(ctx, Position{Version: PositionVersion, Scene: sc.ID, Seed: 5, Settings: p}, embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	d := Driver{S: s}
	out := shownBefore{name: sc.Describe(p), parts: map[string]string{}, setting: sc.Describe(p)}
	ex := s.Explanation()
	out.parts["the start line"] = ex.Readout
	out.parts["the cards at the start"] = cardsText(ex)
	out.parts["the timeline's future at the start"] = drawnFuture(s)
	for i := 0; i < 100 && !s.Asking; i++ {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Asking {
		return out, false
	}
	ex = s.Explanation()
	out.parts["the cards at the question"] = cardsText(ex)
	out.parts["the timeline's future at the question"] = drawnFuture(s)
	var log strings.Builder
	for _, e := range s.Snap.Events {
		if e.Cmd != "" {
			log.WriteString(e.Node + " " + e.Actor + " " + e.Cmd + " → " + e.Reply + "\n")
		}
	}
	out.log = log.String()
	out.parts["the notes"] = s.Notes(Learner)
	out.parts["the story page"] = s.Page(Learner)
	for n := 1; s.Text.Has(fmt.Sprintf("hint-%d", n)); n++ {
		out.parts[fmt.Sprintf("hint %d", n)] = s.Question(fmt.Sprintf("hint-%d", n))
	}
	out.question = s.Question("predict")
	// the timeline shows the next move's label at each step up to the
	// question's
	labels := s.MoveLabels()
	out.parts["the timeline"] = strings.Join(labels[:min(s.Snap.Pos+1, len(labels))], " / ")
	out.parts["the choices"] = strings.Join(s.Choices(), "\n")
	if err := d.Do(DoN(Select, 0)); err != nil {
		t.Fatal(err)
	}
	out.answer = s.Actual
	return out, true
}

// drawnFuture is what the timeline draws, as the disclosure rule allows
// the learner (Disclosure.Drawn), of the story past its question's move: a
// word per move it marks there (its kind: the bar's glyph), and how many
// moves the story has (the bar's "8/12"), or that more follow unsaid. The
// marks up to the question's move are the story as set up (where the
// crash falls) and its labels "the timeline"; these are its future.
func drawnFuture(s *Session) string {
	moves := s.Run.Moves()
	d := s.Disclose(Learner)
	n, more := d.Drawn(len(moves))
	w := []string{"future:"}
	for _, m := range moves[min(d.At+1, n):n] {
		w = append(w, fmt.Sprintf("kind%d", m.Kind))
	}
	if more {
		return strings.Join(w, " ") + " and more to come"
	}
	return strings.Join(w, " ") + fmt.Sprintf(" of %d moves", len(moves))
}

func cardsText(ex scenes.Explanation) string {
	var b strings.Builder
	for _, c := range ex.Cards {
		b.WriteString(c.Name + ": " + strings.Join(c.Lines, " · ") + "\n")
	}
	return b.String()
}

var hexWord = regexp.MustCompile(`^[0-9a-f]{6,}…?$`)

// words are a text's words, lower case, without the punctuation around
// them; a token (hex digits) reads as one word.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		w = strings.ToLower(strings.Trim(w, ".,;:()\"'!?[]·▸"))
		if w == "" {
			continue
		}
		if hexWord.MatchString(w) {
			w = "<token>"
		}
		out = append(out, w)
	}
	return out
}

// unshared are the words of a and of b outside their longest common
// subsequence: what one text says and the other does not.
func unshared(a, b []string) (onlyA, onlyB []string) {
	n, m := len(a), len(b)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case l[i+1][j] >= l[i][j+1]:
			onlyA = append(onlyA, a[i])
			i++
		default:
			onlyB = append(onlyB, b[j])
			j++
		}
	}
	return append(onlyA, a[i:]...), append(onlyB, b[j:]...)
}

// unstated are the words of only that neither the story's question nor its
// settings line (which the screen shows beside it) states.
func unstated(only []string, s shownBefore) []string {
	stated := append(words(s.question), append(words(s.setting), "<setup>")...)
	var out []string
	for _, w := range only {
		if !slices.Contains(stated, w) {
			out = append(out, w)
		}
	}
	return out
}

// setupSaid are the phrases a scene shows before its question that state
// the question's setup in other words than its question and settings line:
// each is what the learner is meant to reason from.
var setupSaid = map[string][]*regexp.Regexp{
	// the options question is asked under each combination of NX, PX and
	// the token ("e cycles NX through on, off and IFNE"): the start line says which
	// are off, and the cards what each worker writes
	"options": {
		regexp.MustCompile(`All three options are on\.|NX is off: every SET is sent without NX\.|PX is off: no TTL\.|The token is off: all write "locked"\.`),
		regexp.MustCompile(`token [0-9a-f]+…|value "locked"`),
	},
	// A's reading of its renewal's silence (it stops, or goes on) is the
	// other half of each renewal story, beside the renewal's time: it
	// bears on what A does next, not on what the server did, and each
	// reading comes with each answer
	"lost-reply": {regexp.MustCompile(`"not renewed", and stops|"renewed", and works on`),
		// A's token, as A's card shows it in every story, quoted in the
		// command the settings line names (DELEX … IFEQ, a retry)
		regexp.MustCompile(`[0-9a-f]{8}…`)},
	// the keys the start line offers: o has no lapsed lock to change in
	// the finally story, whose settings line says "lapsed lock: none"
	"release": {regexp.MustCompile(`release, o whether B takes the lapsed lock`)},
}

// TestStoriesOfAQuestionShowTheSameBeforeIt: predict-then-reveal across
// stories. Stories that ask one question (the same choices) and whose
// answers differ must show the same before it is answered: the start line,
// the cards at the start and at the question (where the commands before it
// and their replies are the same: otherwise the cards read a different
// story), the notes, the story page, the hints, and the timeline's marks
// at the start and at the question: the moves still to come, their kinds
// and their number (the bar's marks, "8/12") are the story's future, and
// in crash-gap once only the story where s2 got the lock had a move more. Where they differ, the
// difference is the question's setup, what the learner is meant to reason
// from: so every word one says and the other does not must be stated by its
// own question, its settings line (a knob's name and value) or a phrase of
// setupSaid. Anything else tells the stories apart, and so the answer,
// before it is given.
func TestStoriesOfAQuestionShowTheSameBeforeIt(t *testing.T) {
	var compared atomic.Int64
	t.Run("scenes", func(t *testing.T) { storiesShowTheSame(t, &compared) })
	// the lost-reply renewals alone are eight pairs with different answers
	if n := compared.Load(); n < 8 {
		t.Errorf("only %d pairs of stories compared", n)
	}
}

func storiesShowTheSame(t *testing.T, compared *atomic.Int64) {
	for _, sc := range scenes.All() {
		if sc.Kind != scenes.Story || sc.Predict == nil {
			continue
		}
		t.Run(sc.ID, func(t *testing.T) {
			t.Parallel()
			all := *sc
			all.Variants = nil
			byQuestion := map[string][]shownBefore{}
			var order []string
			for _, p := range all.Stories() {
				s, asks := shownAtQuestion(t, sc, p)
				if !asks {
					continue
				}
				q := s.parts["the choices"]
				if _, ok := byQuestion[q]; !ok {
					order = append(order, q)
				}
				byQuestion[q] = append(byQuestion[q], s)
			}
			for _, q := range order {
				stories := byQuestion[q]
				for i, a := range stories {
					for _, b := range stories[i+1:] {
						if a.answer == b.answer {
							// what tells them apart tells nothing of the
							// answer (a timeout policy, a redlock story)
							continue
						}
						compared.Add(1)
						for part, ta := range a.parts {
							tb := b.parts[part]
							if (part == "the cards at the question" || part == "the timeline") && a.log != b.log {
								// the cards read the replies in the log,
								// the timeline names its moves, and those
								// differ: the story itself
								continue
							}
							for _, re := range setupSaid[sc.ID] {
								ta, tb = re.ReplaceAllString(ta, "<setup>"), re.ReplaceAllString(tb, "<setup>")
							}
							oa, ob := unshared(words(ta), words(tb))
							ua, ub := unstated(oa, a), unstated(ob, b)
							if len(ua) > 0 || len(ub) > 0 {
								t.Errorf("%s and %s (answers %d and %d) differ in %s beyond their questions' setup: %q / %q\n%s:\n%s\n%s:\n%s",
									a.name, b.name, a.answer, b.answer, part, ua, ub, a.name, ta, b.name, tb)
							}
						}
					}
				}
			}
		})
	}
}
