package play

import (
	"context"
	"slices"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/sim"
)

// TestDiscloseRule is the rule as a table: where the story stands against
// its question, whether it was answered, and who reads.
func TestDiscloseRule(t *testing.T) {
	for _, c := range []struct {
		name                         string
		s                            standing
		role                         Role
		open, state, checked, answer bool
		key                          bool
		// ahead: the moves the timeline may draw, -1 all; while the
		// question is open, up to its move (the future tells the answer)
		ahead int
	}{
		{"no question", standing{at: -1, step: 3}, Learner, false, true, true, true, false, -1},
		{"no question here, one in another story", standing{at: -1, step: 3, elsewhere: true}, Learner, false, true, true, false, false, -1},
		{"no question here, the notes file", standing{at: -1, step: 3, elsewhere: true}, NotesFile, false, true, true, true, true, -1},
		{"ahead, before its moment", standing{at: 5, moment: 4, step: 2}, Learner, true, true, false, false, false, 6},
		{"ahead, in its moment", standing{at: 5, moment: 4, step: 4}, Projector, true, false, false, false, false, 6},
		{"at it", standing{at: 5, moment: 5, step: 5}, Follower, true, false, false, false, false, 6},
		{"at it, the instructor's own session", standing{at: 5, moment: 5, step: 5}, Instructor, true, false, false, true, true, 6},
		{"at it, the notes file", standing{at: 5, moment: 5, step: 5}, NotesFile, true, false, false, true, true, 6},
		{"at it, answered", standing{at: 5, moment: 5, step: 5, answered: true}, Learner, false, true, true, true, false, -1},
		{"back before it, answered", standing{at: 5, moment: 5, step: 2, answered: true}, Cast, false, true, true, true, false, -1},
		{"past it, passed to the class", standing{at: 5, moment: 5, step: 6}, Projector, false, true, true, true, false, -1},
		{"a follower who answered, waiting", standing{at: 5, moment: 5, step: 5, answered: true, waiting: true}, Follower, false, false, false, false, false, 6},
	} {
		d := disclose(c.s, c.role)
		if d.Open != c.open || d.State != c.state || d.Checked != c.checked || d.Answer != c.answer || d.Key != c.key || d.Ahead != c.ahead {
			t.Errorf("%s: got %+v; want open %v, state %v, checked %v, answer %v, key %v, ahead %d", c.name, d, c.open, c.state, c.checked, c.answer, c.key, c.ahead)
		}
		// the timeline of a 12-move story, and of one whose question
		// stands before its last move (timeout's): while the question is
		// open the count is withheld whatever the length ("N/?", "⋯"),
		// else a story ending at its question tells that nothing follows
		for _, moves := range []int{12, c.s.at + 1} {
			if moves <= 0 {
				continue
			}
			n, more := d.Drawn(moves)
			want := moves
			if c.ahead >= 0 {
				want = min(c.ahead, moves)
			}
			if n != want || more != (c.ahead >= 0) {
				t.Errorf("%s: Drawn(%d) = %d, %v; want %d, %v", c.name, moves, n, more, want, c.ahead >= 0)
			}
		}
	}
}

// TestStoryWithoutQuestionHoldsTheScenesAnswer: timeout's fail-fast story
// asks nothing, but the scene's answer (how many get the lock once H lets
// go) answers its other stories' question: the story page and the notes
// hold it back there too.
func TestStoryWithoutQuestionHoldsTheScenesAnswer(t *testing.T) {
	ctx := context.Background()
	sc := scenes.Find("timeout")
	fast := -1
	for i, v := range sc.Knobs[0].Values {
		if v == "fail fast" {
			fast = i
		}
	}
	s, err := Open(ctx, Position{Version: PositionVersion, Scene: "timeout", Settings: map[string]int{"policy": fast}, Seed: 5}, Env{Backend: embedded(t), Options: Options{Predict: true}})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Disclose(Learner); d.At >= 0 || d.Answer || !d.State {
		t.Fatalf("fail fast: %+v", d)
	}
	for what, text := range map[string]string{"story page": s.Page(Learner), "notes": s.Notes(Learner)} {
		if !strings.Contains(text, WaitsForOtherStory) || strings.Contains(text, s.Text.Get("intro-answer")) || strings.Contains(text, s.Text.Get("notes-answer")) {
			t.Errorf("fail fast, the %s:\n%s", what, text)
		}
	}
}

// TestDiscloseLabReport: the lab's page hides a search's report while a
// break's question is open and predictions are asked, and hides nothing
// once every one is answered or with predictions off.
func TestDiscloseLabReport(t *testing.T) {
	for _, c := range []struct {
		open    int
		predict bool
		state   bool
	}{{1, true, false}, {3, true, false}, {0, true, true}, {2, false, true}} {
		if d := DiscloseLabReport(c.open, c.predict, Learner); d.State != c.state || d.Checked != c.state || d.Answer != c.state {
			t.Errorf("%d open, predict %v: %+v, want state, checked and answer %v", c.open, c.predict, d, c.state)
		}
	}
}

// TestLabPropertiesNamed: a level to fix names the property it judges
// only once its adversary has run and every break's question is answered
// (or predictions are off); a lock whose breaks ask nothing is named but
// while a question is open.
func TestLabPropertiesNamed(t *testing.T) {
	for _, c := range []struct {
		asks, ran bool
		open      int
		predict   bool
		named     bool
	}{
		{true, false, 0, true, false}, // before the run: a run may ask
		{true, true, 1, true, false},
		{true, true, 0, true, true},
		{true, false, 0, false, true},
		{false, false, 0, true, true},
		{false, true, 2, true, false},
	} {
		if got := LabPropertiesNamed(c.asks, c.ran, c.open, c.predict, Learner); got != c.named {
			t.Errorf("%+v: named %v", c, got)
		}
	}
	if !LabPropertiesNamed(true, false, 0, true, Instructor) {
		t.Error("the answer key's reader should see the level's properties")
	}
}

// TestScriptsAtAnOpenCode: a code is read by someone who has not
// answered (Disclose), so the scripts a story sent by a code at or before
// its question wait, its author's answer notwithstanding; past the
// question, or for a role that may read the key, they are shown.
func TestScriptsAtAnOpenCode(t *testing.T) {
	sent := map[string]sim.Lua{"fenced-write": {Src: "return 1"}, "fenced-acquire": {Src: "return 2"}}
	before := Position{Version: PositionVersion, Scene: "fencing", Seed: 1, Step: 3, Prediction: &Prediction{Chosen: 0}}
	if d := Disclose(before, Code); !d.Open {
		t.Fatalf("fencing at step 3 should stand before its question: %+v", d)
	}
	if got := ScriptsAt(before, Code, sent); len(got.Shown) != 0 || strings.Join(got.Held, ",") != "fenced-acquire,fenced-write" {
		t.Errorf("a code before its question shows %v, holds %v", got.Shown, got.Held)
	}
	if got := ScriptsAt(before, NotesFile, sent); len(got.Shown) != 2 || !got.Key {
		t.Errorf("the notes file reads the sources under the key's heading: %+v", got)
	}
	past := before
	past.Step = 9
	if got := ScriptsAt(past, Code, sent); len(got.Shown) != 2 || len(got.Held) != 0 {
		t.Errorf("a code past its question holds %v", got.Held)
	}
}

// TestNoRoleReadsAnOpenAnswer is the guard for every role that is not the
// learner's: the projector, a follower, the instructor's own session, the
// notes file, the transcripts, a cast, a code and the history page. The
// screen hides the state by the Learner's disclosure alone
// (tui.Player.hiding), whatever role draws it, so the state and the
// checker's verdicts must be hidden alike for every role: only the
// answer's text may differ, and only for the two roles that read the
// answer key (the instructor's session, the notes file), under its
// heading; a projector, a follower or an output never reads an answer
// the room or the learner has not given. The moves the timeline may draw
// (Disclosure.Ahead: the story's future and its length) are the same for
// every role.
func TestNoRoleReadsAnOpenAnswer(t *testing.T) {
	key := map[Role]bool{Instructor: true, NotesFile: true}
	for r := Learner; r <= History; r++ {
		if r.answerKey() != key[r] {
			t.Errorf("role %d reads the answer key: %v, want %v", r, r.answerKey(), key[r])
		}
	}
	for at := -1; at <= 3; at++ {
		moments := []int{-1}
		for m := 0; m <= at; m++ {
			moments = append(moments, m)
		}
		for _, moment := range moments[min(at+1, 1):] {
			for step := 0; step <= 4; step++ {
				for _, answered := range []bool{false, true} {
					for _, waiting := range []bool{false, true} {
						for _, elsewhere := range []bool{false, true} {
							s := standing{at: at, moment: moment, step: step, answered: answered, waiting: waiting, elsewhere: elsewhere}
							learner := disclose(s, Learner)
							for r := Learner; r <= History; r++ {
								d := disclose(s, r)
								if d.State != learner.State || d.Checked != learner.Checked || d.Open != learner.Open || d.Waiting != learner.Waiting {
									t.Errorf("%+v: role %d is disclosed %+v, the learner %+v: the state must be hidden alike", s, r, d, learner)
								}
								// the story's future and length (the bar,
								// the -notes file's "step 3 of ?", the
								// class view's "3/?") are withheld alike
								// too: the answer key has its own place
								if d.Ahead != learner.Ahead {
									t.Errorf("%+v: role %d may draw %d moves, the learner %d: the story's length must be withheld alike", s, r, d.Ahead, learner.Ahead)
								}
								hiding := d.Open || d.Waiting || (at < 0 && elsewhere)
								if hiding && d.Answer && !(key[r] && d.Key) {
									t.Errorf("%+v: role %d reads the answer (%+v) not under the answer key", s, r, d)
								}
								if hiding && !key[r] && (d.Answer || d.Key) {
									t.Errorf("%+v: role %d, which may not read the key, reads the answer: %+v", s, r, d)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestAPausedHolderWithNoTTLSaysNothingOfItsKey: crash-gap asks whether
// s1's key, left with no TTL, is still there 40 s after s1 crashed. Before
// the question the learner may freeze s1 (p) once its SETNX holds the key:
// the readout then says s1 is frozen and its key has no TTL (the key's row
// says so too, the premise), but not what becomes of a key with no TTL (it
// said "so it stays for as long as the pause lasts", the answer's very
// inference).
func TestAPausedHolderWithNoTTLSaysNothingOfItsKey(t *testing.T) {
	ctx := context.Background()
	sc := scenes.Find("crash-gap")
	froze := 0
	for _, p := range sc.Stories() {
		pos := Position{Version: PositionVersion, Scene: sc.ID, Settings: map[string]int(p), Seed: 5}
		for step := 0; ; step++ {
			s, err := Open(ctx, pos, Env{Backend: embedded(t), Options: Options{Predict: true}})
			if err != nil {
				t.Fatal(err)
			}
			d := Driver{S: s}
			d.Run(s.Start(nil))
			if step >= s.QuestionAt() {
				s.Close(ctx)
				break
			}
			d.Run(s.SeekTo(step))
			s1 := slices.IndexFunc(s.Snap.Actors, func(a sim.Actor) bool { return a.Name == "s1" })
			if err := d.Do(Action{Verb: Select, N: s1}); err != nil {
				t.Fatal(err)
			}
			if err := d.Do(Action{Verb: Pause}); err != nil {
				t.Fatal(err)
			}
			said := flat(s.Explanation().Readout)
			if strings.Contains(said, "no ttl") && strings.Contains(said, "frozen") {
				froze++
				if !s.Disclose(Learner).Open {
					t.Errorf("%s at step %d: the question is not open", sc.Describe(p), step)
				}
				for _, phrase := range []string{"as long as", "never expires", "until someone deletes", "stays"} {
					if strings.Contains(said, phrase) {
						t.Errorf("%s, s1 frozen at step %d, the question open: the readout says %q: %s", sc.Describe(p), step, phrase, said)
					}
				}
			}
			s.Close(ctx)
		}
	}
	if froze == 0 {
		t.Error("no story froze s1 while its key had no TTL")
	}
}
