package views

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTooSmallFits: the too-small message fits every size from 1x1 to
// 79x23: no row wider than the terminal, no more rows than it has (a
// terminal shows a taller view's last rows, and the message lost its
// start: at 20x5 "locksim needs a" was cut off, at 5x2 all but "q to /
// quit."), no word cut, and what matters most is there whenever it fits:
// the size needed, then the name (at 10x3 "needs / 80x24 / · q quits"
// dropped "locksim" although "locksim / needs / 80x24" fits), then how to
// quit and the size there is, then the whole sentence. No row starts or
// ends with the separator "·" (it read as a stray mark on a row of its
// own).
func TestTooSmallFits(t *testing.T) {
	st := ASCII()
	for w := 1; w < 80; w++ {
		for h := 1; h < 24; h++ {
			out := TooSmall(st, w, h, 80, 24)
			have := fmt.Sprintf("%dx%d", w, h)
			rows := strings.Split(out, "\n")
			if out == "" {
				rows = nil
			}
			if len(rows) > h {
				t.Errorf("%dx%d: %d rows:\n%s", w, h, len(rows), out)
			}
			for _, r := range rows {
				if Width(r) > w {
					t.Errorf("%dx%d: row %q is %d wide", w, h, r, Width(r))
				}
			}
			words := strings.Fields(out)
			var want []string
			switch {
			case w >= 36 && h >= 3: // the whole sentence fits from here
				want = []string{"locksim needs a terminal of at least 80x24; this one is " + have + ".", "Enlarge it, or press q to quit."}
			case w >= 15 && h >= 3 || w >= 36 && h >= 2:
				want = []string{"locksim", "needs", "80x24", have, "q quits|q to quit"}
			case w >= 29 || w >= 15 && h >= 2 || w >= 11 && h >= 3 || w >= 7 && h >= 4:
				// "locksim needs 80x24 · q quits" fits
				want = []string{"locksim", "needs", "80x24", "q quits|q to quit"}
			case w >= 19 || w >= 11 && h >= 2 || w >= 7 && h >= 3:
				// "locksim needs 80x24" fits
				want = []string{"locksim", "needs", "80x24"}
			case w >= 11:
				want = []string{"needs", "80x24"}
			case w >= 5:
				want = []string{"80x24"}
			}
			for _, r := range rows {
				if strings.HasPrefix(r, "·") || strings.HasSuffix(r, "·") {
					t.Errorf("%dx%d: row %q starts or ends with a separator:\n%s", w, h, r, out)
				}
			}
			flat := strings.Join(words, " ")
			for _, s := range want {
				if !slices.ContainsFunc(strings.Split(s, "|"), func(s string) bool { return strings.Contains(flat, s) }) {
					t.Errorf("%dx%d: %q missing:\n%s", w, h, s, out)
				}
			}
			if out != "" && !strings.Contains(out, "80x24") {
				t.Errorf("%dx%d: drawn without the size needed:\n%s", w, h, out)
			}
			if w == 20 && h == 5 && !strings.HasPrefix(out, "locksim needs") {
				t.Errorf("20x5 loses its start:\n%s", out)
			}
		}
	}
}
