package scenes

import (
	"context"
	"testing"

	"locksim/sim"
)

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
