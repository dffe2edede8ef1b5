package serve

import (
	"strings"
	"testing"

	"locksim/views"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// TestNamePromptSaysHowTheNameIsKept: the name prompt at 80x24 says what
// keeps the name for the session's own transport: the key over SSH, the
// USER-TOKEN of a keyless SSH session, the browser of a web tab (which
// has no key).
func TestNamePromptSaysHowTheNameIsKept(t *testing.T) {
	t.Parallel()
	st := views.NewStyles(lipgloss.NewRenderer(nil, termenv.WithProfile(termenv.Ascii)), false)
	for _, c := range []struct {
		what     string
		id       Identity
		says     string
		saysNone string
	}{
		{"a key", Identity{ID: "abc", KeyHash: "abc"}, "enter keeps it with your key", "browser"},
		{"a keyless SSH session", Identity{ID: "anon-t0k", User: "k7m2q", Token: "t0k"}, "connect as k7m2q-t0k to come back", "your key"},
		{"a browser tab", Identity{ID: "web-123", User: "k7m2q"}, "enter keeps it in this browser", "your key"},
	} {
		v := ansi.Strip(newNamePrompt(st, c.id).View(80, 24))
		if !strings.Contains(v, c.says) || strings.Contains(v, c.saysNone) {
			t.Errorf("%s: the prompt should say %q and not %q:\n%s", c.what, c.says, c.saysNone, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Errorf("%s: a row wider than 80 columns: %q", c.what, l)
			}
		}
	}
}
