package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Bar is one row of a histogram: a label, a count, and its tone.
type Bar struct {
	Label string
	Count int
	Tone  Tone
}

// Histogram draws bars as horizontal blocks scaled to the largest count,
// each row "label ███ count (percent of total)", in width columns. A count
// above zero always shows at least one block, so a rare outcome is seen.
func Histogram(st Styles, bars []Bar, width int) string {
	total, most, lw := 0, 0, 0
	for _, b := range bars {
		total += b.Count
		most = max(most, b.Count)
		lw = max(lw, ansi.StringWidth(b.Label))
	}
	room := max(width-lw-20, 4)
	var rows []string
	for _, b := range bars {
		n := 0
		if most > 0 {
			n = b.Count * room / most
		}
		if b.Count > 0 {
			n = max(n, 1)
		}
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(b.Count) / float64(total)
		}
		label := b.Label + strings.Repeat(" ", lw-ansi.StringWidth(b.Label))
		bar := st.tone(b.Tone).Render(strings.Repeat("█", n))
		rows = append(rows, ansi.Truncate(fmt.Sprintf("%s %s %d (%.1f%%)", label, bar, b.Count, pct), width, "…"))
	}
	return strings.Join(rows, "\n")
}
