package tui

import (
	"encoding/json"
	"regexp"
	"testing"

	"locksim/storycode"
)

// TestExportShowsStoryCode: y shows the story code of the moment on
// screen before the export's path, whole on an 80-column status line, and
// the code reads back as that moment; a story on five nodes, which one
// redis-cli cannot replay, gets its code too.
func TestExportShowsStoryCode(t *testing.T) {
	exportDir(t)
	for _, c := range []struct{ id, presses string }{{"gc-pause", "nnnxn"}, {"redlock", "nnAsnn"}} {
		a := openScene(t, embedded(t), c.id, 1, 80, 24, c.presses)
		want, _ := json.Marshal(a.Position())
		drive(t, a, keys("y")...)
		m := regexp.MustCompile(`-story (` + c.id + `\.[0-9a-z]+) · `).FindStringSubmatch(a.View())
		if m == nil {
			t.Fatalf("%s: y shows no story code:\n%s", c.id, a.View())
		}
		pos, err := storycode.Decode(m[1])
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(pos); string(got) != string(want) {
			t.Errorf("%s: the code %s reads as %s, the screen stood at %s", c.id, m[1], got, want)
		}
	}
}
