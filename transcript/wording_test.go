package transcript

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"locksim/play"
)

// TestPositionWording: a story's own moves and its resource read as
// sentences: "after 1 move", not "1 moves"; a resource none has written
// "no writes yet", as the screen says it (sim.ResourceState.LastWrite),
// not `last write "" by —`.
func TestPositionWording(t *testing.T) {
	pos := play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1, Step: 1,
		Own: []play.Own{{At: 0, Kind: "crash", Actor: "A"}, {At: 1, Kind: "crash", Actor: "B"}}}
	var out bytes.Buffer
	// both crashed before either writes: played on to the end, none wrote
	if err := PlainPositionWith(context.Background(), &out, embedded(t), pos, PositionOptions{Role: play.Code, Answer: 1}); err != nil {
		t.Fatal(err)
	}
	text := words(out.String())
	for _, want := range []string{"crash A after 0 moves · crash B after 1 move", "resource: no writes yet · accepted 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out.String())
		}
	}
	for _, bad := range []string{"1 moves", `last write ""`, "by —"} {
		if strings.Contains(text, bad) {
			t.Errorf("the transcript says %q:\n%s", bad, out.String())
		}
	}
}
