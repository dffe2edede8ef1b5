package views

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func widths(s string) []int {
	var out []int
	for _, l := range strings.Split(s, "\n") {
		out = append(out, ansi.StringWidth(l))
	}
	return out
}

func TestCardsFitTheWidth(t *testing.T) {
	st := ASCII()
	cards := []Card{{Name: "w1", Lines: []string{"token 6ae6783f…", "OK · holder of a very long description"}}, {Name: "w2"}, {Name: "w3"}, {Name: "w4"}}
	for _, w := range []int{80, 97, 120} {
		out := Cards(st, cards, 2, w)
		ws := widths(out)
		if len(ws) != CardHeight {
			t.Fatalf("width %d: %d rows, want %d", w, len(ws), CardHeight)
		}
		for _, x := range ws {
			if x > w || x < w-len(cards) {
				t.Fatalf("width %d: a row is %d wide:\n%s", w, x, out)
			}
		}
		if !strings.Contains(out, "┏━ w3") {
			t.Fatalf("the selected card should be thick-bordered with its name:\n%s", out)
		}
	}
	drawn := Cards(ASCII(), []Card{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}, -1, 80)
	zones := CardZones(drawn, 4, 1)
	if ZoneAt(zones, 0, 1) != 0 || ZoneAt(zones, 79, 4) != 3 || ZoneAt(zones, 41, 2) != 2 || ZoneAt(zones, 5, 0) != -1 || ZoneAt(zones, 5, 5) != -1 {
		t.Fatalf("zones map cells to the wrong cards: %+v", zones)
	}
}

func TestLogKeepsTheNewestAndFits(t *testing.T) {
	var lines []LogLine
	for i := range 10 {
		lines = append(lines, LogLine{At: "+0.000s", Actor: "w1", Text: strings.Repeat("SET k v ", i+1), Reply: "OK"})
	}
	lines[9].Hi = true
	out := Log(ASCII(), lines, 60, 4, 0)
	rows := strings.Split(out, "\n")
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if ansi.StringWidth(r) > 60 {
			t.Fatalf("row wider than 60: %q", r)
		}
	}
	if !strings.HasPrefix(rows[3], "▸") || !strings.HasSuffix(rows[3], "OK") {
		t.Fatalf("the newest line should be last, marked and end in its reply: %q", rows[3])
	}
	back := strings.Split(Log(ASCII(), lines, 60, 4, 99), "\n")
	if !strings.Contains(back[0], "SET k v  ") || strings.Contains(back[0], "SET k v SET") {
		t.Fatalf("scrolled all the way back, the first line should be the oldest: %q", back[0])
	}
}

func TestWrapKeepsRows(t *testing.T) {
	st := ASCII()
	got := st.Wrap(strings.Repeat("word ", 60), 40, 3)
	rows := strings.Split(got, "\n")
	if len(rows) != 3 || !strings.HasSuffix(rows[2], "…") {
		t.Fatalf("want 3 rows ending in an ellipsis, got %q", got)
	}
	if got := st.Wrap("short", 40, 2); got != "short\n" {
		t.Fatalf("short text should pad to 2 rows, got %q", got)
	}
}

func TestTimeline(t *testing.T) {
	marks := []Mark{{Glyph: "●", Label: "A acquires"}, {Glyph: "‖", Label: "A pauses"}, {Glyph: "~", Label: "wait 35s"}}
	got := Timeline(ASCII(), marks, 2, "+0.000s", "", 80)
	if !strings.HasPrefix(got, "●‖│~ 2/3") || !strings.Contains(got, "next: wait 35s") {
		t.Fatalf("timeline %q", got)
	}
	// an open question's future: the moves after it are one "⋯", and
	// their number is not given
	got = Timeline(ASCII(), append(marks[:2:2], MoreMark()), 1, "+0.000s", "", 80)
	if !strings.HasPrefix(got, "●│‖⋯ 1/?") || !strings.Contains(got, "next: A pauses") {
		t.Fatalf("timeline with its future hidden %q", got)
	}
	// a question before the story's last move (timeout's): every move is
	// drawn, but their number is still not given, nor that none follows
	got = Timeline(ASCII(), append(marks[:3:3], MoreMark()), 2, "+0.000s", "", 80)
	if !strings.HasPrefix(got, "●‖│~⋯ 2/?") || !strings.Contains(got, "next: wait 35s") {
		t.Fatalf("timeline of a question at its last move %q", got)
	}
}

func TestCutMiddleKeepsTheTail(t *testing.T) {
	// whole words from the head and the tail, the middle marked by a "…"
	// of its own: no word is cut in two
	in := "EVAL <fenced-write> 1 resource:state A edit-A 33"
	got := cutMiddle(in, 30)
	if ansi.StringWidth(got) > 30 || !strings.HasPrefix(got, "EVAL ") || !strings.HasSuffix(got, " 33") || !strings.Contains(got, " … ") {
		t.Fatalf("cutMiddle = %q", got)
	}
	for _, word := range strings.Fields(got) {
		if word != "…" && !slices.Contains(strings.Fields(in), word) {
			t.Errorf("cutMiddle = %q: %q is no whole word of the command", got, word)
		}
	}
	claim := "EVALSHA ‹claim› 3 jobs:pending jobs:active jobs:data 1700000000000 3600000"
	if got := cutMiddle(claim, 36); !strings.HasPrefix(got, "EVALSHA ‹claim› ") || !strings.HasSuffix(got, " 3600000") || strings.Contains(got, "‹claim…") {
		t.Fatalf("cutMiddle = %q", got)
	}
	// a first word too long for the room is cut inside, as before
	if got := cutMiddle("resource:lock:with-a-very-long-name-indeed NX PX", 20); ansi.StringWidth(got) != 20 {
		t.Fatalf("cutMiddle of a long word = %q", got)
	}
	if cutMiddle("short", 30) != "short" {
		t.Fatal("a short command must stay whole")
	}
}

// TestCutMiddleKeepsParenthesesWhole: redlock's begin note at 80 columns
// (65 for the text) was cut to "[c1 reads its clock (t0 = … will try
// every node with one token]", a parenthesis opened and never closed;
// the words of a parenthesis the cut splits go with it.
func TestCutMiddleKeepsParenthesesWhole(t *testing.T) {
	in := "[c1 reads its clock (t0 = 0.000s) and will try every node with one token]"
	got := cutMiddle(in, 65)
	if ansi.StringWidth(got) > 65 || strings.Count(got, "(") != strings.Count(got, ")") {
		t.Fatalf("cutMiddle = %q: a parenthesis cut open", got)
	}
	if !strings.HasPrefix(got, "[c1 reads its clock") || !strings.HasSuffix(got, "one token]") {
		t.Fatalf("cutMiddle = %q", got)
	}
	tail := "[c2 gives up (no majority) and releases on every node it asked]"
	if got := cutMiddle(tail, 44); strings.Count(got, "(") != strings.Count(got, ")") || !strings.HasSuffix(got, "asked]") {
		t.Fatalf("cutMiddle = %q: a parenthesis cut open", got)
	}
}
