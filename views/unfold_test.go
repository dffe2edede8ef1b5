package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestUnfoldKeepsLongRepliesWhole: at 80 columns a NOSCRIPT error beside
// its EVALSHA takes a row of its own, whole, and the command keeps its
// row whole; a short reply stays beside its command.
func TestUnfoldKeepsLongRepliesWhole(t *testing.T) {
	st := ASCII()
	lines := []LogLine{
		{At: "+0.000s", Actor: "w1", Text: "EVALSHA <claim> 2 emq:{q}:pending emq:{q}:active 3600000", Reply: "(error) NOSCRIPT No matching script. Please use EVAL."},
		{At: "+0.000s", Actor: "w2", Text: "SET resource:lock 6ae6783f… NX PX 30000", Reply: "OK"},
	}
	got := Unfold(st, lines, 80)
	if len(got) != 3 || !got[1].Cont || got[1].Reply != lines[0].Reply || got[0].Reply != "" || got[2].Cont {
		t.Fatalf("unfolded: %+v", got)
	}
	rows := strings.Split(Log(st, got, 80, 3, 0), "\n")
	for i, want := range []string{lines[0].Text, lines[0].Reply, "SET resource:lock 6ae6783f… NX PX 30000"} {
		if !strings.Contains(rows[i], want) || ansi.StringWidth(rows[i]) > 80 {
			t.Errorf("row %d lacks %q whole (or is wider than 80):\n%s", i, want, rows[i])
		}
	}
}

// TestWrapKeepsNumbersWhole: a readout wraps between words, never after
// the '-' of "-1" nor between PX and its number.
func TestWrapKeepsNumbersWhole(t *testing.T) {
	st := ASCII()
	text := "It answers 0 whether the key was another's or gone (the script: 0 or -1). Then SET k v PX 30000 again."
	for w := 20; w <= 80; w++ {
		rows := strings.Split(st.Wrap(text, w, 10), "\n")
		for i, r := range rows {
			if strings.HasSuffix(r, "-") || strings.HasSuffix(r, " PX") {
				t.Errorf("at %d columns row %d breaks a number: %q / %q", w, i, r, rows[i+1])
			}
		}
		if joined := strings.Join(strings.Fields(strings.Join(rows, " ")), " "); joined != text {
			t.Errorf("at %d columns the text changed: %q", w, joined)
		}
	}
}
