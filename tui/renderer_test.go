package tui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestTwoRenderers draws the same places through two sessions in one
// process, one on an ASCII renderer with a dark background, one on a
// TrueColor renderer with a light one, while the process's default
// renderer is set to neither (TrueColor, dark): each session gets its own
// bytes, the Bubbles parts (help line, contents list, progress bar) included.
// The ASCII screen is the golden one, byte for byte.
func TestTwoRenderers(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor) // anything drawn by the default renderer shows
	lipgloss.SetHasDarkBackground(true)
	defer func() {
		lipgloss.SetColorProfile(termenv.Ascii)
		lipgloss.SetHasDarkBackground(true)
	}()
	light := lipgloss.NewRenderer(io.Discard)
	light.SetColorProfile(termenv.TrueColor)
	light.SetHasDarkBackground(false)
	colour := views.NewStyles(light, false)

	open := func(st views.Styles, id, presses string, w, h int) *App {
		a, err := NewApp(embedded(t), id, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Shutdown(context.Background()) })
		a.SetStyles(st)
		drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
		runCmd(t, a, a.Init())
		drive(t, a, keys(presses)...)
		return a
	}
	// the pink of a title on a light background, and on a dark one
	lightPink, darkPink := "38;2;139;0;139", "38;5;213"
	for _, c := range []struct{ name, id, presses string }{
		{"gc-pause-frozen", "gc-pause", "nnn"},
		{"fencing-rejected", "fencing", "nnnnnnnn"},
	} {
		plain := open(views.ASCII(), c.id, c.presses, 80, 24).View()
		want, err := os.ReadFile(filepath.Join("testdata", c.name+"-80x24.golden"))
		if err != nil {
			t.Fatal(err)
		}
		if plain != string(want) {
			t.Errorf("%s on the ASCII renderer:\n%q\nwant the golden:\n%q", c.name, plain, want)
		}
		coloured := open(colour, c.id, c.presses, 80, 24).View()
		if !strings.Contains(coloured, lightPink) || strings.Contains(coloured, darkPink) || strings.Contains(coloured, "38;2;255;135;255") {
			t.Errorf("%s on the TrueColor light renderer: no light-background title colour in\n%q", c.name, coloured)
		}
		if views.Strip(coloured) != plain {
			t.Errorf("%s: the coloured screen's text differs from the plain one:\n%s\nwant\n%s", c.name, views.Strip(coloured), plain)
		}
		// the help line is Bubbles' help, drawn by the session's renderer
		last := coloured[strings.LastIndex(coloured, "\n")+1:]
		if !strings.Contains(last, "\x1b[") {
			t.Errorf("%s: the help line has no colour: %q", c.name, last)
		}
	}
	// the contents: Bubbles' list with its title, items and filter prompt
	for _, st := range []views.Styles{views.ASCII(), colour} {
		a, _ := openCourse(t, Options{Seed: 1, Styles: &st}, "")
		drive(t, a, tea.WindowSizeMsg{Width: 90, Height: 30})
		got := a.View()
		if st.R.ColorProfile() == termenv.Ascii && strings.Contains(got, "\x1b[") {
			t.Errorf("the ASCII contents carry escapes:\n%q", got)
		}
		if st.R.ColorProfile() == termenv.TrueColor && (!strings.Contains(got, lightPink) || strings.Contains(got, "38;5;")) {
			t.Errorf("the TrueColor contents are not in the light palette:\n%q", got)
		}
	}
	// the trials' progress bar, half full, in each session's colour profile
	for _, st := range []views.Styles{views.ASCII(), colour} {
		bar := NewCommon(st, Common{}.Export).progressBar().ViewAs(0.5)
		if ascii := st.R.ColorProfile() == termenv.Ascii; ascii == strings.Contains(bar, "38;2;95;175;215") || ascii == strings.Contains(bar, "\x1b[") {
			t.Errorf("progress bar on a %v renderer: %q", st.R.ColorProfile(), bar)
		}
	}
}
