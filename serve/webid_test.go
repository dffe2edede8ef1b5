package serve

import (
	"regexp"
	"strings"
	"testing"

	"locksim/serve/termtest"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

var webIDForm = regexp.MustCompile(`^web-[0-9a-f]{12}$`)

// TestWebIDIsNoCookie: a browser tab's id, as the class sees it (and so
// its store, its report and the logs), is a hash of the id cookie, not
// any part of it: the same on the browser's next tab, another browser's
// another. The name it gives reaches the class without its bidirectional
// controls.
func TestWebIDIsNoCookie(t *testing.T) {
	t.Parallel()
	class := &recordingClass{}
	_, _, base := webServer(t, Config{Class: class, AskName: true})
	const cookie = "0123456789abcdef0123456789abcdef"
	br := termtest.NewBrowser(t)
	br.SetID(t, base, cookieName, cookie)
	tab := br.Open(t, base, "/ws/", 100, 30)
	tab.WaitFor("Your name, as the class will see it")
	tab.Send("\u202eAda\u2066 L\u200f\r")
	tab.WaitFor("welcome to class , Ada L")
	first := class.last()
	if !webIDForm.MatchString(first.ID) || strings.Contains(first.ID, cookie[:8]) || first.Name != "Ada L" {
		t.Fatalf("a browser tab joined as id %q, name %q; want web- and 12 hex digits that are no part of the cookie, name \"Ada L\"", first.ID, first.Name)
	}
	tab.Send("q")
	tab.WaitEnd()

	again := br.Open(t, base, "/ws/", 100, 30)
	again.WaitFor("welcome to class , Ada L")
	if id := class.last().ID; id != first.ID {
		t.Errorf("the same browser came back as %q, first %q", id, first.ID)
	}
	other := termtest.NewBrowser(t)
	other.SetID(t, base, cookieName, "fedcba9876543210fedcba9876543210")
	tab = other.Open(t, base, "/ws/", 100, 30)
	tab.WaitFor("Your name, as the class will see it")
	tab.Send("Bo\r")
	tab.WaitFor("welcome to class , Bo")
	if id := class.last().ID; !webIDForm.MatchString(id) || id == first.ID {
		t.Errorf("another browser joined as %q (the first %q)", id, first.ID)
	}
}

// TestNameDropsBidiControls: a name typed at the prompt keeps its letters
// and loses every bidirectional control (an override would reverse the
// roster's row after it) and control character.
func TestNameDropsBidiControls(t *testing.T) {
	st := views.NewStyles(lipgloss.NewRenderer(nil, termenv.WithProfile(termenv.Ascii)), false)
	n := newNamePrompt(st, Identity{ID: "abc", KeyHash: "abc"})
	typed := "\u202aa\u202bd\u202c\u202da\u202e \u2066l\u2067o\u2068v\u2069e\u200el\u200fa\u061cce\x07"
	for _, r := range typed {
		n.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	if got := n.Value(); got != "ada lovelace" {
		t.Errorf("typed %q, the name is %q, want \"ada lovelace\"", typed, got)
	}
	for in, want := range map[string]string{"  \u202eevil\u202c  ": "evil", "اسم\u061c": "اسم", "zoë": "zoë", "\u2067\u2069": ""} {
		if got := CleanName(in); got != want {
			t.Errorf("CleanName(%q) = %q, want %q", in, got, want)
		}
	}
}
