package scenes

import (
	"context"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/views"
)

// BenchmarkView draws every scene at 120x40 at the end of its story as
// written: one op is one View() of the whole screen.
func BenchmarkView(b *testing.B) {
	for _, sc := range All() {
		b.Run(sc.ID, func(b *testing.B) {
			pts := points(b, sc.ID, false)
			pt := pts[len(pts)-1]
			p := &Player{sc: sc, text: mustText(b, sc.ID), p: pt.p, snap: pt.snap, led: Fold(pt.snap), sel: -1, node: -1}
			st := views.DefaultStyles()
			b.ReportAllocs()
			for b.Loop() {
				p.View(st, 120, 40, "help", "", "")
			}
		})
	}
}

// BenchmarkStep steps every story scene one move back (a replay from the
// start) and one forward from its last move, on the embedded server: one
// op is the pair.
func BenchmarkStep(b *testing.B) {
	ctx := context.Background()
	for _, sc := range All() {
		if sc.Kind != Story {
			continue
		}
		b.Run(sc.ID, func(b *testing.B) {
			run := sim.NewRun(embedded(b), sc.Script(Params{}), 1)
			defer run.Close()
			if err := run.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			n := len(run.Moves())
			if err := run.Seek(ctx, n); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := run.Seek(ctx, n-1); err != nil {
					b.Fatal(err)
				}
				if err := run.Seek(ctx, n); err != nil {
					b.Fatal(err)
				}
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
