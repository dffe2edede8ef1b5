package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/views"
)

// TestExportWaitsForTheAnswer: y writes a redis-cli script holding the
// source of every script the story sent (EVAL carries it), so while the
// question is open it writes none, as the story page holds them
// (play.Scripts): in fencing, by the question at step 7 B's write has
// sent <fenced-write>, whose source says what A's write with 33 gets.
// Once answered, y writes the script with its sources.
func TestExportWaitsForTheAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := &walk{t: t, b: embedded(t), w: 80, h: 24}
	a := w.open(Options{Seed: 1, Scene: "fencing", Export: scenes.Export{Dir: dir}})
	for i := 0; i < 10 && !a.pl.Asking; i++ {
		drive(t, a, keys("n")...)
	}
	if _, sent := a.pl.Snap.Scripts["fenced-write"]; !a.pl.Asking || !sent {
		t.Fatalf("fencing should ask with <fenced-write> sent:\n%s", a.View())
	}
	drive(t, a, keys("y")...)
	file := filepath.Join(dir, "locksim-fencing-seed1.redis")
	v := strings.Join(strings.Fields(views.Strip(a.View())), " ")
	if _, err := os.Stat(file); err == nil || !strings.Contains(v, "no redis-cli script here") || !strings.Contains(v, "<fenced-write>") {
		t.Fatalf("y at the open question: a script written (%v) or no word why:\n%s", err, a.View())
	}
	drive(t, a, keys("1y")...)
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `EVAL "`) {
		t.Fatalf("answered, y should write the script with its sources: %v\n%s\n%s", err, b, a.View())
	}
}
