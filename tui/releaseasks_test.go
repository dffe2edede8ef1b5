package tui

import (
	"strings"
	"testing"

	"locksim/scenes"
)

// TestReleaseAsksEveryStory walks release's questions on the embedded
// server: the finally story asks whose lock A's refused DEL deletes (B's:
// DEL answers 1 and B's key is gone), and a release in one command (DELEX
// IFEQ, DELIFEQ) asks what it answers, whether B took the lapsed lock or
// nobody did: 0 both times, never the script's -1 for a key that is gone.
// Each reveal is read off the replies in the log.
func TestReleaseAsksEveryStory(t *testing.T) {
	t.Parallel()
	cases := []struct {
		method, lapsed, question, reply string
		actual                          int
	}{
		{"DEL in finally when refused", "B takes it", "A's finally block releases anyway", "(integer) 1", 1},
		{"DELEX IFEQ", "B takes it", "What does A's DELEX key IFEQ token answer?", "(integer) 0", 1},
		{"DELEX IFEQ", "nobody takes it", "What does A's DELEX key IFEQ token answer?", "(integer) 0", 1},
		{"DELIFEQ", "B takes it", "What does A's DELIFEQ key token answer?", "(integer) 0", 1},
		{"DELIFEQ", "nobody takes it", "What does A's DELIFEQ key token answer?", "(integer) 0", 1},
	}
	for _, c := range cases {
		t.Run(c.method+"/"+c.lapsed, func(t *testing.T) {
			t.Parallel()
			p := scenes.Params{"release": knobIndex(t, "release", "release", c.method), "lapsed lock": knobIndex(t, "release", "lapsed lock", c.lapsed)}
			a, _ := openCourse(t, Options{Seed: 1, Scene: "release", Settings: p}, "")
			for i := 0; i < 20 && !a.pl.Asking; i++ {
				drive(t, a, keys("n")...)
			}
			v := strings.Join(strings.Fields(a.View()), " ")
			if !a.pl.Asking || !strings.Contains(v, c.question) {
				t.Fatalf("release (%s, %s) should ask %q:\n%s", c.method, c.lapsed, c.question, a.View())
			}
			drive(t, a, keys("2")...)
			e, ok := lastOf(a.pl.Snap.Events, "A", "")
			if !ok || e.Reply != c.reply || a.pl.Actual != c.actual {
				t.Fatalf("A's release answered %q (want %q); the question's answer is %d, want %d:\n%s", e.Reply, c.reply, a.pl.Actual, c.actual, a.View())
			}
			if v := a.View(); !strings.Contains(v, c.reply) || !strings.Contains(v, a.pl.Choices()[c.actual]) {
				t.Errorf("the reveal should show the reply %s and the choice it made true:\n%s", c.reply, v)
			}
		})
	}
}
