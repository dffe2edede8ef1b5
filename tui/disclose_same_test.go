package tui

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim/simtest"
	"locksim/transcript"
	"locksim/views"
)

// drawnAtQuestion is every page and form one story draws at its open
// question, by name, with the story's own settings written out of them
// (settingsOut), and what tells it apart from the other stories of its
// question that may show differently: the question, its choices, the
// question's move and the commands and replies before it.
type drawnAtQuestion struct {
	name   string
	setup  string
	answer int
	pages  map[string]string
}

// TestStoriesOfAQuestionDrawTheSameAtIt: predict-then-reveal across
// stories, page by page and role by role. Two stories that ask one
// question (its text and choices), whose question's move and whose
// commands and replies before it are the same, and whose answers differ,
// must draw byte-identical pages at the question once the lines and words
// that name their settings are written out: the learner's screen and every
// page it opens (the walk's pages: the notes, the story page, the history,
// the ending, the glossary, the -notes file), the projector's screen, the
// class view's step cell, a code's text and its -history page. Whatever a
// page reads of a story past its question (the count of its moves, a move
// still to come) tells the answer before it is given; every page there, a
// new one too once the walk's pages hold it, is covered by construction.
// The quick tier compares release (its blind DEL has five moves, its
// script six: the pair the rule's "N/?" was made for) and gc-pause, the
// slow tier every other scene; today only release has such a pair (the
// other scenes' stories of one question send different commands before
// it, which TestStoriesOfAQuestionShowTheSameBeforeIt in play compares
// word by word), and a scene or story added later is compared here.
func TestStoriesOfAQuestionDrawTheSameAtIt(t *testing.T) {
	sample := map[string]bool{"release": true, "gc-pause": true}
	compared := 0
	for _, sc := range scenes.All() {
		if sc.Kind != scenes.Story || sc.Predict == nil || !simtest.InTier(sample[sc.ID]) {
			continue
		}
		all := *sc
		all.Variants = nil
		var drawn []drawnAtQuestion
		for _, p := range all.Stories() {
			if d, ok := drawAtQuestion(t, sc, p); ok {
				drawn = append(drawn, d)
			}
		}
		for i, a := range drawn {
			for _, b := range drawn[i+1:] {
				if a.setup != b.setup || a.answer == b.answer {
					continue
				}
				compared++
				for page, ta := range a.pages {
					if tb := b.pages[page]; ta != tb {
						t.Errorf("%s: %s and %s (answers %d and %d) draw %s differently at their question:\n%s", sc.ID, a.name, b.name, a.answer, b.answer, page, firstDiff(ta, tb))
					}
				}
			}
		}
	}
	t.Logf("%d pairs of stories compared", compared)
	if !simtest.Slow && compared < 1 {
		t.Errorf("only %d pairs of stories compared", compared)
	}
}

// drawAtQuestion draws the story of sc under p at its question (see
// drawnAtQuestion); false when it asks none.
func drawAtQuestion(t *testing.T, sc *scenes.Scene, p scenes.Params) (drawnAtQuestion, bool) {
	t.Helper()
	w := &walk{t: t, b: embedded(t), sc: sc, p: p, w: 80, h: 24}
	w.where = sc.ID + " (" + sc.Describe(p) + ")"
	toQuestion := func(a *App, key string) bool {
		for i := 0; i < 100 && !a.pl.Asking; i++ {
			drive(t, a, keys(key)...)
		}
		return a.pl.Asking
	}
	a := w.open(Options{Seed: 1, Scene: sc.ID, Settings: p})
	if !toQuestion(a, "n") {
		return drawnAtQuestion{}, false
	}
	d := drawnAtQuestion{name: sc.Describe(p), pages: map[string]string{}}
	var setup strings.Builder
	setup.WriteString(a.pl.Question("predict") + "\n" + strings.Join(a.pl.Choices(), "\n") + "\n")
	setup.WriteString(a.pl.Snap.Moves[a.pl.Snap.Pos] + "\n")
	for _, e := range a.pl.Snap.Events {
		setup.WriteString(e.Actor + " " + e.Cmd + " → " + e.Reply + " · " + e.Note + "\n")
	}
	d.setup = setup.String()
	out := func(name, text string) { d.pages[name] = settingsOut(views.Strip(text), sc, p) }
	out("the learner's screen", a.View())
	for i, page := range w.pages(a) {
		out(fmt.Sprintf("the learner's page %d (walk.pages)", i), page)
	}
	out("the class view's step cell", stepOf(a.pl.Position()))
	pr := w.open(Options{Seed: 1, Scene: sc.ID, Settings: p, Present: true})
	if !toQuestion(pr, ".") {
		t.Fatalf("%s: the projector is not asked", w.where)
	}
	out("the projector's screen", pr.View())

	// a code of the question's place: its text and its history page
	pos := a.pl.Position()
	pos.Prediction = nil
	var text, page bytes.Buffer
	if err := transcript.PlainPositionWith(context.Background(), &text, w.b, pos, transcript.PositionOptions{Role: play.Code, GoOn: goOn}); err != nil {
		t.Fatal(err)
	}
	out("the code's text", text.String())
	if _, err := transcript.History(context.Background(), &page, w.b, pos, false, time.Second); err != nil {
		t.Fatal(err)
	}
	out("the code's history page", page.String())

	// the answer, as the core reads it once the move has run
	s, err := play.Open(context.Background(), pos, play.Env{Backend: w.b, ID: 1, Options: play.Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	drv := play.Driver{S: s}
	if err := drv.Start(); err != nil {
		t.Fatal(err)
	}
	if err := drv.Do(play.DoN(play.Select, 0)); err != nil {
		t.Fatal(err)
	}
	d.answer = s.Actual
	return d, true
}

// settingsOut is text without what names a story's settings: every value
// of every setting of sc, as a word or words, is written "…" (the longest
// first), wherever a page names one (the settings line, a knob's line and
// the values it lists, the transcript's start line). What is left may not
// differ between stories of one question.
func settingsOut(text string, sc *scenes.Scene, _ scenes.Params) string {
	var values []string
	for _, k := range sc.Knobs {
		values = append(values, k.Values...)
	}
	slices.SortStableFunc(values, func(a, b string) int { return len(b) - len(a) })
	for _, v := range values {
		text = wordOut(text, v)
	}
	return text
}

// wordOut is text with every v in it written "…", as the regexp \bv\b
// would (its \b only at an end of v that is a word character): an
// occurrence counts where no word character abuts that end, and the next
// is looked for past it. A regexp that starts with \b has no literal
// prefix to look for, so it tried every byte of every page: a third of
// TestStoriesOfAQuestionDrawTheSameAtIt.
func wordOut(text, v string) string {
	if v == "" {
		return text
	}
	first, last := isWordByte(v[0]), isWordByte(v[len(v)-1])
	var out strings.Builder
	done := 0 // text[:done] is written
	for from := 0; ; {
		i := strings.Index(text[from:], v)
		if i < 0 {
			break
		}
		i += from
		end := i + len(v)
		if (first && i > 0 && isWordByte(text[i-1])) || (last && end < len(text) && isWordByte(text[end])) {
			from = i + 1
			continue
		}
		out.WriteString(text[done:i])
		out.WriteString("…")
		done, from = end, end
	}
	if done == 0 {
		return text
	}
	out.WriteString(text[done:])
	return out.String()
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore (a byte
// of a longer UTF-8 character is none).
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// firstDiff shows where a and b part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-120, 0)
	return "…" + a[lo:min(i+160, len(a))] + "\n—\n…" + b[lo:min(i+160, len(b))]
}

// TestWordOutIsTheRegexp: wordOut writes out a setting's value where the
// regexp \bv\b (its \b only at an end that is a word character) would.
func TestWordOutIsTheRegexp(t *testing.T) {
	texts := []string{
		"", "on", "on off", "onion on", "xon on_ on.", "(on)", "é on é", "ONon on",
		"35 s, 70 s; 35 ss 135 s", "a blind DEL, blind DELs blind DEL", "-on- on-on",
	}
	values := []string{"on", "35 s", "blind DEL", "-on-", "é", "s"}
	for _, sc := range scenes.All() {
		for _, k := range sc.Knobs {
			values = append(values, k.Values...)
			texts = append(texts, strings.Join(k.Values, " "), strings.Join(k.Values, "_")+"x "+strings.Join(k.Values, ", "))
		}
	}
	for _, v := range values {
		re := regexp.QuoteMeta(v)
		if regexp.MustCompile(`^\w`).MatchString(v) {
			re = `\b` + re
		}
		if regexp.MustCompile(`\w$`).MatchString(v) {
			re += `\b`
		}
		r := regexp.MustCompile(re)
		for _, text := range texts {
			if got, want := wordOut(text, v), r.ReplaceAllString(text, "…"); got != want {
				t.Errorf("wordOut(%q, %q) = %q, the regexp %q gives %q", text, v, got, re, want)
			}
		}
	}
}
