package tui

import (
	"strings"
	"testing"

	"locksim/content"
	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// TestPollBarsShareOneScale: a poll's choices drawn whole (choicesWhole,
// the lost-reply GET poll's and every poll too long for labelled bars)
// draw their bars on one scale, the largest count ten cells, whatever
// each choice's length: 100% is as wide in every poll, and the rows stay
// within 80 columns.
func TestPollBarsShareOneScale(t *testing.T) {
	st := views.ASCII()
	polls := 0
	for _, sc := range scenes.All() {
		if sc.Predict == nil {
			continue
		}
		text, err := content.Load(sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range sc.Stories() {
			choices := strings.Split(sc.Question(text, p, "choices"), "\n")
			polls++
			for _, counts := range [][]int{allOn(len(choices), 0, 1), allOn(len(choices), len(choices)-1, 3), rising(len(choices))} {
				most := 0
				for _, n := range counts {
					most = max(most, n)
				}
				rows := choicesWhole(st, choices, counts, 80)
				var bars []int
				for _, r := range rows {
					if w := ansi.StringWidth(r); w > 80 {
						t.Errorf("%s %s: a row of %d columns: %q", sc.ID, sc.Describe(p), w, r)
					}
					if strings.Contains(r, "%)") {
						bars = append(bars, strings.Count(r, "█"))
					}
				}
				if len(bars) != len(choices) {
					t.Fatalf("%s %s: %d counts drawn for %d choices:\n%s", sc.ID, sc.Describe(p), len(bars), len(choices), strings.Join(rows, "\n"))
				}
				for i, n := range counts {
					want := n * 10 / most
					if n > 0 {
						want = max(want, 1)
					}
					if bars[i] != want {
						t.Errorf("%s %s, counts %v: choice %d's bar is %d cells, want %d (the largest count ten):\n%s",
							sc.ID, sc.Describe(p), counts, i+1, bars[i], want, strings.Join(rows, "\n"))
					}
				}
			}
		}
	}
	if polls == 0 {
		t.Fatal("no poll drawn")
	}
}

// allOn is n counts, all of them c at choice i.
func allOn(n, i, c int) []int {
	out := make([]int, n)
	out[i] = c
	return out
}

// rising is n counts, choice i's i+1.
func rising(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}
