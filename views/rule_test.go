package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A rule whose label is longer than its width is cut in the middle and
// keeps the label's end (the log's scroll hint).
func TestRuleFitsItsWidth(t *testing.T) {
	st := ASCII()
	label := "commands, as sent · replies, as redis-cli prints them · 24 earlier: ["
	for _, w := range []int{30, 40, 72, 80, 100} {
		got := Rule(st, label, w)
		if ansi.StringWidth(got) != w {
			t.Errorf("width %d: the rule is %d columns: %q", w, ansi.StringWidth(got), got)
		}
		if w < 80 && !strings.Contains(got, "earlier: [") {
			t.Errorf("width %d: the scroll hint is cut: %q", w, got)
		}
	}
}
