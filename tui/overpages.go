package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// over is what the pages over a scene share (the keys page, the story
// page, the history page): they draw under the scene's header; on the
// story and history pages, under the scene's help line, a key that is not
// theirs acts on the scene under them (a step, a selection, esc), as the
// help line says. The keys page has keys of its own only (see helpPage).
// One of them stands over the scene at a time: ?, i and v put theirs in
// its place.
type over struct{ a *session }

func (o over) Init() tea.Cmd       { return nil }
func (o over) SetSize(w, h int)    {}
func (o over) KeyMap() help.KeyMap { return o.a.sceneKeys() }

// key is a key on page self that self does not take: the other pages'
// keys open theirs in its place, esc closes it (and the speaker notes) as
// play.Navigate's ClosePage says, unless a replay runs, which esc cancels
// first; the rest act on the scene.
func (o over) key(self Component, msg tea.KeyMsg) (Component, tea.Cmd) {
	a, k := o.a, o.a.com.Keys
	switch {
	case msg.Type == tea.KeyEsc && !a.leaving && !a.course.Nav(a.pl.Session).Replaying:
		a.pl.SetFlash("")
		a.pl.notes = false
		return nil, nil
	case key.Matches(msg, k.Help):
		a.pl.SetFlash("") // as any key of the scene's
		return a.newHelp(self), nil
	case key.Matches(msg, k.About):
		a.pl.SetFlash("")
		return a.newAbout(), nil
	case key.Matches(msg, k.Verdicts):
		a.pl.SetFlash("")
		return a.newHistory(), nil
	case key.Matches(msg, glossaryKey):
		// over this page, which is there again once it closes
		a.pl.SetFlash("")
		a.openOver(newGlossary(a.com, a.pl.Session, a.pl.role))
		return self, nil
	}
	return self, a.sceneKey(msg)
}

// isOver reports a page over the scene.
func isOver(c Component) bool {
	switch c.(type) {
	case *helpPage, *aboutPage, *historyPage, *endingPage:
		return true
	}
	return false
}

// helpPage is the keys page (?): every live binding of the scene, its
// settings, and the legend of its glyphs. Only its own keys act on it: ?
// (or esc) closes it, back to the page it stood in for (the history page,
// if that was on screen); g opens the glossary over it, i and v open
// their pages in its place, q quits. Any other key would act on the scene
// out of sight: it does nothing, and the page says so.
type helpPage struct {
	over
	back Component
	// refused is the last key pressed that is not the page's own ("" for none)
	refused string
}

// newHelp is the keys page over the scene, standing in for back (nil for
// none).
func (a *session) newHelp(back Component) *helpPage { return &helpPage{over: over{a}, back: back} }

// KeyMap is the page's own keys; the page lists the scene's (sceneKeys).
func (p *helpPage) KeyMap() help.KeyMap {
	k := p.a.com.Keys
	closing := views.Bind("?/esc", "close this page", "?", "esc")
	own := []key.Binding{closing, glossaryKey, k.About}
	if k.Verdicts.Enabled() {
		own = append(own, k.Verdicts)
	}
	own = append(own, k.Quit)
	return keyList{short: own, full: [][]key.Binding{own}}
}

func (p *helpPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	keys := p.a.com.Keys
	p.refused = ""
	switch {
	case key.Matches(k, keys.Help):
		p.a.pl.SetFlash("")
		if p.back != nil {
			return p.back, nil
		}
		return nil, nil
	case key.Matches(k, keys.Verdicts) && p.back != nil:
		// the history page under this one: v closes it
		p.a.pl.SetFlash("")
		return nil, nil
	case k.Type == tea.KeyEsc, key.Matches(k, glossaryKey), key.Matches(k, keys.About),
		key.Matches(k, keys.Verdicts) && keys.Verdicts.Enabled(), key.Matches(k, keys.Quit):
		return p.key(p, k)
	}
	p.refused = map[string]string{"right": "→", "left": "←", "up": "↑", "down": "↓", " ": "space"}[k.String()]
	if p.refused == "" {
		p.refused = k.String()
	}
	return p, nil
}

func (p *helpPage) View() string {
	a := p.a
	// only the marks the scene can show: a race fires at once, with no
	// timeline and no fault in its log, only its properties
	legend := []string{"properties: ✓ held  ✗ BROKEN  – absent  ○ not put to the test yet"}
	if a.pl.Stepped() {
		// terse rows, so redlock's instructor's keys page fits 80x24: the
		// selected actor's log lines (▸), the warning line (⚠) and a card's
		// "thinks holder ✗" (no crash there) share the log's and the
		// properties' rows
		log := "log: ! a fault (crash, pause) or its end (wake-up)  ▸ selected client  ⚠ warning"
		if a.pl.Scene.Distributed {
			// the nodes' faults too, and the links a client loses (next: c1 ✂ A)
			log = "log: ! fault or its end  ▸ selected  ⚠ warning  c1 ✂ A: c1 cut off A, ↔ heals"
		}
		line := "timeline: ● step ~ wait ✗ crash ‖ pause › wake-up │ now"
		if a.pl.Predict && a.pl.Scene.Predict != nil {
			// an open question hides the moves after its own (play.Disclosure.Drawn)
			line += "  ⋯ N/? till you answer"
		}
		legend = []string{line, "properties: ✓ held ✗ BROKEN – absent ○ not yet tested  thinks holder ✗ wrongly", log}
	}
	if !a.pl.Sends() {
		g := views.QuizGlyphs()
		legend = []string{"situations: " + g[views.Right] + " right  " + g[views.Wrong] + " wrong  " + g[views.Unanswered] +
			" not answered  " + g[views.Shown] + " shown to the class  │ on screen"}
	}
	if a.course.Present {
		// one row, so the longest keys page (redlock's) fits 80x24; at a
		// story's end the footer says what the next click opens
		legend = append(legend, "presenter: footer's class h:mm is the time since locksim opened · esc asks first")
	}
	where := "scene " + itoa(int64(a.course.At+1)) + " of " + itoa(int64(len(a.course.Scenes)))
	if j := slices.Index(a.course.Playlist, a.course.At); j >= 0 {
		// a lesson (-scenes): its place in the lesson, not in the course
		where = "scene " + itoa(int64(j+1)) + " of " + itoa(int64(len(a.course.Playlist))) + " of the lesson"
	}
	if a.labStory {
		where = "a story of the lab: esc goes back to it"
	}
	page := views.HelpPage(a.com.Styles, p.over.KeyMap().FullHelp(), legend, a.com.Width)
	if strings.Count(page, "\n")+1 > a.com.Height-3 {
		// a row short (an instructor's keys on redlock's page): the blank
		// row between the keys and the legend goes first
		page = strings.Replace(page, "\n\n", "\n", 1)
	}
	if p.refused != "" {
		// a key of the scene's, pressed here: the scene is out of sight
		return a.ownView("keys · "+where, page, nil, p.refused+" acts on the scene: close this page first (? or esc)")
	}
	return a.ownView("keys · "+where, page, p.KeyMap().ShortHelp(), "")
}

// aboutPage is the story page (i): the scene's story, which scrolls.
type aboutPage struct {
	over
	page viewport.Model
}

// newAbout is the story page of the scene on screen, at the screen's size.
func (a *session) newAbout() *aboutPage {
	p := &aboutPage{over: over{a}, page: viewport.New(a.com.Width, a.com.Height-4)}
	p.page.SetContent(a.pl.about(a.com.Styles, a.com.Width))
	return p
}

func (p *aboutPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	a := p.a
	scroll := k.Type == tea.KeyUp || k.Type == tea.KeyDown || k.Type == tea.KeyPgUp || k.Type == tea.KeyPgDown
	// the scene's keys that come before the page's scroll: a step at a
	// story's end, a presenter's clicker
	sceneFirst := a.course.Present || key.Matches(k, a.com.Keys.Step) && a.storyOver()
	switch {
	case key.Matches(k, a.com.Keys.About):
		a.pl.SetFlash("")
		return nil, nil
	case scroll && !sceneFirst:
		a.pl.SetFlash("")
		p.page, _ = p.page.Update(k)
		return p, nil
	}
	return p.key(p, k)
}

func (p *aboutPage) View() string {
	hint := "i closes this page"
	if !p.page.AtTop() || !p.page.AtBottom() {
		hint = fmt.Sprintf("↑/↓ scroll (%d%%) · %s", int(p.page.ScrollPercent()*100), hint)
	}
	return p.a.overView("the story of "+p.a.pl.Scene.ID, p.page.View()+"\n"+views.OneLine(p.a.com.Styles.Dim, hint))
}

// historyPage is the history page (v): the run's operations on a
// timeline, and what the checker found in them. While it is open the
// checker runs on each new snapshot, in the core (see Player.checkLater, play.Session.CheckLater).
type historyPage struct {
	over
	pl *Player
}

// newHistory is the history page of the scene on screen, its timeline at
// the newest instant.
func (a *session) newHistory() *historyPage {
	a.pl.histBack = 0
	return &historyPage{over{a}, a.pl}
}

// Init marks the player's history as on screen, so the checker runs.
func (p *historyPage) Init() tea.Cmd {
	p.pl.checked = true
	return nil
}

// close takes the history off the screen: the checker stops.
func (p *historyPage) close() { p.pl.checked = false }

func (p *historyPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	a := p.a
	switch {
	case key.Matches(k, a.com.Keys.Verdicts):
		a.pl.SetFlash("")
		return nil, nil
	case key.Matches(k, a.com.Keys.Earlier):
		a.pl.SetFlash("")
		p.pl.scrollHistory(a.com.Styles, a.com.Width, 1)
		return p, nil
	case key.Matches(k, a.com.Keys.Later):
		a.pl.SetFlash("")
		p.pl.scrollHistory(a.com.Styles, a.com.Width, -1)
		return p, nil
	}
	return p.key(p, k)
}

func (p *historyPage) View() string {
	a := p.a
	return a.overView(p.pl.checkedTitle(), p.pl.checkedPage(a.com.Styles, a.com.Width, a.com.Height-3))
}
