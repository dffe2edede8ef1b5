package play

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"locksim/lab"
	"locksim/scenes/progress"
)

// TestLabKeepsTheCourseResume: a story of the lab on screen when the
// program ends is kept as the lab's place, apart from the course's: the
// course's place stays the scene the learner last played (gc-pause at
// step 2), or, when they opened no scene this time (Browse), the place
// the store held (fencing at step 3); never "lab, step 0". Closing the
// story forgets the lab's place. A file an older locksim wrote with the
// lab as the course's place reads with its story as the lab's, and no
// course place.
func TestLabKeepsTheCourseResume(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lv, _ := lab.FindLevel("get-then-del")
	story := Position{Version: PositionVersion, Scene: lab.SceneID, Seed: 3, Lab: LabHand(&lv.Lock, 2, "break:get-then-del")}
	open := func(c *Course, pos Position) *Session {
		t.Helper()
		s, err := c.LabStory(pos)
		if err != nil {
			t.Fatal(err)
		}
		Driver{S: s}.Run(s.Start(nil))
		t.Cleanup(func() { s.Close(ctx) })
		return s
	}

	// a scene played, then a story of the lab
	store := &Memory{}
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	defer c.Close(context.Background())
	if err := c.Use(store); err != nil {
		t.Fatal(err)
	}
	s, err := c.Open(c.Index("gc-pause"), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))
	for range 2 {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	ls := open(c, story)
	if c.Browsing() {
		t.Error("a story of the lab on screen is the learner's place, not the contents'")
	}
	c.KeepLab(ls)
	if err := c.SaveMoment(s); err != nil {
		t.Fatal(err)
	}
	got, _ := store.Load()
	if got.Moment.Scene != "gc-pause" || got.Moment.Step != 2 {
		t.Errorf("the course's place is %+v, want gc-pause at step 2", got.Moment)
	}
	next := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	if err := next.Use(store); err != nil {
		t.Fatal(err)
	}
	if pos, ok := next.LabPlace(); !ok || pos.Lab.Level != "break:get-then-del" {
		t.Errorf("the lab's place did not come back: %+v %v", pos, ok)
	}
	if pos := next.LastPlace(); pos.Scene != "gc-pause" || pos.Step != 2 {
		t.Errorf("the course's last place is %s at %d, want gc-pause at 2", pos.Scene, pos.Step)
	}

	// nothing opened but a story of the lab: the store's place stays
	held := &Memory{}
	held.Save(progress.Progress{Moment: progress.Moment{Scene: "fencing", Step: 3}})
	c2 := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	defer c2.Close(context.Background())
	if err := c2.Use(held); err != nil {
		t.Fatal(err)
	}
	under, err := c2.Browse(Position{Version: PositionVersion, Scene: "race"})
	if err != nil {
		t.Fatal(err)
	}
	Driver{S: under}.Run(under.Start(nil))
	defer under.Close(ctx)
	ls = open(c2, story)
	c2.KeepLab(ls)
	if err := c2.SaveMoment(under); err != nil {
		t.Fatal(err)
	}
	if got, _ := held.Load(); got.Moment.Scene != "fencing" || got.Moment.Step != 3 || len(got.Lab) == 0 {
		t.Errorf("a story of the lab over the contents saved the course's place %+v (lab %d bytes), want fencing at 3", got.Moment, len(got.Lab))
	}
	// the story closed, back to the lab: the course's place is still not
	// the one under the contents, and the lab's is forgotten
	c2.LabClosed()
	if !c2.Browsing() {
		t.Error("with the story closed, the session under the contents is nobody's place again")
	}
	if err := c2.SaveMoment(under); err != nil {
		t.Fatal(err)
	}
	if got, _ := held.Load(); got.Moment.Scene != "fencing" || got.Moment.Step != 3 || len(got.Lab) != 0 {
		t.Errorf("after the story closed the saved places are %+v (lab %d bytes), want fencing at 3 and no lab", got.Moment, len(got.Lab))
	}
	// the lab story handed to SaveMoment itself is the lab's place too
	ls = open(c2, story)
	if err := c2.SaveMoment(ls); err != nil {
		t.Fatal(err)
	}
	if got, _ := held.Load(); got.Moment.Scene != "fencing" || len(got.Lab) == 0 {
		t.Errorf("SaveMoment of a story of the lab saved %+v (lab %d bytes)", got.Moment, len(got.Lab))
	}

	// an older locksim's file: the lab as the course's place
	raw, _ := json.Marshal(story)
	old := &Memory{}
	old.Save(progress.Progress{Moment: story.Moment(), Place: raw})
	c3 := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	if err := c3.Use(old); err != nil {
		t.Fatal(err)
	}
	if c3.Prog.Moment.Scene != "" || len(c3.Prog.Place) != 0 {
		t.Errorf("an older file's lab place is still the course's: %+v", c3.Prog.Moment)
	}
	if pos, ok := c3.LabPlace(); !ok || pos.Lab.Level != "break:get-then-del" {
		t.Errorf("an older file's lab place is not the lab's: %+v %v", pos, ok)
	}
}
