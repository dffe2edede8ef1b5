package tui

import (
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
)

// BenchmarkView draws every scene at 120x40 at the end of its story as
// written: one op is one View() of the whole screen.
func BenchmarkView(b *testing.B) {
	for _, sc := range scenes.All() {
		b.Run(sc.ID, func(b *testing.B) {
			pts := points(b, sc.ID, false)
			pt := pts[len(pts)-1]
			s := openedWith(b, sc, mustText(b, sc.ID), pt.p, pt.snap, nil)
			p := newPlayer(s, NewCommon(views.ASCII(), scenes.Export{}))
			p.SetSize(120, 40)
			view := p.View
			if sc.Kind == scenes.Quiz {
				q := newQuiz(p)
				q.SetSize(120, 40)
				view = q.View
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = view() + "\nhelp"
			}
		})
	}
}

func mustText(b testing.TB, id string) content.Text {
	t, err := content.Load(id)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkMouseMotion moves the mouse over a screen that does not change:
// each frame is drawn from the session's explanation as it stands, so the
// ledger is read no more (explains/op stays 0 after the first frame).
func BenchmarkMouseMotion(b *testing.B) {
	a := openScene(b, embedded(b), "gc-pause", 1, 100, 32, "nnn")
	a.View()
	before := a.pl.Explained()
	b.ResetTimer()
	for i := range b.N {
		a.Update(tea.MouseMsg{X: i % 100, Y: 31, Action: tea.MouseActionMotion, Button: tea.MouseButtonNone})
		_ = a.View()
	}
	b.ReportMetric(float64(a.pl.Explained()-before)/float64(b.N), "explains/op")
}
