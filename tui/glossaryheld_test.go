package tui

import (
	"strings"
	"testing"

	"locksim/play"
	"locksim/views"
)

// TestGlossaryOverAnOpenQuestionHoldsItsAnswer: g at fencing's open
// question opens the glossary with "fencing token" waiting (its meaning
// said the resource refuses a lower number, the answer); once the question
// is answered, g shows it whole.
func TestGlossaryOverAnOpenQuestionHoldsItsAnswer(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "fencing"}, "")
	for i := 0; i < 12 && !a.pl.Asking; i++ {
		drive(t, a, keys("n")...)
	}
	if !a.pl.Asking {
		t.Fatalf("fencing should ask its question:\n%s", a.View())
	}
	read := func() string {
		drive(t, a, keys("g")...)
		g, ok := a.pages.top().(*glossaryPage)
		if !ok {
			t.Fatalf("g should open the glossary:\n%s", a.View())
		}
		text := strings.Join(strings.Fields(views.Strip(g.text(80))), " ")
		drive(t, a, keys("g")...)
		return text
	}
	const says = "refuses a write whose number is lower"
	if text := read(); strings.Contains(text, says) || !strings.Contains(text, "fencing token "+play.GlossaryWaits) {
		t.Errorf("at the open question the glossary reads:\n%s", text)
	}
	drive(t, a, keys("2")...)
	if a.pl.Asking {
		t.Fatalf("2 should answer the question:\n%s", a.View())
	}
	if text := read(); !strings.Contains(text, says) {
		t.Errorf("once answered the glossary reads:\n%s", text)
	}
}
