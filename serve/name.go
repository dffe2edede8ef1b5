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

// Value is the name given, its control characters dropped and its spaces
// trimmed.
func (n *namePrompt) Value() string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, n.input.Value()))
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
