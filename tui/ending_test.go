package tui

import (
	"fmt"
	"io"
	"locksim/sim/simtest"
	"strings"
	"testing"

	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// playToTheEnd steps a's scene until its story is over, then once more:
// the step past the end.
func playToTheEnd(t *testing.T, a *App) {
	t.Helper()
	for i := 0; !a.storyOver(); i++ {
		if i > 300 {
			t.Fatalf("%s never ended:\n%s", a.pl.Scene.ID, a.View())
		}
		drive(t, a, keys("n")...)
	}
	drive(t, a, keys("n")...)
}

// TestEveryScenesEnding: a step past the end of every scene opens its
// ending: what it showed, what libraries do, each reference with its URL
// in full, and the next scene with its key; after the last, the course's
// summary and the way to the lab and the printed questions. The help line
// under it names the way to the next scene and to the contents.
func TestEveryScenesEnding(t *testing.T) {
	ids := scenes.All()
	for i, sc := range ids {
		if sc.FiresAtOnce() {
			continue // the race: TestRaceSaysHowToGoOn
		}
		t.Run(sc.ID, func(t *testing.T) {
			a, _ := openCourse(t, Options{Seed: 1, Scene: sc.ID, NoQuiz: true}, "")
			drive(t, a, tea.WindowSizeMsg{Width: 120, Height: 60})
			playToTheEnd(t, a)
			if _, ok := a.pages.top().(*endingPage); !ok {
				t.Fatalf("a step past the end should open the ending:\n%s", a.View())
			}
			e, ok := a.course.SceneEnding(a.pl.Session, play.Learner)
			if !ok || e.Recap == "" {
				t.Fatalf("%s has no ending to show", sc.ID)
			}
			v := strings.Join(strings.Fields(views.Strip(a.pages.top().(*endingPage).page.View())), " ")
			view := views.Strip(a.View())
			for _, want := range []string{paragraphs(e.Recap)[0][:40], "what " + sc.ID + " showed"} {
				if !strings.Contains(v, strings.Join(strings.Fields(want), " ")) {
					t.Errorf("the ending lacks %q:\n%s", want, view)
				}
			}
			if e.Library != "" && !strings.Contains(v, "what lock libraries do") {
				t.Errorf("the ending lacks what libraries do:\n%s", view)
			}
			full := strings.Join(strings.Fields(views.Strip(a.endingText(e, 120))), " ")
			for _, r := range e.References {
				if !strings.Contains(full, r.URL) || !strings.Contains(full, strings.Join(strings.Fields(r.Title), " ")) {
					t.Errorf("the ending lacks the reference %s: %s", r.Title, r.URL)
				}
			}
			if i+1 < len(ids) {
				if e.Next != ids[i+1].ID || !strings.Contains(view, "next: "+e.Next) || !strings.Contains(view, "> next scene") {
					t.Errorf("the ending should name the next scene, %s, and its key:\n%s", ids[i+1].ID, view)
				}
			} else if !strings.Contains(full, "-plain -questions") || !strings.Contains(full, "The lab") || !strings.Contains(full, "scenes to their end") {
				t.Errorf("the last scene's ending should sum up the course:\n%s", full)
			}
			if !strings.Contains(view, "esc contents") {
				t.Errorf("the help line should say esc goes to the contents:\n%s", view)
			}
			// ← takes the story back before its end: the ending closes
			drive(t, a, keys("[esc]b")...)
			if _, ok := a.pages.top().(*endingPage); ok {
				t.Errorf("esc should close the ending")
			}
			drive(t, a, keys("a")...)
			if _, ok := a.pages.top().(*endingPage); ok {
				t.Errorf("a before the end should open no ending:\n%s", a.View())
			}
		})
	}
}

// TestRaceSaysHowToGoOn: the race, whose → picks a worker, says once it
// has run how to go on (a, >), and not while its question is open; a
// opens its ending, which names the next scene.
func TestRaceSaysHowToGoOn(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "race"}, "")
	v := views.Strip(a.View())
	if !a.pl.Asking || strings.Contains(v, "the race has run") || !strings.Contains(v, "> next scene") || !strings.Contains(v, "esc contents") {
		t.Fatalf("the race asks first, its help line naming the way on:\n%s", v)
	}
	drive(t, a, keys("a")...)
	if _, ok := a.pages.top().(*endingPage); ok {
		t.Fatalf("a while the question is open should open nothing:\n%s", a.View())
	}
	drive(t, a, keys("2")...)
	v = views.Strip(a.View())
	if !strings.Contains(v, "the race has run · a what it taught · > next: options") || !strings.Contains(v, "> next scene") {
		t.Errorf("the race that has run should say how to go on:\n%s", v)
	}
	drive(t, a, keys("a")...)
	if _, ok := a.pages.top().(*endingPage); !ok {
		t.Fatalf("a should open the race's ending:\n%s", a.View())
	}
	v = views.Strip(a.View())
	golden(t, "ending-race-80x24", v)
	if !strings.Contains(v, "next: options") || !strings.Contains(v, "what race showed") {
		t.Errorf("the race's ending:\n%s", v)
	}
	drive(t, a, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "ending-race-120x40", views.Strip(a.View()))
	drive(t, a, keys(">")...)
	if a.pl.Scene.ID != "options" || isOver(a.pages.top()) {
		t.Errorf("> on the ending should open the next scene, not %s", a.pl.Scene.ID)
	}
}

// TestEndingGoldens: a story's ending (crash-gap), and the course's last
// scene's, at both sizes.
func TestEndingGoldens(t *testing.T) {
	for _, id := range []string{"crash-gap", "choose"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			if !simtest.InTier(size[0] == 80) {
				continue // 120x40's goldens run in the slow tier, 80x24's in the quick
			}
			a, _ := openCourse(t, Options{Seed: 1, Scene: id, NoQuiz: true}, "")
			drive(t, a, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			playToTheEnd(t, a)
			golden(t, fmt.Sprintf("ending-%s-%dx%d", id, size[0], size[1]), views.Strip(a.View()))
		}
	}
}

// TestReferencesAreHyperlinks: on a terminal with colour a reference's URL
// is an OSC 8 hyperlink to it, the URL printed as its text; on an ASCII
// profile, the URL alone.
func TestReferencesAreHyperlinks(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "race", NoQuiz: true}, "")
	e, ok := a.course.SceneEnding(a.pl.Session, play.Learner)
	if !ok || len(e.References) == 0 || e.References[0].URL == "" {
		t.Fatalf("the race should have references with URLs: %+v", e)
	}
	url := e.References[0].URL
	if plain := a.endingText(e, 120); strings.Contains(plain, "\x1b]8;") || !strings.Contains(plain, url) {
		t.Errorf("on an ASCII profile the URL goes alone:\n%q", plain)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	a.SetStyles(views.NewStyles(r, false))
	if got := a.endingText(e, 120); !strings.Contains(got, ansi.SetHyperlink(url)+url+ansi.ResetHyperlink()) {
		t.Errorf("on a colour terminal the URL should link to itself:\n%q", got)
	}
}
