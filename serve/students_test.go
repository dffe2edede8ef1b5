package serve

import (
	"encoding/json"
	"testing"

	"locksim/lab"
	"locksim/play"
	"locksim/scenes/progress"
)

// TestServedResumeKeepsAnOldLabPlaceApart: a progress file an older
// locksim wrote with a story of the lab as the course's place (Moment's
// scene "lab") resumes a served student on the contents, as the local
// course reads it (play.SavedPlace): the story is the lab's place, which
// the lab opens, never the course's. A scene's place still resumes.
func TestServedResumeKeepsAnOldLabPlaceApart(t *testing.T) {
	lv, ok := lab.FindLevel("get-then-del")
	if !ok {
		t.Fatal("no level get-then-del")
	}
	story := play.Position{Version: play.PositionVersion, Scene: lab.SceneID, Seed: 3, Lab: play.LabHand(&lv.Lock, 2, "break:get-then-del")}
	labPlace, err := json.Marshal(story)
	if err != nil {
		t.Fatal(err)
	}
	scene := play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 3, Step: 2}
	scenePlace, err := json.Marshal(scene)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		prog  progress.Progress
		scene string // "" for the contents
	}{
		{"an older file's lab story", progress.Progress{Moment: progress.Moment{Scene: lab.SceneID}, Place: labPlace}, ""},
		{"a scene", progress.Progress{Moment: progress.Moment{Scene: "gc-pause", Step: 2}, Place: scenePlace}, "gc-pause"},
		{"no place", progress.Progress{}, ""},
	} {
		store := &play.Memory{}
		if err := store.Save(c.prog); err != nil {
			t.Fatal(err)
		}
		stu := &student{store: store}
		got := stu.place()
		switch {
		case c.scene == "" && got != nil:
			t.Errorf("%s: the served student resumes at %s (lab %v), want the contents", c.name, got.Scene, got.Lab != nil)
		case c.scene != "" && (got == nil || got.Scene != c.scene):
			t.Errorf("%s: the served student resumes at %+v, want %s", c.name, got, c.scene)
		}
	}
}
