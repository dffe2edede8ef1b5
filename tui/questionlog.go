package tui

import (
	"strings"

	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// keepLogAtQuestion makes short rows (when negative) of room for the
// newest log line and its rule above an open question, out of what the
// readout (bottom[at], readout wrapped at w) takes beyond one row: its
// blank rows first, then its oldest hints (each hint is a line of
// readout; the newest stays, cut with … when even it does not fit). [
// and ] still scroll the log. It returns the rows it gave up. A note
// under the readout (the end of the hints, a server back) took them.
func (p *Player) keepLogAtQuestion(st views.Styles, bottom []string, at int, readout string, w, short int) int {
	if short >= 0 {
		return 0
	}
	had := len(strings.Split(bottom[at], "\n"))
	keep := max(1, had+short)
	rows := strings.Split(bottom[at], "\n")
	for len(rows) > 1 && strings.TrimSpace(ansi.Strip(rows[len(rows)-1])) == "" {
		rows = rows[:len(rows)-1]
	}
	if p.Hints > 0 && !p.Present {
		// whole hints, newest last, as many as fit
		hints := strings.Split(readout, "\n")
		n := views.Rows(views.Join(hints[len(hints)-1]), max(w, 1))
		from := len(hints) - 1
		for from > 0 && n+views.Rows(views.Join(hints[from-1]), max(w, 1)) <= keep {
			n += views.Rows(views.Join(hints[from-1]), max(w, 1))
			from--
		}
		kept := strings.Join(hints[from:], "\n")
		rows = strings.Split(st.Wrap(kept, w, min(keep, views.Rows(views.Join(kept), max(w, 1)))), "\n")
	} else if len(rows) > keep {
		rows = strings.Split(st.Wrap(readout, w, keep), "\n")
	}
	if len(rows) >= had {
		return 0
	}
	bottom[at] = strings.Join(rows, "\n")
	return had - len(rows)
}
