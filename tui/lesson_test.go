package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/scenes"

	tea "github.com/charmbracelet/bubbletea"
)

// TestClickerWalksLesson: in presenter mode with -scenes, the clicker's
// key alone plays every story of gc-pause (each combination of its
// settings, each asking its question again), then fencing, then extend's
// three stories, and the footer says what the next click opens before it does.
func TestClickerWalksLesson(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Present: true, Scenes: []string{"gc-pause", "fencing", "extend"}}, "")
	type story struct{ scene, settings string }
	var seen []story
	last, asked, asks := story{}, 0, 0
	for clicks := 0; clicks < 600; clicks++ {
		if a.pl.Asking {
			asked++ // one click passes it to the class
		}
		now := story{a.pl.Scene.ID, a.pl.Scene.Describe(a.pl.Params)}
		if now != last {
			seen, last = append(seen, now), now
			if a.pl.Scene.PredictAt(a.pl.MoveLabels()) >= 0 {
				asks++ // a story whose schedule has the question's move
			}
		}
		if a.storyOver() && now.scene == "gc-pause" && now.settings == "pause: 35 s, TTL: 30 s" {
			if !strings.Contains(a.View(), "next click: pause: 20 s, TTL: 30 s") {
				t.Errorf("at the end of the first story the footer should name the next:\n%s", a.View())
			}
		}
		if a.storyOver() && now.scene == "gc-pause" && now.settings == "pause: 20 s, TTL: 30 s" {
			if !strings.Contains(a.View(), "next click: the next scene, fencing") {
				t.Errorf("at the end of gc-pause's last story the footer should name fencing:\n%s", a.View())
			}
		}
		if a.pl.Flash == "the end of the lesson · esc for the contents, q to quit" {
			break
		}
		drive(t, a, keys(".")...)
	}
	var got []string
	for _, s := range seen {
		got = append(got, s.scene+" "+s.settings)
	}
	want := []string{"gc-pause pause: 35 s, TTL: 30 s", "gc-pause pause: 20 s, TTL: 30 s", "fencing ",
		"extend story: pause 40 s, renewal: script", "extend story: pause 15 s, renewal: script", "extend story: stale handle, renewal: script"}
	if !slices.Equal(got, want) {
		t.Fatalf("the clicker should walk gc-pause's lesson (2 stories), fencing, and 3 extend stories, saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if asked != asks || asks < 5 {
		t.Errorf("each story should put its question to the class: %d questions, %d stories with one", asked, asks)
	}
	if !strings.Contains(a.View(), "end of the lesson") {
		t.Errorf("after the last story the screen should say the lesson is over:\n%s", a.View())
	}
}

// TestPresenterEscAsksAndF5 does nothing: a clicker's esc asks before the
// scene is left (esc again or y leaves, another key stays and acts), and
// its F5 changes nothing.
func TestPresenterEscAsksAndF5(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Present: true, Scene: "gc-pause"}, ".")
	drive(t, a, tea.KeyMsg{Type: tea.KeyF5})
	if a.onContents() || a.pl.Snap.Pos != 1 || a.pl.Flash != "" {
		t.Fatalf("F5 should do nothing: contents %v, at %d, %q", a.onContents(), a.pl.Snap.Pos, a.pl.Flash)
	}
	drive(t, a, keys("[esc]")...)
	if a.onContents() || !strings.Contains(a.View(), "esc again or y leaves") {
		t.Fatalf("the first esc should ask:\n%s", a.View())
	}
	drive(t, a, keys(".")...)
	if a.onContents() || a.pl.Snap.Pos != 2 {
		t.Fatalf("another key should stay and act: contents %v, at %d", a.onContents(), a.pl.Snap.Pos)
	}
	drive(t, a, keys("[esc][esc]")...)
	if !a.onContents() {
		t.Fatalf("esc, esc should leave for the contents:\n%s", a.View())
	}
	drive(t, a, keys("[enter][esc]y")...)
	if !a.onContents() {
		t.Fatalf("esc, y should leave for the contents:\n%s", a.View())
	}
}

// TestLearnerEndOfStory: a step at the end says the story has ended and
// which keys go on.
func TestLearnerEndOfStory(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, strings.Repeat("n", 10))
	if a.pl.Snap.Pos != len(a.pl.Snap.Moves) {
		t.Fatalf("at %d of %d", a.pl.Snap.Pos, len(a.pl.Snap.Moves))
	}
	drive(t, a, keys("n")...)
	want := "the story has ended · g/t another setting · > next: fencing · home replays"
	// the scene's ending opens over the scene, and says it too
	if _, ok := a.pages.top().(*endingPage); a.pl.Flash != want || !ok || !strings.Contains(a.View(), "next: fencing") || !strings.Contains(a.View(), "g/t another setting · home replays") {
		t.Errorf("n at the end: %q, want %q\n%s", a.pl.Flash, want, a.View())
	}
	drive(t, a, keys("a")...)
	if !strings.Contains(a.View(), want) {
		t.Errorf("a closes the ending: the status line says the story has ended\n%s", a.View())
	}
}

// TestSettingKeepsTheMoment: a setting changed at the end, or near it,
// replays the new story to the same moment, not back before its first
// wait (a longer pause makes the first wait longer than the old story).
func TestSettingKeepsTheMoment(t *testing.T) {
	for _, c := range []struct {
		steps, want int
	}{{10, 10}, {8, 8}, {3, 3}, {1, 1}} {
		a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, strings.Repeat("n", c.steps)+"g")
		if a.pl.Scene.Value(a.pl.Params, "pause") != "70 s" || a.pl.Snap.Pos != c.want {
			t.Errorf("g at step %d: pause %s, at step %d, want %d", c.steps, a.pl.Scene.Value(a.pl.Params, "pause"), a.pl.Snap.Pos, c.want)
		}
		if c.steps == 10 && a.pl.Snap.Now != 70*time.Second {
			t.Errorf("g at the end: story time %v, want the new story's end at 70s", a.pl.Snap.Now)
		}
	}
}

// TestDefaultsKey: R puts the settings back to their defaults and replays
// to the same moment; with nothing changed it says so.
func TestDefaultsKey(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "gtnnnR")
	if scenes.FormatSettings(a.pl.Scene, a.pl.Params) != "" || a.pl.Snap.Pos != 3 || a.pl.Flash != "the settings are back to their defaults" {
		t.Errorf("R: settings %q, at %d, %q", scenes.FormatSettings(a.pl.Scene, a.pl.Params), a.pl.Snap.Pos, a.pl.Flash)
	}
	drive(t, a, keys("R")...)
	if a.pl.Flash != "the settings are at their defaults already" {
		t.Errorf("R at the defaults: %q", a.pl.Flash)
	}
}

// TestMomentRoundTrip: -scene/-set/-step/-seed open at that moment, and
// the moment saved on leaving is resumed whole (settings and seed, not
// only the step) when the scene is opened from the contents next time.
func TestMomentRoundTrip(t *testing.T) {
	want := Moment{Scene: "gc-pause", Settings: map[string]int{"pause": 1, "TTL": 2}, Seed: 5, Step: 4}
	a, store := openCourse(t, Options{Seed: 5, Scene: "gc-pause", Settings: scenes.Params{"pause": 1, "TTL": 2}, Step: 4}, "")
	if got := a.Moment(); !sameMoment(got, want) {
		t.Fatalf("opened at %+v, want %+v", got, want)
	}
	a.SaveProgress()
	b, _ := openCourse(t, Options{Seed: 9, Store: store}, "")
	if !strings.Contains(b.View(), `last time: gc-pause, step 4, with pause "70 s" and TTL "10 s"`) {
		t.Errorf("the contents should say where the learner left, settings too:\n%s", b.View())
	}
	drive(t, b, keys("[enter]")...)
	if got := b.Moment(); !sameMoment(got, want) {
		t.Fatalf("resumed at %+v, want %+v", got, want)
	}
	if !strings.Contains(b.View(), "seed 5") || !strings.Contains(b.View(), "[g] pause: 70 s  [t] TTL: 10 s") {
		t.Errorf("the resumed screen should show the seed and the settings:\n%s", b.View())
	}
}

// TestResumeKeepsOwnMoves: the progress keeps the learner's place as a
// position, so a course opened later resumes with the learner's own moves
// and prediction, not only the step.
func TestResumeKeepsOwnMoves(t *testing.T) {
	a, store := openCourse(t, Options{Seed: 5, Scene: "gc-pause"}, "n1xn")
	pos := a.Position()
	if len(pos.Own) != 1 || pos.Own[0].Kind != "crash" {
		t.Fatalf("after n 1 x n: %+v, want one own crash", pos)
	}
	a.SaveProgress()
	b, _ := openCourse(t, Options{Seed: 9, Store: store}, "[enter]")
	got := b.Position()
	if got.Step != pos.Step || len(got.Own) != 1 || got.Own[0] != pos.Own[0] || b.View() != a.View() {
		t.Errorf("resumed at %+v, want %+v", got, pos)
	}
}

func sameMoment(a, b Moment) bool {
	return a.Scene == b.Scene && a.Seed == b.Seed && a.Step == b.Step && scenes.FormatSettings(scenes.Find(a.Scene), a.Settings) == scenes.FormatSettings(scenes.Find(b.Scene), b.Settings)
}

// TestNotesFollowTheStep: with -notes, each step rewrites the file with
// that step's place in the story and the scene's notes; the story's
// length only once its question is passed.
func TestNotesFollowTheStep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	a, _ := openCourse(t, Options{Seed: 1, Present: true, Scene: "gc-pause", Notes: path}, "")
	read := func() string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	notes := a.pl.Text.Get("notes")
	if got := read(); !strings.Contains(got, "step 0 of ? · next: A acquires") || !strings.Contains(got, notes) {
		t.Fatalf("the notes file at the start:\n%s", got)
	}
	drive(t, a, keys(".")...)
	if got := read(); !strings.HasPrefix(got, "gc-pause · ") || !strings.Contains(got, "step 1 of ? · next: A pauses") || strings.Contains(got, "step 0") {
		t.Errorf("the notes file after a click:\n%s", got)
	}
	drive(t, a, keys("..")...)
	if got := read(); !a.pl.Asking || !strings.Contains(got, "step 3 of ? · next: B acquires · the question is on screen") {
		t.Errorf("the notes file at the question:\n%s", got)
	}
	// up to its question the story's length is the core's to withhold
	// (play.Disclosure.Drawn), as the bar's "3/?"; past it, it is told
	drive(t, a, keys(".")...)
	if got := read(); a.pl.Asking || !strings.Contains(got, "step 4 of 10 · next: ") {
		t.Errorf("the notes file past the question:\n%s", got)
	}
}

// TestClassClock: the presenter's footer shows the time since the course
// opened, as h:mm.
func TestClassClock(t *testing.T) {
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	a, _ := openCourse(t, Options{Seed: 1, Present: true, Scene: "gc-pause", Clock: func() time.Time { return now }}, "")
	now = now.Add(83*time.Minute + 59*time.Second)
	if !strings.Contains(a.View(), "class 1:23 · ") {
		t.Errorf("83 min 59 s into the class the footer should say 1:23:\n%s", a.View())
	}
	drive(t, a, keys("?")...)
	if v := a.View(); !strings.Contains(v, "footer's class h:mm is the time since locksim opened") || !strings.Contains(v, "R            settings back to default") {
		t.Errorf("the ? page should explain the clock and list R:\n%s", v)
	}
}
