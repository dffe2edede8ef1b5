package transcript

import (
	"bytes"
	"context"
	"locksim/sim/simtest"
	"strings"
	"testing"
	"unicode/utf8"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// TestWholeCoursePlain: -plain without a scene plays every scene, and says
// no key of the interactive screen.
//
// Embedded only: every scene's transcript on a live server, in parallel, is
// TestUserDataUntouched's (package cli); the whole course one after the
// other there would be the test suite's longest wait.
func TestWholeCoursePlain(t *testing.T) {
	simtest.SkipUnlessSlow(t) // the whole course: TestPlainQuestions walks it in the quick tier
	t.Parallel()
	func(t *testing.T, b *sim.Backend) {
		var out bytes.Buffer
		if err := Plain(context.Background(), &out, b, "", 1); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		checkNoKeyMention(t, "-plain", text)
		for _, sc := range scenes.All() {
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
		for _, want := range []string{"start: The setup's SET starts the counter resource:fence at 32", "start: Five nodes, a 10 s TTL", "start: A takes the lock with a 30 s TTL"} {
			if !strings.Contains(text, want) {
				t.Errorf("the transcript lacks %q", want)
			}
		}
		if !strings.Contains(text, "== pause: 20 s, TTL: 10 s ==") {
			t.Errorf("every combination of gc-pause's settings should play")
		}
	}(t, embedded(t))
}

// TestChoosePlain: the transcript is the answer key an instructor hands
// out: every situation with its assumption, class, tool and why, on both
// servers, and nothing is sent to either.
func TestChoosePlain(t *testing.T) {
	text, _ := content.Load("choose")
	items, _ := scenes.Situations(text)
	onBoth(t, func(t *testing.T, b *sim.Backend) {
		var out bytes.Buffer
		if err := Plain(context.Background(), &out, b, "choose", 1); err != nil {
			t.Fatal(err)
		}
		// the transcript wraps at 80 columns: compare words
		got := strings.Join(strings.Fields(out.String()), " ")
		for i, s := range items {
			entry := itoa(int64(i+1)) + ". " + s.Name + "\n   " + s.Text + "\n   assumes: " + s.Assumption +
				"\n   key: " + text.Get("class-"+s.Class.String()) + " (choice " + itoa(int64(s.Class)+1) + ")\n   tool: " +
				text.Get("tool-"+s.Tool) + "\n   why: " + s.Why + "\n"
			if entry = strings.Join(strings.Fields(entry), " "); !strings.Contains(got, entry) {
				t.Errorf("the transcript lacks situation %d as\n%s\n---\n%s", i+1, entry, got)
			}
		}
		for _, want := range []string{"answer key: efficiency 1, 2, 5, 7 · correctness 3, 4, 6, 8", "no command is sent", "recap: ", "references:"} {
			if !strings.Contains(got, want) {
				t.Errorf("the transcript lacks %q", want)
			}
		}
		for _, bad := range []string{"properties:", "t=+", "script <"} {
			if strings.Contains(got, bad) {
				t.Errorf("a quiz transcript has no story, but it says %q", bad)
			}
		}
	})
}
