package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"

	tea "github.com/charmbracelet/bubbletea"
)

// TestHelpPageOfTheMode: the ? page lists the keys of the mode on screen:
// in presenter mode space steps the story, in learner mode it plays.
func TestHelpPageOfTheMode(t *testing.T) {
	for _, present := range []bool{false, true} {
		a, err := NewCourse(embedded(t), Options{Seed: 1, Scene: "gc-pause", Present: present})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Shutdown(context.Background()) })
		drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
		runCmd(t, a, a.Init())
		drive(t, a, keys("?")...)
		page := a.View()
		plays := strings.Contains(page, "play/pause")
		steps := strings.Contains(page, "space") && strings.Contains(page, "step (clicker)")
		if present && (plays || !steps) || !present && (!plays || steps) {
			t.Errorf("presenter %v: the keys page lists the other mode's space:\n%s", present, page)
		}
	}
}

// TestHintsShownOnce: at every scene's question each hint shows once on
// screen, in the readout's rows with the log still above the question,
// and an h past the last one says there are no more.
func TestHintsShownOnce(t *testing.T) {
	t.Parallel()
	b := embedded(t)
	for _, sc := range scenes.All() {
		if sc.Predict == nil || sc.PredictAt(labelsOf(sc.Build(scenes.Params{}).Moves)) < 0 {
			continue
		}
		a := openAsking(t, b, sc, scenes.Params{}, false)
		hadLog := strings.Contains(a.View(), "── commands, newest last") // the race has sent nothing yet
		for i := 1; a.pl.Text.Has("hint-" + itoa(int64(i))); i++ {
			drive(t, a, keys("h")...)
			v := a.View() // drawn once: the checks below read the same screen
			screen := strings.Join(strings.Fields(v), " ")
			for j := 1; j <= i; j++ {
				hint := strings.Join(strings.Fields(a.pl.Question("hint-"+itoa(int64(j)))), " ")
				if n := strings.Count(screen, hint[:min(len(hint), 24)]); n != 1 {
					t.Errorf("%s: after %d h, hint %d shows %d times:\n%s", sc.ID, i, j, n, v)
				}
			}
			if strings.Contains(v, "No more hints") {
				t.Errorf("%s: hint %d is not the last:\n%s", sc.ID, i, v)
			}
			// the hints take the readout's rows: the log stays above the
			// question, its newest command in view
			if hadLog && !strings.Contains(v, "── commands, newest last") || !strings.Contains(v, "── predict") {
				t.Errorf("%s: after %d h the log or the question is off screen:\n%s", sc.ID, i, v)
			}
		}
		drive(t, a, keys("h")...)
		if !strings.Contains(a.View(), "No more hints") {
			t.Errorf("%s: an h past the last hint should say there are no more:\n%s", sc.ID, a.View())
		}
		// every hint open and a note under them (the end of the hints, a
		// live server back): the newest log line still stands above the
		// question (it went, the question following the settings line)
		for _, note := range []string{"", "the server is back, without this run's keys: the story is replayed to where you were"} {
			if note != "" {
				a.pl.SetFlash(note)
			}
			v := a.View()
			if hadLog && !regexp.MustCompile(`── commands, newest last[^\n]*\n([^\n]*\S[^\n]*\n)+── predict`).MatchString(v) {
				t.Errorf("%s: every hint open, note %q: no log line above the question:\n%s", sc.ID, note, v)
			}
			if n := strings.Count(v, "\n") + 1; n != 24 {
				t.Errorf("%s: %d rows, want 24:\n%s", sc.ID, n, v)
			}
			last := strings.Join(strings.Fields(a.pl.Question("hint-"+itoa(int64(a.pl.Hints)))), " ")
			if !strings.Contains(strings.Join(strings.Fields(v), " "), last[:min(len(last), 24)]) {
				t.Errorf("%s: the newest hint is off screen:\n%s", sc.ID, v)
			}
		}
	}
}

// TestTooSmallContents: on a contents screen too small to draw, keys
// open nothing, and q still quits.
func TestTooSmallContents(t *testing.T) {
	c, err := NewCourse(embedded(t), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Shutdown(context.Background()) })
	drive(t, c, tea.WindowSizeMsg{Width: 60, Height: 20})
	runCmd(t, c, c.Init())
	drive(t, c, keys("j[enter]")...)
	if !c.onContents() {
		t.Errorf("enter on a too small contents screen opened a scene")
	}
	if _, cmd := c.Update(keys("q")[0]); cmd == nil {
		t.Fatal("q should quit on a too small screen")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q should quit on a too small screen")
	}
}

// TestEmbeddedOnlyStoryAsksNothingLive: on a live server Redlock's clock
// jump does not happen, so its question is not asked; the settings line
// says the story needs the embedded server.
func TestEmbeddedOnlyStoryAsksNothingLive(t *testing.T) {
	b, err := sim.OpenLive(context.Background(), simtest.StartRedis(t), simtest.LiveOptions(10))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(context.Background()) })
	sc := scenes.Find("redlock")
	p := scenes.Params{"story": knobIndex(t, "redlock", "story", "clock jump")}
	a := openAsking(t, b, sc, p, false)
	if a.pl.Asking {
		t.Errorf("the clock jump cannot happen on a live server, yet its question is asked:\n%s", a.View())
	}
	if !strings.Contains(a.View(), "needs the embedded server") {
		t.Errorf("the settings line should say the story needs the embedded server:\n%s", a.View())
	}
}

// TestEmbeddedOnlyStorySaysNothingEmbedded: on the embedded server the
// clock jump plays as told, so the settings line does not warn that the
// story needs the embedded server it is on.
func TestEmbeddedOnlyStorySaysNothingEmbedded(t *testing.T) {
	t.Parallel()
	sc := scenes.Find("redlock")
	p := scenes.Params{"story": knobIndex(t, "redlock", "story", "clock jump")}
	a := openAsking(t, embedded(t), sc, p, false)
	if v := a.View(); strings.Contains(v, "needs the embedded server") {
		t.Errorf("on the embedded server the settings line says the story needs it:\n%s", v)
	}
}
