package tui

import (
	"locksim/sim/simtest"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLargerScreenLogShowsMore: at every size above 80x24 the command log
// shows at least what 80x24 shows of each command (each part of a line
// that 80x24 cut with "…" is in the larger screen's line) and at least as
// many lines: a larger screen never narrows the log. The quick tier
// compares each case with one of the larger sizes, taken in turn, the
// slow tier with the other two.
func TestLargerScreenLogShowsMore(t *testing.T) {
	t.Parallel()
	cases := []struct{ id, presses string }{
		{"fencing", "nnnnnnnn"},
		{"fencing", "nnnnnnnnnn"},
		{"gc-pause", "nnnnnnnn"},
		{"crash-gap", "cnnnnnnnn"},
		{"release", "mmnnnn1"},
		{"options", "nnnnnnn"},
		{"claim-lease", "fnnnnnnnnn"},
		{"timeout", "nnnnnnn2"},
		{"extend", "ssnnnnnnn"},
		{"reentrant", "nnnnn"},
		{"redlock", "nnnnnnCs1Dunnnnn"},
	}
	for i, c := range cases {
		small := logRowsOf(t, c.id, c.presses, 80, 24)
		if len(small) == 0 {
			t.Fatalf("%s %s: no log at 80x24", c.id, c.presses)
		}
		for k, size := range [][2]int{{100, 30}, {120, 40}, {160, 50}} {
			// the quick tier each case at one larger size (in turn), the
			// slow tier at the other two
			if !simtest.InTier(k == i%3) {
				continue
			}
			big := logRowsOf(t, c.id, c.presses, size[0], size[1])
			if len(big) < len(small) {
				t.Errorf("%s %s at %dx%d: %d log lines, fewer than 80x24's %d", c.id, c.presses, size[0], size[1], len(big), len(small))
				continue
			}
			big = big[len(big)-len(small):]
			for i, line := range small {
				for _, part := range strings.Split(line, "…") {
					if part = strings.TrimSpace(part); part != "" && !strings.Contains(big[i], part) {
						t.Errorf("%s %s at %dx%d: the log line\n  %s\nlacks %q, which 80x24 shows:\n  %s", c.id, c.presses, size[0], size[1], big[i], part, line)
					}
				}
			}
		}
	}
}

// logRowsOf is the command log's lines on screen, as drawn at w x h after
// presses, each cut to the log's columns with its spaces collapsed.
func logRowsOf(t *testing.T, id, presses string, w, h int) []string {
	t.Helper()
	a := openScene(t, embedded(t), id, 1, w, h, presses)
	a.layout() // the rows the frame on screen gives the log
	rows := strings.Split(a.View(), "\n")
	logW, _ := logWidth(w, h, true)
	for i, r := range rows {
		if strings.HasPrefix(r, "── commands") {
			var out []string
			for j, l := range rows[i+1 : min(i+1+a.pl.logRows, len(rows))] {
				// a reply on a row of its own (a narrow log's) joins its
				// command's line: the lines compared are the commands
				cont := strings.HasPrefix(l, "    ")
				if l = strings.Join(strings.Fields(ansi.Truncate(l, logW, "")), " "); l == "" {
					continue
				}
				switch {
				case cont && len(out) > 0:
					out[len(out)-1] += " " + l
				case cont && j == 0:
					// the reply of a command scrolled off above
				default:
					out = append(out, l)
				}
			}
			return out
		}
	}
	t.Fatalf("%s at %dx%d: no command log on screen:\n%s", id, w, h, a.View())
	return nil
}
