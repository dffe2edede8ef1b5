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

// TestVisitIsNotAMove: a place opened as a visit (a student's run on the
// instructor's screen, with its prediction) is never the learner's saved
// place, nor the place kept for its scene, and its prediction is not the
// learner's answer; Home goes back to the learner's own place as it was.
// A code visited with nothing of the learner's own on screen leaves the
// saved place as the store holds it, and a question answered in it does
// not count as answered by the learner.
func TestVisitIsNotAMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &Memory{}
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	c.Quiz = true
	if err := c.Use(store); err != nil {
		t.Fatal(err)
	}
	s, err := c.Open(c.Index("fencing"), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))
	if err := d.Do(Do(Step), Do(Step)); err != nil {
		t.Fatal(err)
	}
	// a student's run at gc-pause, their prediction made and revealed
	theirs := Position{Version: PositionVersion, Scene: "gc-pause", Seed: 5, Step: 4, Prediction: &Prediction{Chosen: 0}}
	old := s
	if s, err = c.Visit(VisitRun, theirs, old); err != nil {
		t.Fatal(err)
	}
	d = Driver{S: s}
	d.Run(s.Start(old.Run))
	if c.Visiting() != VisitRun || !c.Nav(s).Visiting || s.Guess != 0 {
		t.Fatalf("visiting %v (nav %v), guess %d", c.Visiting(), c.Nav(s).Visiting, s.Guess)
	}
	for !c.StoryOver(s) {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	c.NoteDone(s)
	if err := c.SaveMoment(s); err != nil {
		t.Fatal(err)
	}
	got, _ := store.Load()
	if got.Moment.Scene != "fencing" || got.Moment.Step != 2 || got.Moment.Seed != 1 {
		t.Errorf("the saved place is %+v, want the learner's fencing at step 2, seed 1", got.Moment)
	}
	if pos, err := ParsePosition(got.Place); err != nil || pos.Scene != "fencing" || pos.Prediction != nil {
		t.Errorf("the saved position is %+v (%v), want fencing with no prediction", pos, err)
	}
	if _, ok := got.Answers["gc-pause"]; ok || got.Done["gc-pause"] {
		t.Errorf("the visit counted as the learner's: answers %v, done %v", got.Answers, got.Done)
	}
	// opening gc-pause as one's own does not come back to the visited place
	old = s
	if s, err = c.Home(old); err != nil || s == nil {
		t.Fatalf("home: %v %v", s, err)
	}
	d = Driver{S: s}
	d.Run(s.Start(old.Run))
	if c.Visiting() != NotVisiting || s.Scene.ID != "fencing" || s.Snap.Pos != 2 || s.Seed != 1 {
		t.Fatalf("home is %s at step %d, seed %d (visiting %v), want fencing at 2, seed 1", s.Scene.ID, s.Snap.Pos, s.Seed, c.Visiting())
	}
	old = s
	if s, err = c.Open(c.Index("gc-pause"), old); err != nil {
		t.Fatal(err)
	}
	Driver{S: s}.Run(s.Start(old.Run))
	if s.Guess != -1 || s.Snap.Pos != 0 || s.Seed != 1 {
		t.Errorf("the learner's own gc-pause opens at step %d, seed %d, guess %d: the visit's", s.Snap.Pos, s.Seed, s.Guess)
	}
	s.Close(ctx)

	// a code opened at start: nothing of the learner's own on screen
	c2 := NewCourse(ctx, embedded(t), 2, &sync.WaitGroup{})
	c2.Quiz = true
	if err := c2.Use(store); err != nil {
		t.Fatal(err)
	}
	v, err := c2.Visit(VisitCode, Position{Version: PositionVersion, Scene: "race", Seed: 9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d = Driver{S: v}
	d.Run(v.Start(nil))
	if !v.Asking {
		t.Fatal("the race code does not ask")
	}
	if err := d.Do(DoN(Select, 1)); err != nil {
		t.Fatal(err)
	}
	c2.NoteDone(v)
	if _, ok := c2.Prog.Answers["race"]; ok || c2.Prog.Done["race"] {
		t.Errorf("the code's answer counted as the learner's: %v %v", c2.Prog.Answers, c2.Prog.Done)
	}
	if err := c2.SaveMoment(v); err != nil {
		t.Fatal(err)
	}
	if got, _ := store.Load(); got.Moment.Scene != "fencing" || got.Moment.Step != 2 {
		t.Errorf("a code's visit saved %+v over the learner's fencing at step 2", got.Moment)
	}
	home, err := c2.Home(v)
	if err != nil || home == nil {
		t.Fatalf("home from a code: %v %v", home, err)
	}
	Driver{S: home}.Run(home.Start(v.Run))
	defer home.Close(ctx)
	if home.Scene.ID != "fencing" || home.Snap.Pos != 2 {
		t.Errorf("home from a code is %s at %d, want the saved fencing at 2", home.Scene.ID, home.Snap.Pos)
	}
}

// TestEveryScenePlaceKept: a scene left part-way keeps its place in the
// progress after another scene was played and the program ended: the next
// run reopens it where it was (crash-gap at its third step, the option
// chosen), while the last scene played is the one the course continues at.
func TestEveryScenePlaceKept(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &Memory{}
	b := embedded(t)
	c := NewCourse(ctx, b, 1, &sync.WaitGroup{})
	if err := c.Use(store); err != nil {
		t.Fatal(err)
	}
	s, err := c.Open(c.Index("crash-gap"), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))
	for range 3 {
		if err := d.Do(Do(Step)); err != nil {
			t.Fatal(err)
		}
	}
	want := s.Position()
	if want.Step != 3 {
		t.Fatalf("crash-gap after three steps stands at %d", want.Step)
	}
	r, err := c.Open(c.Index("release"), s)
	if err != nil {
		t.Fatal(err)
	}
	(&Driver{S: r}).Run(r.Start(s.Run))
	if err := c.SaveMoment(r); err != nil {
		t.Fatal(err)
	}
	r.Close(ctx)

	next := NewCourse(ctx, b, 1, &sync.WaitGroup{})
	if err := next.Use(store); err != nil {
		t.Fatal(err)
	}
	if got := next.LastPlace().Scene; got != "release" {
		t.Errorf("the course continues at %q, want release, the last scene played", got)
	}
	again, err := next.Open(next.Index("crash-gap"), nil)
	if err != nil {
		t.Fatal(err)
	}
	(&Driver{S: again}).Run(again.Start(nil))
	defer again.Close(ctx)
	if got := again.Position(); got.Step != want.Step || got.Seed != want.Seed {
		t.Errorf("crash-gap reopened at step %d seed %d, want step %d seed %d as left", got.Step, got.Seed, want.Step, want.Seed)
	}
}
