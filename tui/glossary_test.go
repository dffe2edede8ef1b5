package tui

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"locksim/play"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestGlossaryFromEveryPage: g opens the glossary over the contents, over
// a scene, and over each page over a scene (there too in gc-pause, whose
// g on the scene is its pause's setting); it lists every term of
// play.Glossary, scrolls, and g or esc close it, back to the page under
// it. The ? page lists g.
func TestGlossaryFromEveryPage(t *testing.T) {
	terms, err := play.Glossary()
	if err != nil || len(terms) == 0 {
		t.Fatalf("no glossary: %v", err)
	}
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "g")
	g, ok := a.pages.top().(*glossaryPage)
	if !ok {
		t.Fatalf("g on the contents should open the glossary:\n%s", a.View())
	}
	if v := a.View(); !strings.Contains(v, terms[0].Word) || !strings.Contains(v, "glossary") || !strings.Contains(v, "g/esc back") {
		t.Errorf("the glossary's first page:\n%s", v)
	}
	whole := strings.Join(strings.Fields(views.Strip(g.text(80))), " ")
	for _, term := range terms {
		if !strings.Contains(whole, term.Word+" "+term.Meaning) {
			t.Errorf("the glossary lacks %s: %s", term.Word, term.Meaning)
		}
	}
	drive(t, a, keys("[pgdown][pgdown][pgdown][pgdown][pgdown][pgdown]")...)
	if v := a.View(); !strings.Contains(v, terms[len(terms)-1].Word) {
		t.Errorf("pgdn should scroll to the last term, %s:\n%s", terms[len(terms)-1].Word, v)
	}
	golden(t, "glossary-end-80x24", views.Strip(a.View()))
	drive(t, a, keys("g")...)
	if !a.onContents() {
		t.Fatalf("g should close the glossary, back to the contents:\n%s", a.View())
	}
	drive(t, a, keys("[enter]g")...)
	if _, ok := a.pages.top().(*glossaryPage); !ok {
		t.Fatalf("g on the race should open the glossary:\n%s", a.View())
	}
	drive(t, a, keys("[esc]")...)
	if !isScene(a.pages.top()) {
		t.Fatalf("esc should close the glossary, back to the scene:\n%s", a.View())
	}
	for _, page := range []string{"?", "i", "a"} {
		drive(t, a, keys(page+"g")...)
		if _, ok := a.pages.top().(*glossaryPage); !ok {
			t.Fatalf("g over %s should open the glossary:\n%s", page, a.View())
		}
		drive(t, a, keys("g")...)
		if !isOver(a.pages.top()) {
			t.Fatalf("g should close the glossary, back to the page %s:\n%s", page, a.View())
		}
		drive(t, a, keys("[esc]")...)
	}
	// gc-pause: g changes the pause; ? then g opens the glossary, as ? says
	b, _ := openCourse(t, Options{Seed: 1, Scene: "gc-pause", NoQuiz: true}, "g")
	if _, ok := b.pages.top().(*glossaryPage); ok || b.pl.Scene.Value(b.pl.Params, "pause") == "35 s" {
		t.Errorf("g in gc-pause should change the pause:\n%s", b.View())
	}
	drive(t, b, keys("?")...)
	if v := b.View(); !strings.Contains(v, "? then g") || !strings.Contains(v, "glossary") {
		t.Errorf("the ? page should say how to open the glossary:\n%s", v)
	}
	drive(t, b, keys("g")...)
	if _, ok := b.pages.top().(*glossaryPage); !ok {
		t.Fatalf("? then g should open the glossary:\n%s", b.View())
	}
	drive(t, b, tea.WindowSizeMsg{Width: 120, Height: 40})
	golden(t, "glossary-120x40", views.Strip(b.View()))
	drive(t, b, tea.WindowSizeMsg{Width: 80, Height: 24}, tea.KeyMsg{Type: tea.KeyHome})
	golden(t, "glossary-80x24", views.Strip(b.View()))
}

// TestGlossaryDrawnWithTheSessionsStyles: the glossary's text, kept once
// drawn (Common.glossary), is drawn again in the styles a session takes
// after (SetStyles): bold on a colour terminal, none on an ASCII one.
func TestGlossaryDrawnWithTheSessionsStyles(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "g")
	g, ok := a.pages.top().(*glossaryPage)
	if !ok {
		t.Fatalf("g on the contents should open the glossary:\n%s", a.View())
	}
	if plain := g.text(80); strings.Contains(plain, "\x1b[") || g.text(80) != plain {
		t.Errorf("on an ASCII profile the glossary carries escapes, or is not kept:\n%q", plain)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	a.SetStyles(views.NewStyles(r, false))
	if bold := g.text(80); !strings.Contains(bold, "\x1b[1m") {
		t.Errorf("after SetStyles on a colour terminal the glossary's words should be bold:\n%q", bold[:min(len(bold), 200)])
	}
}

// TestGlossarySizedAgain: the glossary open over the contents fills the
// screen at each size it is given, taller and back, and opened again at
// a size it was drawn at before it is at its top (its pages are kept by
// text and size, glossaryPages).
func TestGlossarySizedAgain(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, NoQuiz: true}, "g")
	rows := func(when string, want int) {
		t.Helper()
		if _, ok := a.pages.top().(*glossaryPage); !ok {
			t.Fatalf("%s: the glossary is not open:\n%s", when, a.View())
		}
		if got := strings.Count(a.View(), "\n") + 1; got != want {
			t.Errorf("%s: the glossary is %d rows, want %d:\n%s", when, got, want, a.View())
		}
	}
	rows("opened at 80x24", 24)
	first := a.View()
	drive(t, a, keys("[pgdown]")...)
	for _, h := range []int{30, 24, 40} {
		drive(t, a, tea.WindowSizeMsg{Width: 80, Height: h})
		rows(fmt.Sprintf("sized to 80x%d", h), h)
	}
	drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	drive(t, a, keys("g")...)
	drive(t, a, keys("g")...)
	rows("opened again at 80x24", 24)
	if v := a.View(); v != first {
		t.Errorf("opened again at 80x24, the glossary is not at its top:\n%s\nwant\n%s", v, first)
	}
}
