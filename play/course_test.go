package play

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"locksim/scenes"
)

// TestCourseWalksLesson: a presenter's lesson (-present -scenes
// gc-pause,fencing) walked headless, a step at a time, with nothing but
// the course and a driver: every story of gc-pause in turn, each putting
// its question to the class again, then fencing's, then the end of the
// lesson; both scenes are marked done in the store.
func TestCourseWalksLesson(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	c.Quiz, c.Present = true, true
	store := &Memory{}
	if err := c.Use(store); err != nil {
		t.Fatal(err)
	}
	c.SetPlaylist([]string{"gc-pause", "fencing"})
	s, err := c.Open(c.Playlist[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))

	var want, wantEnds []string
	for _, id := range []string{"gc-pause", "fencing"} {
		sc := scenes.Find(id)
		stories := sc.LessonStories()
		if len(stories) == 0 {
			stories = []scenes.Params{{}}
		}
		for i, v := range stories {
			want = append(want, id+" "+sc.Describe(v))
			if i > 0 {
				wantEnds = append(wantEnds, "story")
			}
		}
		wantEnds = append(wantEnds, "scene")
	}
	wantEnds[len(wantEnds)-1] = "over"
	var seen, ends []string
	passed, asks := 0, 0
	for steps := 0; ; steps++ {
		if steps > 600 {
			t.Fatalf("no end of the lesson after %d steps; saw %v", steps, seen)
		}
		if now := s.Scene.ID + " " + s.Scene.Describe(s.Params); len(seen) == 0 || seen[len(seen)-1] != now {
			seen = append(seen, now)
			if s.Scene.PredictAt(s.MoveLabels()) >= 0 {
				asks++ // a story whose schedule has the question's move
			}
		}
		if s.Asking {
			passed++ // the step passes the question to the class
		}
		if !c.StoryOver(s) {
			if err := d.Do(Do(Step)); err != nil {
				t.Fatalf("%s at step %d: %v", s.Scene.ID, s.Snap.Pos, err)
			}
			continue
		}
		end, cmd := c.EndOfStory(s)
		ends = append(ends, [...]string{"ended", "story", "scene", "over"}[end.Kind])
		if end.Kind == LessonOver {
			break
		}
		switch end.Kind {
		case NewStory:
			if s.Guess != -1 || s.Passed || s.Revealed || !sameSettings(s.Scene, s.Params, end.Story) {
				t.Fatalf("the next story should be a new question with its settings: %+v", s.Params)
			}
			d.Run(cmd)
		case NewScene:
			old := s
			if s, err = c.Open(end.Scene, old); err != nil {
				t.Fatal(err)
			}
			d = Driver{S: s}
			d.Run(s.Start(old.Run))
		default:
			t.Fatalf("a presenter's end of story should go on with the lesson, got %v", end.Kind)
		}
		if s.Err != "" {
			t.Fatalf("%s: %s", s.Scene.ID, s.Err)
		}
	}
	defer s.Close(ctx)
	if !slices.Equal(seen, want) {
		t.Errorf("the lesson walked\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(ends, wantEnds) {
		t.Errorf("the ends of the stories led to %v, want %v", ends, wantEnds)
	}
	if c.Scenes[c.At].ID != "fencing" || c.NextScene() != -1 {
		t.Errorf("the lesson should end in fencing, at %s", c.Scenes[c.At].ID)
	}
	if passed != asks || asks < len(want)-1 {
		t.Errorf("each story should put its question to the class: %d passed, %d stories of %d with one", passed, asks, len(want))
	}
	st, prog, ok := c.TakeSave()
	if !ok || !prog.Done["gc-pause"] || !prog.Done["fencing"] {
		t.Fatalf("both scenes should be done and unsaved: %v %v", ok, prog.Done)
	}
	if err := st.Save(prog); err != nil {
		t.Fatal(err)
	}
	if got, _ := store.Load(); !got.Done["gc-pause"] || !got.Done["fencing"] {
		t.Errorf("the store should hold both scenes done: %v", got.Done)
	}
}

// TestCourseKeepsEachScenesPlace: a scene left for another and opened
// again is where the learner left it; a learner's step past the end is
// StoryEnded, opens nothing, and marks the scene done.
func TestCourseKeepsEachScenesPlace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	gc, fencing := c.Index("gc-pause"), c.Index("fencing")
	s, err := c.Open(gc, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))
	if err := d.Do(Do(Step), Do(Step), Do(Step)); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{fencing, gc} {
		old := s
		if s, err = c.Open(i, old); err != nil {
			t.Fatal(err)
		}
		d = Driver{S: s}
		d.Run(s.Start(old.Run))
	}
	defer s.Close(ctx)
	if s.Scene.ID != "gc-pause" || c.At != gc || s.Snap.Pos != 3 {
		t.Fatalf("back in %s (course at %d) at step %d, want gc-pause at step 3", s.Scene.ID, c.At, s.Snap.Pos)
	}
	for !c.StoryOver(s) {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	if end, cmd := c.EndOfStory(s); end.Kind != StoryEnded || cmd != nil || c.At != gc {
		t.Errorf("a learner's end of story: %+v, course at %d", end, c.At)
	}
	if !c.Prog.Done["gc-pause"] || c.Prog.Done["fencing"] {
		t.Errorf("only gc-pause should be done: %v", c.Prog.Done)
	}
}

// TestCourseNavigates: the navigation verbs move a headless course from
// scene to scene, wrapping around, and open a scene by its index.
func TestCourseNavigates(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	s, err := c.Open(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	Driver{S: s}.Run(s.Start(nil))
	last := len(c.Scenes) - 1
	for _, step := range []struct {
		in   NavAction
		want int
	}{{NavDo(NavPrev), last}, {NavDo(NavNext), 0}, {NavDo(NavNext), 1}, {NavOpenAt(c.Index("fencing")), c.Index("fencing")}} {
		n, then := Navigate(c.Nav(s), step.in)
		if then != OpenScene || n.Scene != step.want {
			t.Fatalf("%+v from %s: %v to %d, want OpenScene to %d", step.in, s.Scene.ID, then, n.Scene, step.want)
		}
		old := s
		if s, err = c.Open(n.Scene, old); err != nil {
			t.Fatal(err)
		}
		Driver{S: s}.Run(s.Start(old.Run))
		if s.Scene != c.Scenes[step.want] || c.At != step.want || s.Err != "" {
			t.Fatalf("opened %s (course at %d, %q), want %s", s.Scene.ID, c.At, s.Err, c.Scenes[step.want].ID)
		}
	}
	s.Close(ctx)
}
