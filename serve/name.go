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
	// comeBack, for a keyless session, is the user name that comes back
	// as the same student (USER-TOKEN); "" with a key
	comeBack string
}

func newNamePrompt(st views.Styles, comeBack string) *namePrompt {
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
	return &namePrompt{st: st, input: in, comeBack: comeBack}
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
		n.st.Dim.Render(n.keep()+" · esc: no name · ctrl+c leaves"),
	)
	return n.st.R.Place(max(w, 1), max(h, 1), lipgloss.Center, lipgloss.Center, body)
}

// keep says how long the name is kept.
func (n *namePrompt) keep() string {
	if n.comeBack != "" {
		return "no key: connect as " + n.comeBack + " to come back as yourself"
	}
	return "enter keeps it with your key"
}
