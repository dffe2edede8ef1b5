package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestHistogram(t *testing.T) {
	st := ASCII()
	got := Histogram(st, []Bar{{"0 holders", 0, Plain}, {"1 holder", 9990, Good}, {"2 holders", 10, Bad}}, 60)
	rows := strings.Split(ansi.Strip(got), "\n")
	if len(rows) != 3 {
		t.Fatalf("rows: %q", rows)
	}
	if strings.Contains(rows[0], "█") || !strings.HasSuffix(rows[0], "0 (0.0%)") {
		t.Errorf("an empty row has no bar: %q", rows[0])
	}
	if strings.Count(rows[2], "█") != 1 || !strings.Contains(rows[2], "10 (0.1%)") {
		t.Errorf("a rare outcome still shows one block: %q", rows[2])
	}
	for _, r := range rows {
		if ansi.StringWidth(r) > 60 {
			t.Errorf("row wider than 60: %q", r)
		}
	}
	if strings.Count(rows[1], "█") != 60-9-20 {
		t.Errorf("the largest count fills the room: %q", rows[1])
	}
}
