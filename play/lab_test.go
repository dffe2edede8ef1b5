package play

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"locksim/lab"
	"locksim/scenes"
	"locksim/sim/simtest"
)

// TestLabPosition: a lab story's position carries its lock and schedule
// through JSON and opens at the same step with the same break; one that
// names the lab without them, or carries a lock that does not read, is
// refused with a line that says what.
func TestLabPosition(t *testing.T) {
	lv, ok := lab.FindLevel("get-then-del")
	if !ok {
		t.Fatal("no get-then-del level")
	}
	l := lv.Lock
	l.Policy.Faults = []lab.Fault{lab.PausePast}
	l.Policy.Bound = lab.Bound{Clients: 2, Faults: 1, Depth: 8, MaxSchedules: 10_000}
	rep, err := lab.Check(context.Background(), &l, lab.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := rep.Judgement(lab.NoForeignRelease)
	if v.Break == nil {
		t.Fatalf("get-then-del should break no-foreign-release: %+v", v)
	}
	place := LabBreak(v.Break, "fix:get-then-del")
	pos := Position{Version: PositionVersion, Scene: lab.SceneID, Seed: 5, Step: len(place.Moves) + 2, Lab: place} // a pause is three moves of the story
	data, err := json.Marshal(pos)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePosition(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	s, err := started(context.Background(), back, simtest.Embedded(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Run.Close()
	if s.Snap.Pos != pos.Step || s.LabPlace() == nil || s.LabPlace().Level != "fix:get-then-del" {
		t.Fatalf("the story should open at step %d with its place: at %d, %+v", pos.Step, s.Snap.Pos, s.LabPlace())
	}
	if !slices.Contains(lab.BrokenIn(s.Ledger), lab.NoForeignRelease) {
		t.Errorf("at its end the story should show no-foreign-release broken: %v", lab.BrokenIn(s.Ledger))
	}
	if again := s.Position(); again.Lab == nil || len(again.Lab.Moves) != len(place.Moves) {
		t.Errorf("the session's position should carry the lab story: %+v", again.Lab)
	}
	// the scene CheckedScene builds serves CheckIn, which refuses what
	// Check refuses
	sc, err := pos.CheckedScene()
	if err != nil || sc == nil || sc.ID != lab.SceneID {
		t.Fatalf("CheckedScene: %v, %v", sc, err)
	}
	if err := pos.CheckIn(sc); err != nil {
		t.Errorf("CheckIn with the position's own scene: %v", err)
	}
	// the place builds its scene once for what it holds: each call has a
	// copy of its own, and a place changed since (here its first move
	// given to a client the story does not have) builds afresh
	again, err := place.Scene()
	if err != nil || again == sc || again.Wait != sc.Wait {
		t.Fatalf("a second Scene should be a copy of the first: %p %p, %v", again, sc, err)
	}
	again.Wait = -1
	if sc3, _ := place.Scene(); sc3 == nil || sc3.Wait != sc.Wait {
		t.Errorf("a change to one Scene's copy reached the next: %+v", sc3)
	}
	changed := place.clone()
	changed.Moves[0].Client = "Z"
	if _, err := changed.Scene(); err == nil || !strings.Contains(err.Error(), "Z cannot step") {
		t.Errorf("a place changed since its scene was built should build afresh and be refused: %v", err)
	}
	if _, err := place.Scene(); err != nil {
		t.Errorf("the place itself is unchanged: %v", err)
	}
	// so is what a caller makes of its scene (a story code's fingerprint),
	// handed the story as the play that found its question ended (the
	// fingerprint then does not play it again)
	made, withPlayed := 0, 0
	of := func(_ *scenes.Scene, played *scenes.Played) ([4]byte, error) {
		made++
		if played != nil && len(played.Moves) > 0 && len(played.Events) > 0 {
			withPlayed++
		}
		return [4]byte{byte(made)}, nil
	}
	fp, err := place.Fingerprint(of)
	if again, err2 := pos.Lab.Fingerprint(of); err != nil || err2 != nil || again != fp || made != 1 || withPlayed != 1 {
		t.Errorf("a place's fingerprint should be made once, of the story played: %v %v, %v %v, made %d times, %d with it played", fp, again, err, err2, made, withPlayed)
	}
	if _, err := changed.Fingerprint(of); err == nil || made != 1 {
		t.Errorf("a place changed to one that does not play has no fingerprint: %v, made %d times", err, made)
	}
	changed.Moves[0].Client, changed.Level = place.Moves[0].Client, "break:get-then-del"
	if again, err := changed.Fingerprint(of); err != nil || again == fp || made != 2 {
		t.Errorf("a place changed since its fingerprint was made should make it afresh: %v %v, made %d times", again, err, made)
	}
	past := pos
	past.Step = 1000
	if errIn, err := past.CheckIn(sc), past.Check(); errIn == nil || err == nil || errIn.Error() != err.Error() {
		t.Errorf("a step past the story's end: CheckIn %v, Check %v", errIn, err)
	}

	for _, c := range []struct {
		name string
		pos  Position
		says string
	}{
		{"no lock", Position{Version: 1, Scene: lab.SceneID}, "carries its lock"},
		{"another scene", Position{Version: 1, Scene: "race", Lab: place}, "not \"race\""},
		{"bad policy", Position{Version: 1, Scene: lab.SceneID, Lab: &LabPlace{Parts: place.Parts, Clients: 2, Policy: json.RawMessage(`{"ttl_ms": 0}`)}}, "ttl_ms"},
		{"bad language", Position{Version: 1, Scene: lab.SceneID, Lab: &LabPlace{Parts: []LabPart{{Name: "acquire", Lang: "py", Src: "x"}}, Clients: 2, Policy: place.Policy}}, "not lua or redis"},
		{"bad script", Position{Version: 1, Scene: lab.SceneID, Lab: &LabPlace{Parts: []LabPart{{Name: "acquire", Lang: "lua", Src: "if then"}, {Name: "release", Lang: "lua", Src: "return 1"}}, Clients: 2, Policy: place.Policy}}, "acquire.lua"},
		{"bad fault", Position{Version: 1, Scene: lab.SceneID, Lab: &LabPlace{Parts: place.Parts, Clients: 2, Policy: place.Policy, Property: string(lab.NoForeignRelease), Moves: []LabMove{{Fault: "meteor"}}}}, "meteor"},
	} {
		err := c.pos.Check()
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: the position should be refused saying %q, got %v", c.name, c.says, err)
		}
		if c.pos.Lab == place {
			if err := c.pos.CheckIn(sc); err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%s: CheckIn should refuse the position saying %q, got %v", c.name, c.says, err)
			}
		}
	}
}

// TestLabPlaceVetted: a lab story that came from outside (a story code, a
// saved place) opens only when its scripts play within the lab's budget,
// and a story played by hand only on a level's lock as shipped: the story
// itself runs the scripts through the embedded server's EVAL, which has no
// budget, and an endless loop there would hold the session for good.
func TestLabPlaceVetted(t *testing.T) {
	endless := &LabPlace{Clients: 2, Parts: []LabPart{
		{Name: lab.PartAcquire, Lang: "lua", Src: "while true do end"},
		{Name: lab.PartRelease, Lang: "lua", Src: "return redis.call('DEL', KEYS[1])"},
	}, Policy: []byte(`{}`), Property: string(lab.MutualExclusion), Moves: []LabMove{{Client: "A"}, {Client: "B"}}}
	if _, err := endless.Scene(); err == nil || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("a break whose acquire never ends: %v", err)
	}
	hand := *endless
	hand.Moves, hand.Level = nil, "break:get-then-del"
	if _, err := hand.Scene(); err == nil || !strings.Contains(err.Error(), "as shipped") {
		t.Fatalf("a lock played by hand that is no level's: %v", err)
	}
	lv, _ := lab.FindLevel("get-then-del")
	shipped := LabHand(&lv.Lock, 2, "break:get-then-del")
	if _, err := shipped.Scene(); err != nil {
		t.Fatalf("the level's own lock, played by hand: %v", err)
	}
}

// TestFollowALabStory: a story of the lab the instructor leads opens
// through the course's door for a follower, as a visit, on the lab's own
// server; the course stays at its scene, and nothing of it is recorded.
func TestFollowALabStory(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := NewCourse(ctx, embedded(t), 1, &sync.WaitGroup{})
	defer c.Close(context.Background())
	from, err := c.Open(c.Index("release"), nil)
	if err != nil {
		t.Fatal(err)
	}
	lv, _ := lab.FindLevel("get-then-del")
	pos := Position{Version: PositionVersion, Scene: lab.SceneID, Seed: 3, Lab: LabHand(&lv.Lock, 2, "break:get-then-del")}
	s, err := c.Visit(VisitFollow, pos, from)
	if err != nil {
		t.Fatalf("a follower opening the instructor's lab story: %v", err)
	}
	d := Driver{S: s}
	d.Run(s.Start(nil))
	defer s.Close(ctx)
	if s.Backend == c.b || s.LabPlace() == nil || c.Scenes[c.At].ID != "release" {
		t.Errorf("the lab story should play on the lab's server with the course at release: lab %v, at %s", s.LabPlace() != nil, c.Scenes[c.At].ID)
	}
	if err := d.Do(Do(Step)); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Prog.Places[lab.SceneID]; len(c.Prog.Answers) != 0 || ok {
		t.Errorf("a lab story left progress behind: %+v %v", c.Prog.Answers, c.Prog.Places)
	}
}

// TestLabPlaceTitle: a lab story's title names its level and the mode it
// is played in; the learner's own lock, or a level the lab lacks, has none.
func TestLabPlaceTitle(t *testing.T) {
	for level, want := range map[string]string{
		"break:get-then-set": "break this lock: An acquire in two commands",
		"fix:get-then-del":   "fix this lock: A release in two commands",
		"":                   "",
		"fix:no-such-level":  "",
		"mend:get-then-set":  "",
	} {
		if got := (&LabPlace{Level: level}).Title(); got != want {
			t.Errorf("%q: title %q, want %q", level, got, want)
		}
	}
}
