package serve

import (
	"strings"
	"unicode"

	"locksim/views"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// maxName is the longest display name kept, in characters.
const maxName = 32

// namePrompt asks a student for the name the class sees, once per key.
type namePrompt struct {
	st    views.Styles
	input textinput.Model
	// keepLine says how the name is kept for this session's transport: a
	// key, a browser's cookie, or a keyless SSH user name to come back as
	keepLine string
}

// newNamePrompt asks for the name of the session id is: what it says of
// keeping the name follows how id is known (Identity).
func newNamePrompt(st views.Styles, id Identity) *namePrompt {
	in := textinput.New()
	in.CharLimit = maxName
	in.Width = maxName + 1
	in.Prompt = "> "
	in.PromptStyle = st.Accent
	in.TextStyle = st.Plain
	in.Cursor.Style = st.Accent
	// a blinking cursor would redraw an idle screen twice a second
	_ = in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	return &namePrompt{st: st, input: in, keepLine: keepLine(id)}
}

func (n *namePrompt) Init() tea.Cmd { return nil }

// Update reports done once enter (the name) or esc (no name) was pressed.
func (n *namePrompt) Update(msg tea.Msg) (done bool, cmd tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch k.Type {
		case tea.KeyEnter:
			return true, nil
		case tea.KeyEsc:
			n.input.SetValue("")
			return true, nil
		}
	}
	n.input, cmd = n.input.Update(msg)
	return false, cmd
}

// Value is the name given, as CleanName keeps it.
func (n *namePrompt) Value() string { return CleanName(n.input.Value()) }

// CleanName is a name a client gave (the name prompt's, an SSH user
// name) as the class shows it: control characters and the bidirectional
// controls dropped, its spaces trimmed. A right-to-left override (U+202E)
// in a name would reverse what the roster, the report and the screens
// beside it show after it; an isolate or a mark left unclosed does the
// same in a CSV viewer.
func CleanName(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || isBidiControl(r) {
			return -1
		}
		return r
	}, s))
}

// isBidiControl reports the Unicode bidirectional formatting characters
// (Unicode's Bidi_Control property, UAX #9 section 2): the embeddings and
// overrides U+202A-U+202E, the isolates U+2066-U+2069, the marks U+200E,
// U+200F and the Arabic letter mark U+061C.
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

func (n *namePrompt) View(w, h int) string {
	body := lipgloss.JoinVertical(lipgloss.Left,
		n.st.Title.Render("locksim"),
		"",
		n.st.Plain.Render("Your name, as the class will see it:"),
		n.input.View(),
		"",
		// on rows of their own: a keyless user name beside the keys would
		// pass 80 columns
		n.st.Dim.Render(n.keepLine),
		n.st.Dim.Render("esc: no name · ctrl+c leaves"),
	)
	return n.st.R.Place(max(w, 1), max(h, 1), lipgloss.Center, lipgloss.Center, body)
}

// keepLine says how the name of the session id is, is kept: with its key
// over SSH, with a keyless SSH session's USER-TOKEN, or in a browser tab
// (no key, no token) with the browser's id cookie.
func keepLine(id Identity) string {
	switch {
	case id.ComeBack() != "":
		return "no key: connect as " + id.ComeBack() + " to come back as yourself"
	case id.Keyless():
		return "enter keeps it in this browser"
	}
	return "enter keeps it with your key"
}
