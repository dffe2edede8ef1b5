package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// Width is ansi.StringWidth(s), the columns s fills on a terminal,
// with a printable ASCII character that no other character joins counted
// as one column at once: ansi.StringWidth finds the grapheme cluster of
// each character, a space included, and a frame's lines are mostly
// spaces and ASCII (measuring them was a sixth of drawing a 400x200
// frame). Escape sequences fill no column, as there.
func Width(s string) int {
	state, width := parser.GroundState, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		next, action := parser.Table.Transition(state, c)
		if action != parser.PrintAction && next != parser.Utf8State {
			state = next
			continue
		}
		state = parser.GroundState
		// the next byte ASCII: no mark, joiner or selector can follow to
		// make a cluster of c
		if c < 0x80 && (i+1 == len(s) || s[i+1] < 0x80) {
			width++
			continue
		}
		cluster, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		width += w
		i += len(cluster) - 1
	}
	return width
}

// JoinTop is lipgloss.JoinHorizontal(lipgloss.Top, blocks...): the blocks
// side by side, each row of a block padded with spaces to the block's
// widest row, a shorter block's missing rows blank. It measures each row
// once, by Width, where lipgloss measures each twice by ansi.StringWidth
// (which was most of joining a served 400x200 frame's log and readout).
func JoinTop(blocks ...string) string {
	switch len(blocks) {
	case 0:
		return ""
	case 1:
		return blocks[0]
	}
	rows := make([][]string, len(blocks))
	widths := make([][]int, len(blocks))
	widest := make([]int, len(blocks))
	height := 0
	for i, b := range blocks {
		rows[i] = strings.Split(b, "\n")
		widths[i] = make([]int, len(rows[i]))
		for j, r := range rows[i] {
			widths[i][j] = Width(r)
			widest[i] = max(widest[i], widths[i][j])
		}
		height = max(height, len(rows[i]))
	}
	var out strings.Builder
	for j := range height {
		if j > 0 {
			out.WriteByte('\n')
		}
		for i := range blocks {
			w := 0
			if j < len(rows[i]) {
				out.WriteString(rows[i][j])
				w = widths[i][j]
			}
			out.WriteString(strings.Repeat(" ", widest[i]-w))
		}
	}
	return out.String()
}
