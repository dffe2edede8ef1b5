package views

import (
	"strings"
	"testing"
)

func TestQuizStrip(t *testing.T) {
	marks := []QuizMark{Right, Wrong, Shown, Unanswered}
	if got := QuizStrip(ASCII(), marks, 2, "1 right of 2 answered", 80); got != "✓✗│·○ 3/4 · 1 right of 2 answered" {
		t.Errorf("strip %q", got)
	}
	if got := QuizStrip(ASCII(), marks, 4, "", 80); got != "✓✗·○│ score" {
		t.Errorf("on the score page the bar stands last: %q", got)
	}
	if got := QuizStrip(ASCII(), marks, 0, strings.Repeat("x", 100), 40); len([]rune(got)) != 40 || !strings.HasSuffix(got, "…") {
		t.Errorf("a long note is cut at the width: %q", got)
	}
}
