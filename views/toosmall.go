package views

import (
	"fmt"
	"strings"
)

// TooSmall is drawn instead of a scene when the terminal is below the
// minimum. The message fits the w x h it is drawn in: a terminal shows the
// last rows of a view taller than itself, so a message that wrapped to more
// rows than h lost its start ("locksim needs a"). The longest form that
// fits is drawn, each wrapped at whole words: the full sentence, then
// shorter ones keeping what matters most (the size needed, the name, the
// size there is, q to quit), down to the size needed alone, or nothing
// when not even that fits. A size not known yet (w or h 0) gets the full sentence.
func TooSmall(st Styles, w, h, minW, minH int) string {
	need, have := fmt.Sprintf("%dx%d", minW, minH), fmt.Sprintf("%dx%d", w, h)
	full := fmt.Sprintf("locksim needs a terminal of at least %s; this one is %s.\nEnlarge it, or press q to quit.", need, have)
	if w <= 0 || h <= 0 {
		return full
	}
	// "\u00a0" holds a phrase together on one row ("this is" and its
	// size, "q quits"); a phrase after the separator "· " drops it when it
	// starts a row, so no row starts with a stray separator. The name is
	// kept whenever it fits with the size needed: "needs 80x24" alone does
	// not say what needs it.
	forms := []string{
		full,
		"locksim needs a terminal of at least " + need + "; this one is " + have + ".\nq\u00a0quits.",
		"locksim needs " + need + ", this\u00a0is\u00a0" + have + " ·\u00a0q\u00a0quits",
		"locksim needs " + need + ", this is " + have + " ·\u00a0q\u00a0quits",
		"locksim needs " + need + " ·\u00a0this\u00a0is\u00a0" + have + " ·\u00a0q\u00a0quits",
		"locksim needs " + need + " ·\u00a0q\u00a0quits",
		"locksim needs " + need,
		"needs " + need + " ·\u00a0q\u00a0quits",
		"needs " + need,
		need,
	}
	for _, f := range forms {
		if rows, ok := wrapWhole(f, w); ok && len(rows) <= h {
			return strings.ReplaceAll(strings.Join(rows, "\n"), "\u00a0", " ")
		}
	}
	return ""
}

// wrapWhole wraps s at its spaces (and its newlines) into rows of at most
// w columns, never cutting a word; ok is false when a word alone is wider
// than w. A word starting with the separator "·\u00a0" loses it when it
// starts a row.
func wrapWhole(s string, w int) (rows []string, ok bool) {
	const sep = "·\u00a0"
	for _, line := range strings.Split(s, "\n") {
		row := ""
		for _, word := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' }) {
			bare := strings.TrimPrefix(word, sep)
			switch {
			case Width(bare) > w:
				return nil, false
			case row == "":
				row = bare
			case Width(row)+1+Width(word) <= w:
				row += " " + word
			default:
				rows = append(rows, row)
				row = bare
			}
		}
		rows = append(rows, row)
	}
	return rows, true
}
