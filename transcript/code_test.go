package transcript

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/storycode"
)

// codesOf are the story codes a transcript prints, in order.
func codesOf(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if code, ok := strings.CutPrefix(l, "story code: -story "); ok {
			out = append(out, code)
		}
	}
	return out
}

// TestStoryCodes: each story of a transcript ends with the code of that
// story at its end, which reads back as the scene, the story's settings,
// the seed and the last step; the question, read with its answer, is
// passed, so the code opens at the end and not at the question.
func TestStoryCodes(t *testing.T) {
	t.Parallel()
	sc := scenes.Find("gc-pause")
	codes := codesOf(plainOf(t, embedded(t), sc.ID, PlainOptions{}))
	stories := sc.Stories()
	if len(codes) != len(stories) {
		t.Fatalf("%d story codes for %d stories", len(codes), len(stories))
	}
	for i, code := range codes {
		pos, err := storycode.Decode(code)
		if err != nil {
			t.Fatalf("story %d: %v", i+1, err)
		}
		p := stories[i]
		if pos.Scene != sc.ID || pos.Seed != 1 || pos.Settings["pause"] != p["pause"] || pos.Settings["TTL"] != p["TTL"] ||
			pos.Step != len(sc.Script(p).Moves) || pos.Prediction == nil || !pos.Prediction.Passed {
			t.Errorf("story %d (%v): code %s reads as %+v", i+1, p, code, pos)
		}
	}
}

// TestPositionCode: a position's transcript ends with its code, which
// carries the own moves and the prediction its reader gave.
func TestPositionCode(t *testing.T) {
	t.Parallel()
	pos, err := play.ParsePosition([]byte(`{"version":1,"scene":"fencing","seed":7,"own":[{"at":2,"kind":"wait","ms":5000}],"step":3,"prediction":{"chosen":0}}`))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := PlainPositionWith(context.Background(), &out, embedded(t), pos, PositionOptions{Role: play.Transcript, Answer: 1}); err != nil {
		t.Fatal(err)
	}
	codes := codesOf(out.String())
	if len(codes) != 1 {
		t.Fatalf("%d codes in\n%s", len(codes), out.String())
	}
	back, err := storycode.Decode(codes[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Own) != 1 || back.Own[0] != pos.Own[0] || back.Prediction == nil || back.Prediction.Chosen != 0 || back.Step != len(scenes.Find("fencing").Script(nil).Moves)+1 {
		t.Errorf("the code %s reads as %+v", codes[0], back)
	}
}
