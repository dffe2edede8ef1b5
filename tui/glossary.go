package tui

import (
	"fmt"
	"strings"

	"locksim/play"
	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// glossaryKey opens the glossary: from the contents, from every page over
// a scene, and from a scene whose settings leave g free (gc-pause's pause
// is g: there ? then g).
var glossaryKey = views.Bind("g", "glossary", "g")

// glossaryPage is the glossary (g): the words the screens use, each with
// what it means, in the course text's order, with the terms that would
// answer an open question held back (play.GlossaryFor). It scrolls; g or
// esc closes it, back to the page under it.
type glossaryPage struct {
	com   *Common
	terms []play.Term
	err   error
	page  viewport.Model
	keys  glossaryKeys
}

// glossaryKeys are the glossary's keys: scroll, back, quit.
type glossaryKeys struct{ Scroll, Back, Quit key.Binding }

func (k glossaryKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Scroll, k.Back, k.Quit} }
func (k glossaryKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// newGlossary is the glossary page drawn with com's styles, at com's size,
// as role may read it over the session s (nil: none open): while its
// question is open, the terms that would answer it wait (play.GlossaryFor).
func newGlossary(com *Common, s *play.Session, role play.Role) *glossaryPage {
	terms, err := play.GlossaryFor(s, role)
	p := &glossaryPage{com: com, terms: terms, err: err, keys: glossaryKeys{
		Scroll: views.Bind("↑/↓", "scroll", "up", "down", "pgup", "pgdown"),
		Back:   views.Bind("g/esc", "back", "g", "esc"),
		Quit:   views.Bind("q", "quit", "q", "ctrl+c"),
	}}
	p.SetSize(com.Width, com.Height)
	return p
}

// pushPage asks the app to open a page on top of the stack: a page that
// is not the session's (the contents') opens one over itself with it.
type pushPage struct{ c Component }

// push is the command that asks for c on top (see pushPage).
func push(c Component) tea.Cmd { return func() tea.Msg { return pushPage{c} } }

func (p *glossaryPage) Init() tea.Cmd { return nil }

// SetSize draws the terms again w columns wide, in the rows the rule and
// the help line leave.
func (p *glossaryPage) SetSize(w, h int) {
	at := glossaryPageAt{p.text(w), w, max(h-2, 1)}
	if page, ok := p.com.glossaryPages[at]; ok {
		p.page = page // a copy: its scroll is this page's own
		return
	}
	p.page = viewport.New(at.w, at.h)
	p.page.SetContent(at.text)
	if p.com.glossaryPages == nil || len(p.com.glossaryPages) >= 8 {
		p.com.glossaryPages = map[glossaryPageAt]viewport.Model{}
	}
	p.com.glossaryPages[at] = p.page
}

// text is the terms, each bold on a line of its own and its meaning
// wrapped under it, indented.
func (p *glossaryPage) text(w int) string {
	st := p.com.Styles
	if p.err != nil {
		return views.OneLine(st.Bad, "the glossary does not read: "+p.err.Error())
	}
	at := glossaryAt{w, st.R, heldOf(p.terms)}
	if t, ok := p.com.glossary[at]; ok {
		return t
	}
	if p.com.glossary == nil {
		p.com.glossary = map[glossaryAt]string{}
	}
	t := p.draw(st, w)
	p.com.glossary[at] = t
	return t
}

// heldOf names the terms held back, for the drawn text's key.
func heldOf(terms []play.Term) string {
	var held []string
	for _, t := range terms {
		if t.Held {
			held = append(held, t.Word)
		}
	}
	return strings.Join(held, "\n")
}

// draw is text, drawn.
func (p *glossaryPage) draw(st views.Styles, w int) string {
	var b strings.Builder
	for i, t := range p.terms {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(views.OneLine(st.Bold, t.Word) + "\n")
		for _, line := range strings.Split(views.Wrapped(t.Meaning, max(w-2, 1)), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func (p *glossaryPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	return scrollPageUpdate(p, &p.page, p.keys, msg)
}

func (p *glossaryPage) View() string {
	return scrollPageView(p.com.Styles, p.com.Width, fmt.Sprintf("glossary: the %d words the screens use", len(p.terms)), p.page, p.keys)
}

func (p *glossaryPage) KeyMap() help.KeyMap { return p.keys }
