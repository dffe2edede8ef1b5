package play

import (
	"context"
	"slices"
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
)

// answerPhrases are, by scene, phrases that say the answer to its
// question (or one of its stories' questions) in other words than its
// choices: a glossary entry shown at the open question must not contain
// them. fencing's question (what does the resource answer A's write with
// 33?) is answered by "refuses a write whose number is lower"; lost-reply's
// renewal questions (what does the server do with A's renewal?) by "the
// server ran the command"; gc-pause's and extend's (B's SET after the TTL)
// by "frees it when the time is up"; release's and lost-reply's release
// (whose lock does it delete?) by "only if it still holds the caller's
// token"; extend's pause by "a paused process renews nothing". The story
// page (i, Session.Page) is held to them too: fencing's introduction said
// the resource "remembers the largest number it has accepted", which all
// but gives the answer.
var answerPhrases = map[string][]string{
	"fencing":    {"refuses a write whose number is lower", "remembers the largest"},
	"lost-reply": {"the server ran the command", "only if it still holds the caller's token"},
	"gc-pause":   {"frees it when the time is up", "before the server deletes it"},
	"extend":     {"frees it when the time is up", "before the server deletes it", "a paused process renews nothing", "its watchdog included"},
	"release":    {"only if it still holds the caller's token"},
	// crash-gap asks what s2's SETNX gets 40 s after s1 crashed between
	// its SETNX and its EXPIRE: deadlock freedom's entry said it
	"crash-gap": {"a key with no ttl left by a crashed holder"},
}

// storyPhrases replace a scene's answerPhrases for its stories whose
// question is another, by the value of the scene's "story" setting:
// extend's GET story asks what A's renewal answers once B holds the key
// (the value the key held: B's token), which no phrase of the pause's
// answers; lost-reply's SET and renewal stories ask what the server did
// with a command whose reply was lost, which compare-and-delete's entry
// does not answer.
var storyPhrases = map[string]map[string][]string{
	"extend": {"GET after takeover": {"answers the value the key held", "whatever it set"}},
	// lost-reply's SET and renewal questions are not the release's
	"lost-reply": {
		"lost SET": {"the server ran the command"}, "lost renewal: stops": {"the server ran the command"},
		"lost renewal: goes on": {"the server ran the command"}, "late renewal: stops": {"the server ran the command"},
		"late renewal: goes on": {"the server ran the command"},
	},
}

// flat is s with its whitespace made single spaces, lower case.
func flat(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// grams are the runs of n words of s (flat).
func grams(s string, n int) []string {
	w := strings.Fields(strings.Trim(flat(s), "."))
	var out []string
	for i := 0; i+n <= len(w); i++ {
		out = append(out, strings.Join(w[i:i+n], " "))
	}
	return out
}

// glossaryText is the glossary as drawn from terms: each word and meaning.
func glossaryText(terms []Term) string {
	var b strings.Builder
	for _, t := range terms {
		b.WriteString(t.Word + ": " + t.Meaning + "\n")
	}
	return flat(b.String())
}

// TestGlossaryHoldsWhatAnswersAnOpenQuestion walks every scene's stories
// (each value of each setting) to its question, open, and reads the
// glossary there as a learner may (GlossaryFor), and the story page
// (Session.Page): they contain none of the scene's answerPhrases and no run of six words of the scene's answer
// text (intro-answer, notes-answer). Once the question is answered the
// whole glossary is back. The terms a scene holds back exist.
func TestGlossaryHoldsWhatAnswersAnOpenQuestion(t *testing.T) {
	ctx := context.Background()
	all, err := Glossary()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenes.All() {
		if sc.Predict == nil {
			continue
		}
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		var answers []string
		for _, part := range []string{"intro-answer", "notes-answer"} {
			if text.Has(part) {
				answers = append(answers, grams(text.Get(part), 6)...)
			}
		}
		stories := []map[string]int{nil}
		for _, k := range sc.Knobs {
			for v := 1; v < len(k.Values); v++ {
				stories = append(stories, map[string]int{k.Name: v})
			}
		}
		asked := 0
		for _, settings := range stories {
			params := scenes.Params(settings)
			if text.Has(GlossaryHeldSection) {
				for _, h := range GlossaryHeld(sc.Question(text, params, GlossaryHeldSection)) {
					if !slices.ContainsFunc(all, func(x Term) bool { return strings.EqualFold(x.Word, h) }) {
						t.Errorf("%s %v holds back %q, which is no glossary term", sc.ID, settings, h)
					}
				}
			}
			phrases := answerPhrases[sc.ID]
			if by, ok := storyPhrases[sc.ID][sc.Value(params, "story")]; ok {
				phrases = by
			}
			phrases = append(slices.Clone(phrases), answers...)
			s, err := Open(ctx, Position{Version: PositionVersion, Scene: sc.ID, Settings: settings, Seed: 5}, Env{Backend: embedded(t), Options: Options{Predict: true}})
			if err != nil {
				t.Fatalf("%s %v: %v", sc.ID, settings, err)
			}
			d := Driver{S: s}
			d.Run(s.Start(nil))
			at := s.QuestionAt()
			if at < 0 {
				s.Close(ctx)
				continue
			}
			d.Run(s.SeekTo(at))
			if !s.Disclose(Learner).Open {
				s.Close(ctx)
				continue
			}
			asked++
			terms, err := GlossaryFor(s, Learner)
			if err != nil {
				t.Fatal(err)
			}
			shown := glossaryText(terms)
			// a term held back answers this story's question: its meaning
			// says one of the phrases (a term held per scene, not per
			// question, held extend's watchdog at the GET story's question)
			for i, x := range terms {
				if x.Held && !slices.ContainsFunc(phrases, func(p string) bool { return strings.Contains(flat(all[i].Meaning), flat(p)) }) {
					t.Errorf("%s %v, its question open: %q is held back, though its meaning answers nothing this question asks", sc.ID, settings, x.Word)
				}
			}
			for _, p := range phrases {
				if strings.Contains(shown, flat(p)) {
					t.Errorf("%s %v, its question open: the glossary says %q, which answers it", sc.ID, settings, p)
				}
			}
			page := flat(s.Page(Learner))
			for _, p := range answerPhrases[sc.ID] {
				if strings.Contains(page, flat(p)) {
					t.Errorf("%s %v, its question open: the story page says %q, which answers it", sc.ID, settings, p)
				}
			}
			key, err := GlossaryFor(s, Instructor)
			if err != nil || !slices.Equal(key, all) {
				t.Errorf("%s %v: the instructor reads the answer key, and the whole glossary with it", sc.ID, settings)
			}
			s.Close(ctx)
		}
		if asked == 0 {
			t.Errorf("%s: no story stood at its question open", sc.ID)
		}
	}
	if terms, err := GlossaryFor(nil, Learner); err != nil || !slices.Equal(terms, all) {
		t.Errorf("with no story open the whole glossary shows: %v", err)
	}
}

// TestGlossaryHoldsFencingAndLostReply: the two early reveals a fresh
// learner found. At fencing's open question the "fencing token" entry
// said the resource refuses a lower number (the answer); at lost-reply's
// renewal question the "lost reply" entry said the server ran the command.
// Both wait while the question is open and are back once it is answered.
func TestGlossaryHoldsFencingAndLostReply(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		scene    string
		settings map[string]int
		term     string
		says     string
	}{
		{"fencing", nil, "fencing token", "refuses a write whose number is lower"},
		{"lost-reply", map[string]int{"story": 2}, "lost reply", "the server ran the command"},
		{"lost-reply", map[string]int{"story": 4}, "lost reply", "the server ran the command"},
	} {
		s, err := Open(ctx, Position{Version: PositionVersion, Scene: c.scene, Settings: c.settings, Seed: 1}, Env{Backend: embedded(t), Options: Options{Predict: true}})
		if err != nil {
			t.Fatal(err)
		}
		d := Driver{S: s}
		d.Run(s.Start(nil))
		d.Run(s.SeekTo(s.QuestionAt()))
		meaning := func() Term {
			terms, err := GlossaryFor(s, Learner)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range terms {
				if x.Word == c.term {
					return x
				}
			}
			t.Fatalf("no term %q", c.term)
			return Term{}
		}
		if !s.Asking {
			t.Fatalf("%s %v: not at its question (step %d)", c.scene, c.settings, s.Snap.Pos)
		}
		if m := meaning(); !m.Held || strings.Contains(flat(m.Meaning), c.says) {
			t.Errorf("%s %v, question open: %q reads %q", c.scene, c.settings, c.term, m.Meaning)
		}
		if err := d.Do(Action{Verb: Select, N: 0}); err != nil {
			t.Fatal(err)
		}
		if m := meaning(); m.Held || !strings.Contains(flat(m.Meaning), c.says) {
			t.Errorf("%s %v, answered: %q reads %q", c.scene, c.settings, c.term, m.Meaning)
		}
		s.Close(ctx)
	}
}
