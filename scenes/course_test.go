package scenes

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/content"
	"locksim/sim"
)

// TestEverySceneHasTheCourseParts: a registered scene without one of the
// course's parts fails here.
func TestEverySceneHasTheCourseParts(t *testing.T) {
	parts := []string{"title", "dive", "summary", "intro", "start", "predict", "choices", "hint-1", "notes", "recap", "library", "references"}
	for _, sc := range All() {
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range parts {
			if !text.Has(part) {
				t.Errorf("content/text/%s.txt has no %q section", sc.ID, part)
			}
		}
		if sc.Predict == nil && sc.Kind != Quiz { // a quiz asks at every situation
			t.Errorf("%s has no prediction point", sc.ID)
		}
		if n := len(strings.Split(text.Get("choices"), "\n")); n < 2 || n > 4 {
			t.Errorf("%s: %d choices, want 2 to 4", sc.ID, n)
		}
	}
}

// TestWholeCoursePlain: -plain without a scene plays every scene, and says
// no key of the interactive screen.
//
// Embedded only: every scene's transcript on a live server, in parallel, is
// TestUserDataUntouched's (package main); the whole course one after the
// other there would be the test suite's longest wait.
func TestWholeCoursePlain(t *testing.T) {
	t.Parallel()
	func(t *testing.T, b *sim.Backend) {
		var out bytes.Buffer
		if err := Plain(context.Background(), &out, b, "", 1); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		checkNoKeyMention(t, "-plain", text)
		for _, sc := range All() {
			if !strings.Contains(text, "locksim · "+sc.ID+" · ") {
				t.Errorf("the course transcript lacks %s", sc.ID)
			}
		}
		for _, bad := range []string{"╭", "│", "\x1b[", "press ", "Step with", " esc ", "→ or n", "(k)", "picks a story", "Select a ", "enter steps"} {
			if strings.Contains(text, bad) {
				t.Errorf("the transcript contains %q", bad)
			}
		}
		for i, line := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("line %d is %d columns wide, over 80: %s", i+1, n, line)
			}
		}
		// every story's start line, as the screen's readout says it
		// before the first step
		for _, want := range []string{"start: The setup's SET starts the counter resource:fence at 32", "start: five nodes, a 10 s TTL", "start: A takes the lock with a 30 s TTL"} {
			if !strings.Contains(text, want) {
				t.Errorf("the transcript lacks %q", want)
			}
		}
		if !strings.Contains(text, "== pause: 20 s, TTL: 10 s ==") {
			t.Errorf("every combination of gc-pause's settings should play")
		}
	}(t, embedded(t))
}
