package gradebook

import (
	"slices"
	"strings"
	"testing"

	"locksim/scenes"
)

func TestReadScoring(t *testing.T) {
	s, err := ReadScoring(strings.NewReader(`{"quiz": 10, "scenes": ["gc-pause", "race"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Scoring{SceneFinished: 1, PredictionGiven: 1, PredictionRight: 1, Quiz: 10, LabLevel: 3, Scenes: []string{"gc-pause", "race"}}
	if !slices.Equal(s.Scenes, want.Scenes) || s.Quiz != want.Quiz || s.SceneFinished != 1 || s.PredictionGiven != 1 || s.PredictionRight != 1 || s.LabLevel != 3 {
		t.Errorf("got %+v, want %+v", s, want)
	}
	d, err := ReadScoring(strings.NewReader(`{}`))
	if err != nil || len(d.Scenes) != len(scenes.All()) || d.Scenes[0] != "race" {
		t.Errorf("{} read as %+v, %v; want the defaults, every scene", d, err)
	}
}

func TestReadScoringRefuses(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"unknown field", `{"quiz": 5, "bonus": 2}`, `scoring: unknown field "bonus" (scene_finished,`},
		{"misspelt field", `{"scene_finish": 1}`, `scoring: unknown field "scene_finish"`},
		{"negative", `{"lab_level": -1}`, "scoring: lab_level is -1: a weight is from 0 to 10000 points"},
		{"too big", `{"quiz": 1e9}`, "scoring: quiz is 1e+09: a weight is from 0 to 10000 points"},
		{"unknown scene", `{"scenes": ["race", "nope"]}`, `scoring: scenes: unknown scene "nope"`},
		{"scene twice", `{"scenes": ["race", "race"]}`, `scoring: scenes: "race" is named twice`},
		{"no scenes", `{"scenes": []}`, "scoring: scenes is empty"},
		{"a string weight", `{"quiz": "5"}`, "scoring: json: cannot unmarshal string"},
		{"two objects", `{} {}`, "scoring: more than one JSON value"},
		{"not JSON", `quiz=5`, "scoring: invalid character"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadScoring(strings.NewReader(c.in))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line starting %q", err, c.want)
			}
		})
	}
}
