package tui

import (
	"strings"
	"testing"

	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// TestKeyLineStoryTime: on a live server at a scale the key line labels
// the PTTL read back with its story time, written as the course writes
// a length of time.
func TestKeyLineStoryTime(t *testing.T) {
	k := sim.KeyState{Name: "locksim:x:resource:lock", Type: "string", Value: "t", PTTL: 180000}
	snap := sim.Snapshot{Live: true, Scale: 20}
	got := keyLine(views.ASCII(), k, snap, 200)
	if want := "PTTL 180000 ms (3600 s of story)"; !strings.Contains(got, want) {
		t.Errorf("key line %q, want it to say %q", got, want)
	}
	k.PTTL = 125
	if got, want := keyLine(views.ASCII(), k, snap, 200), "PTTL 125 ms (2.5 s of story)"; !strings.Contains(got, want) {
		t.Errorf("key line %q, want it to say %q", got, want)
	}
}

// TestFitKeysFollowTheKeys: the help line's keys kept per width (fitKeys)
// are the keys that fit for the key map of the moment: a scene with nodes,
// a quiz, a story, at two widths, in turn on one session, each as Fit
// works it out afresh.
func TestFitKeysFollowTheKeys(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "fencing", NoQuiz: true}, "")
	base := a.com.Keys
	line := func(b []key.Binding) string { whole := a.help; whole.Width = 0; return whole.ShortHelpView(b) }
	for round := range 2 {
		for _, w := range []int{80, 100} {
			for i, kind := range []string{"story", "nodes", "quiz", "no crash"} {
				k := base
				switch kind {
				case "nodes":
					k.Node.SetEnabled(true)
				case "quiz":
					k.Node.SetEnabled(false)
					k.Efficiency.SetEnabled(true)
				case "no crash":
					k.Node.SetEnabled(false)
					k.Efficiency.SetEnabled(false)
					k.Crash.SetEnabled(false)
				}
				a.com.Keys, a.com.Width = k, w
				want := views.Fit(k.ShortHelp(), w, func(b []key.Binding) int { return ansi.StringWidth(line(b)) })
				if got := a.fitKeys(k.ShortHelp()); line(got) != line(want) {
					t.Errorf("round %d, %d columns, %s (%d): the kept keys draw\n%s\nwant\n%s", round, w, kind, i, line(got), line(want))
				}
			}
		}
	}
}

// TestKeyLineShowsControls: a key's name and a hash's or a sorted set's
// fields, which in the lab the learner's own script writes, are drawn
// with their bidi overrides and control characters shown (U+FFFD, ␛),
// not obeyed; a string's value is quoted.
func TestKeyLineShowsControls(t *testing.T) {
	for _, k := range []sim.KeyState{
		{Name: "lock\u202ekcol", Type: "hash", Value: "f\u2066=v\x1b[2J", PTTL: -1},
		{Name: "q\u200f", Type: "zset", Value: "m\u202e=1", PTTL: 100},
		{Name: "s\u2067", Type: "string", Value: "v\u202ex", PTTL: 100},
		{Name: "gone\u202e"},
	} {
		got := keyLine(views.ASCII(), k, sim.Snapshot{}, 200)
		for _, r := range got {
			if r < 0x20 && r != '\x1b' || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200f {
				t.Errorf("key %q: the line holds %U: %q", k.Name, r, got)
			}
		}
		if strings.Contains(got, "\x1b[2J") {
			t.Errorf("key %q: the line clears the screen: %q", k.Name, got)
		}
	}
}
