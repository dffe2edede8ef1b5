package tui

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"locksim/views"

	"github.com/charmbracelet/bubbles/viewport"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestLogViewIsTheViewports: logView draws what the log's viewport draws,
// for the logs of stories at every step, at 80x24 and 160x50 and scrolled
// back (the log as the frame lays it out), and for rows of every width up to the viewport's and past it, in
// colour, short of its height and longer, at every offset.
func TestLogViewIsTheViewports(t *testing.T) {
	t.Parallel()
	compare := func(where string, vp viewport.Model, content string) {
		t.Helper()
		if got, want := logView(vp, content), vp.View(); got != want {
			t.Errorf("%s: logView draws\n%q\nthe viewport\n%q", where, got, want)
		}
	}
	b := embedded(t)
	for _, c := range []struct {
		id, presses string
		w, h        int
	}{{"fencing", "nnnnnnnnnn[[[", 80, 24}, {"fencing", "nnnnnnnnnn[", 160, 50}, {"redlock", "nnnnnnCs1Dunnnnn[[", 80, 24}} {
		a := openScene(t, b, c.id, 1, c.w, c.h, "")
		for i, k := range keys(c.presses) {
			drive(t, a, k)
			a.laidOut = false
			a.layout()
			compare(fmt.Sprintf("%s at %dx%d after %d keys", c.id, c.w, c.h, i+1), a.pl.log, a.pl.logText)
		}
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	for _, st := range []views.Styles{views.ASCII(), views.NewStyles(r, false)} {
		var rows []string
		for n := 0; n <= 22; n++ {
			rows = append(rows, st.Key.Render(strings.Repeat("x", n/2))+" "+st.Dim.Render(strings.Repeat("é", n-n/2)))
		}
		for _, content := range []string{"", strings.Join(rows, "\n"), strings.Join(rows[:20], "\n"), strings.Join(rows[:3], "\n") + "\n"} {
			for _, h := range []int{1, 3, 10, 30} {
				vp := viewport.New(20, h)
				vp.SetContent(content)
				for off := 0; off <= 25; off += 4 {
					vp.SetYOffset(off)
					compare(fmt.Sprintf("%d rows of %q at height %d, offset %d", strings.Count(content, "\n")+1, content[:min(len(content), 30)], h, off), vp, content)
				}
			}
		}
	}
}
