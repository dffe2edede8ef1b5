package tui

import (
	"slices"
	"strings"

	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// contentsHelpKey opens the keys page from the contents, as ? does in a
// scene (the README promises ? everywhere).
var contentsHelpKey = views.Bind("?", "keys", "?")

// contentsKeysPage is the keys page over the contents (?): the contents'
// own keys, then the keys every story scene shares. A scene's own keys
// (its settings, redlock's nodes, the race's trials) are on its ? page,
// where they are live. It scrolls; ? or esc closes it.
type contentsKeysPage struct {
	com  *Common
	page viewport.Model
	keys glossaryKeys
}

// newContentsKeys is the contents' keys page drawn with com's styles, at
// com's size.
func newContentsKeys(com *Common) *contentsKeysPage {
	p := &contentsKeysPage{com: com, keys: glossaryKeys{
		Scroll: views.Bind("↑/↓", "scroll", "up", "down", "pgup", "pgdown"),
		Back:   views.Bind("?/esc", "back", "?", "esc"),
		Quit:   views.Bind("q", "quit", "q", "ctrl+c"),
	}}
	p.SetSize(com.Width, com.Height)
	return p
}

func (p *contentsKeysPage) Init() tea.Cmd { return nil }

// SetSize lays the page out again w columns wide, in the rows the rule
// and the help line leave.
func (p *contentsKeysPage) SetSize(w, h int) {
	p.page = viewport.New(w, max(h-2, 1))
	p.page.SetContent(p.text(w))
}

// text is the two lists of keys, each under a heading.
func (p *contentsKeysPage) text(w int) string {
	st := p.com.Styles
	k := views.DefaultKeyMap()
	b := func(keys, desc string) key.Binding {
		return views.Bind(keys, desc, keys)
	}
	contents := []key.Binding{b("enter", "open the scene"), b("/", "filter (enter: first match)"),
		b("↑/↓", "choose"), glossaryKey, b("?", "this page"), k.Quit}
	// a class's keys, the session's role's (see classKeys): they work on
	// the contents too (the instructor's l and F, a student's F)
	for _, cb := range []key.Binding{p.com.Keys.Desk, p.com.Keys.Follow} {
		if cb.Enabled() {
			contents = slices.Insert(contents, len(contents)-2, cb)
		}
	}
	scene := []key.Binding{k.Play, k.Step, k.Back, k.Home, k.Faster, b("1-3", "predict, when asked"), k.Hint,
		k.About, k.Verdicts, k.Ending, glossaryKey, k.Export, k.Earlier, k.SceneNext, k.ScenePrev,
		b("esc", "close, or back to contents"), b("?", "the scene's keys, settings"), k.Quit}
	var out strings.Builder
	out.WriteString(views.OneLine(st.Bold, "on the contents") + "\n")
	out.WriteString(views.HelpPage(st, [][]key.Binding{contents}, nil, w) + "\n")
	out.WriteString(views.OneLine(st.Bold, "in a scene") + "\n")
	out.WriteString(views.HelpPage(st, [][]key.Binding{scene}, []string{
		"A scene has keys of its own too (its settings, shown above its log):",
		"its ? page lists them. ✓ on the contents: a scene played to the end.",
	}, w))
	return strings.TrimRight(out.String(), "\n")
}

func (p *contentsKeysPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	return scrollPageUpdate(p, &p.page, p.keys, msg)
}

func (p *contentsKeysPage) View() string {
	return scrollPageView(p.com.Styles, p.com.Width, "keys", p.page, p.keys)
}

func (p *contentsKeysPage) KeyMap() help.KeyMap { return p.keys }
