package transcript

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"locksim/content"
)

// checkNoKeyMention fails t if a handout of the whole course (text, made
// with the flags named by label) says anything the course text marks as
// the screen's own ([[...]]), or, as a second net for a key mention left
// unmarked, a lone key letter followed by a verb that the marked spans use
// with a key. TestWholeCoursePlain and TestPlainQuestions call it on the
// transcripts they make.
func checkNoKeyMention(t *testing.T, label, text string) {
	t.Helper()
	spans, err := content.ScreenSpans()
	if err != nil || len(spans) == 0 {
		t.Fatalf("no marked spans: %v", err)
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, m := range []string{"[[", "]]"} {
		if strings.Contains(text, m) {
			t.Errorf("%s: the handout shows the marker %q", label, m)
		}
	}
	for _, p := range screenPhrases(spans) {
		// the phrase as a whole word; the regexp (dear under -race over a
		// whole course) only where the phrase is in the text at all
		if strings.Contains(flat, p) && regexp.MustCompile(`(^|\W)`+regexp.QuoteMeta(p)+`($|\W)`).MatchString(flat) {
			t.Errorf("%s: the handout says the screen's %q", label, p)
		}
	}
	net := keyMention(spans)
	verbs := append(spanVerbs(spans), capitalVerbs...)
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "t=+") {
			continue // the engine's log, not course text: "node C hangs" is the story
		}
		if !mayMention(line, verbs) {
			continue
		}
		if m := net.FindString(line); m != "" {
			t.Errorf("%s: an unmarked key mention %q in: %s", label, m, line)
		}
	}
}

// TestKeyMentionNet: the net built from the spans catches the key
// mentions a reviewer found the old filter missing, and lets prose be.
func TestKeyMentionNet(t *testing.T) {
	spans, err := content.ScreenSpans()
	if err != nil {
		t.Fatal(err)
	}
	net := keyMention(spans)
	for _, bad := range []string{"a primary and its replica (A picks the primary, B the replica)",
		"H hangs it", "d slows it", "u heals the cut", "k picks a story", "The stories (k) show",
		"Step with → or n", "press w to watch", "m switches it", "(f: it freezes instead)"} {
		if !net.MatchString(bad) {
			t.Errorf("the net misses %q", bad)
		}
		if !mayMention(bad, append(spanVerbs(spans), capitalVerbs...)) {
			t.Errorf("the net's sieve (mayMention) drops %q", bad)
		}
	}
	for _, prose := range []string{"A takes the lock", "H lets go at +0.55 s", "node (C) stays",
		"B asks again", "c1 counted 2 of 5 OK", "w1 crashes holding its job"} {
		if m := net.FindString(prose); m != "" {
			t.Errorf("the net takes prose %q for a key mention (%q)", prose, m)
		}
	}
	phrases := screenPhrases(spans)
	for _, want := range []string{"(A picks the primary, B the replica)", "(k)", "Step with → or n"} {
		found := false
		for _, p := range phrases {
			found = found || strings.Contains(p, want)
		}
		if !found {
			t.Errorf("no forbidden phrase derived from the spans holds %q", want)
		}
	}
}

// screenPhrases cuts every span at its {slots} and keeps each piece with
// a bracket ("(k)") or of ten bytes or more: "m" or "or after" alone is
// also prose.
func screenPhrases(spans []string) []string {
	var out []string
	for _, s := range spans {
		for _, piece := range regexp.MustCompile(`\{[a-z]+\}`).Split(s, -1) {
			piece = strings.Trim(piece, " .,;:")
			if (strings.Contains(piece, "(") || len(piece) >= 10) && !slices.Contains(out, piece) {
				out = append(out, piece)
			}
		}
	}
	return out
}

// keyMention builds the second net: a lone lower-case key letter then one
// of the verbs that follow a key letter in a span ("k picks", "w lets");
// a capital (a node or a key: A-E picks, H hangs) then a verb no actor of
// the course text uses; and the words of key instructions ("press", "Step
// with").
func keyMention(spans []string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s(,;:])[b-z](?:(?:,| and| or| then) [a-zA-Z])*,? (?:` + strings.Join(spanVerbs(spans), "|") + `)\b` +
		`|(?:^|[\s(,;:])(?:[A-Z]|A-E)(?:(?:,| and| or| then) [a-zA-Z])*,? (?:` + strings.Join(capitalVerbs, "|") + `)\b` +
		`|(?i:\bpress\b)|Step with|→ or n|Select an? [a-z]+ \(\d|\([a-z]\)|\([a-zA-Z]: `)
}

// capitalVerbs are the verbs keyMention's net looks for after a capital.
var capitalVerbs = []string{"picks", "switch", "break", "hangs", "slows", "heals", "cuts", "jumps"}

// spanVerbs are the verbs keyMention's net looks for after a lone key
// letter: those that follow one in a span, and a few more.
func spanVerbs(spans []string) []string {
	lone := regexp.MustCompile(`(?:^|[\s(,;:])[a-z](?:(?:,| and| or| then) [a-zA-Z])*,? ([a-z]+)\b`)
	verbs := []string{"hangs", "slows", "heals", "picks", "switches", "changes"}
	for _, s := range spans {
		for _, m := range lone.FindAllStringSubmatch(s, -1) {
			v := m[1]
			if !strings.HasSuffix(v, "s") && v != "change" && v != "switch" && v != "break" {
				continue // "or", "on": not a verb
			}
			if !slices.Contains(verbs, v) {
				verbs = append(verbs, v)
			}
		}
	}
	return verbs
}

// mayMention reports whether line holds what every match of keyMention's
// net holds: one of its verbs, "press" in any case, one of its literal
// instructions, or a letter in brackets: only such a line is worth the
// net's regexp, dear under -race over a whole course.
func mayMention(line string, verbs []string) bool {
	if strings.Contains(strings.ToLower(line), "press") {
		return true
	}
	for _, w := range verbs {
		if strings.Contains(line, w) {
			return true
		}
	}
	for _, w := range []string{"Step with", "→ or n", "Select a"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	letter := func(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
	for i := 0; i+2 < len(line); i++ {
		if line[i] == '(' && letter(line[i+1]) && (line[i+2] == ')' || line[i+2] == ':') {
			return true
		}
	}
	return false
}
