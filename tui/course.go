package tui

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"locksim/content"
	"locksim/lab"
	"locksim/play"
	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/transcript"
	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Options are how the course opens.
type Options struct {
	Seed uint64
	// Scene opens this scene at once; "" shows the contents first.
	Scene string
	// Step is the position Scene opens at (-scene X -step N).
	Step int
	// Settings are Scene's settings (-set); nil for its defaults.
	Settings scenes.Params
	// Resume opens Scene (or the first of Scenes) where the learner left
	// it, its saved settings, seed and step, as the contents would, in
	// place of Seed, Step and Settings (-scene X without -seed, -step or
	// -set); a scene with no saved place opens at its start.
	Resume bool
	// Position, if set, opens its scene where it stands, the learner's own
	// moves and prediction included (a position handed over from another
	// session); it takes the place of Scene, Step, Settings and Seed.
	Position *play.Position
	// Visit opens Position as a visit (a story code, -story CODE or ssh -t
	// HOST story CODE): it is not the learner's place, and never becomes
	// their saved one; esc goes back to their own (play.Course.Visit).
	Visit bool
	// Scenes is the lesson's playlist (-scenes), scene ids in the order a
	// step past the end of each goes through them; nil for the whole
	// course. Without Scene, the first of them opens.
	Scenes []string
	// Notes is a file the speaker notes for the step on screen are written
	// to (-notes), rewritten at each step; "" for none.
	Notes string
	// Clock tells the class time; nil for time.Now.
	Clock func() time.Time
	// NoQuiz skips the predictions (a quick demo).
	NoQuiz bool
	// Present is presenter mode: the clicker keys (., pgdn, space) move the
	// story, each decisive point pauses with its question for the class.
	Present bool
	// Store keeps progress between runs; nil keeps nothing (-no-save).
	Store play.Store
	// Warn receives one line when the saved progress could not be read.
	Warn io.Writer
	// Styles draw the screen; from the program's own renderer, so its
	// colour profile (and NO_COLOR) is the terminal's. Zero: the defaults.
	Styles *views.Styles
	// Export is where the y key writes the story for redis-cli, and at
	// what scale (-export-dir, -export-scale).
	Export scenes.Export
	// Fetch, when set, replaces writing the export: y says Fetch(code),
	// the command that fetches the story code's script (a session served
	// over SSH, whose files would stay on the server).
	Fetch func(code string) string
	// Search, when set, runs the lab's adversary in place of lab.Check in
	// this process: a lab.Child's Run for a session served over SSH.
	Search lab.Runner
	// SearchLimits is one line shown while Search runs: the OS limits it
	// runs under (runner.Limits.Holds). "" shows none.
	SearchLimits string
	// Lab is the directory the lab reads the learner's own lock from and
	// saves it to (-lab DIR); with it the lab opens at once, on that lock.
	// "" for none.
	Lab string
	// Notice is one line said at start, such as the keys of killed runs
	// removed from the server: the contents' status line, or the one-time
	// note of a scene opened at once, until the next key. "" for none.
	Notice string
}

// entry is one scene in the contents, or the lab (lab set; n is 0).
type entry struct {
	n                        int
	id, dive, title, summary string
	done                     bool
	answered, answeredRight  bool
	score                    *progress.Score // a quiz's latest score
	lab                      bool
	// left is where the learner left the lab's story last time ("a story
	// at step 3"), on the lab's title row; "" for none
	left string
	// width is the list's width: the title leaves out the dive, and the
	// summary wraps to two rows, to read whole in it
	width int
	st    views.Styles
	// desc is Description once worked out (nil: work it out each time):
	// the list draws each entry on screen at every frame, and an entry's
	// fields stay as they are while it is in the list
	desc *entryDesc
}

// entryDesc is an entry's Description, worked out once.
type entryDesc struct {
	once sync.Once
	s    string
}

// entryRows is an entry's rows in the contents: its title and two of
// summary.
const entryRows = 3

// FilterValue is what / matches (wordFilter): the id and the title. The
// summary and the dive would let a few letters match every scene. They
// stand where the row (Title) draws them, after as many spaces as the
// mark and the number take: the list underlines the matched letters at
// the positions counted in this text (it underlined "frozen" six letters
// left of where the row has it).
func (e entry) FilterValue() string {
	return strings.Repeat(" ", utf8.RuneCountInString(e.mark())) + fmt.Sprintf("%-11s %s", e.id, e.title)
}

// NewCourse opens the course on b: the contents (or the scene o asks for),
// with the learner's saved progress.
func NewCourse(b *sim.Backend, o Options) (*App, error) {
	seed, at := o.Seed, o.Position
	if at != nil {
		// the scenes opened after it draw their tokens as it does
		seed = at.Seed
	}
	var labAt *play.Position // a lab story's position: it opens over the contents
	if at != nil && at.Lab != nil {
		labAt, at = at, nil
	}
	a := newApp(b, seed)
	c := a.course
	c.Quiz, c.Present = !o.NoQuiz, o.Present
	a.com.Export, a.com.Sink, a.com.Fetch, a.com.Search = o.Export, transcript.Files{Dir: o.Export.Dir}, o.Fetch, o.Search
	a.com.SearchLimits = o.SearchLimits
	warning := ""
	if err := c.Use(o.Store); err != nil {
		// said on the contents screen, where the missing marks show
		warning = err.Error()
		if o.Warn != nil {
			fmt.Fprintf(o.Warn, "locksim: %v\n", err)
		}
	}
	scene := o.Scene
	if scene == "" && len(o.Scenes) > 0 {
		scene = o.Scenes[0]
	}
	contents := at == nil && scene == ""
	var s *play.Session
	var err error
	switch {
	case at != nil && o.Visit:
		s, err = c.Visit(play.VisitCode, *at, nil)
	case at != nil:
		s, err = c.OpenAt(*at, nil)
	case scene != "" && o.Resume && c.Index(scene) >= 0:
		s, err = c.Open(c.Index(scene), nil)
	case scene != "":
		s, err = c.OpenAt(play.FromMoment(Moment{Scene: scene, Settings: o.Settings, Seed: o.Seed, Step: o.Step}), nil)
	default:
		// the first scene, from its start, under the contents: nobody's
		// place (quitting from the contents keeps the saved one), which
		// opens once the learner picks its scene
		s, err = c.Browse(play.Position{Version: play.PositionVersion, Scene: c.Scenes[0].ID})
	}
	if err != nil {
		a.cancel() // nothing opened runs yet
		return nil, err
	}
	a.setPlayer(s)
	if o.Styles != nil {
		a.SetStyles(*o.Styles)
	}
	c.SetPlaylist(o.Scenes)
	if o.Clock != nil {
		a.clock = o.Clock
	}
	a.started, a.notesPath = a.clock(), o.Notes
	// the contents are there to go back to even when -scene opened a scene
	a.toc = newContents(a.com, c, warning, b.Live())
	a.toc.own = a.courseSession
	if i := c.Index(c.Prog.Moment.Scene); i >= 0 {
		a.toc.selectScene(i)
	}
	if contents && labAt == nil && o.Lab == "" {
		a.pages.push(a.toc) // sized with the first window size
	}
	if labAt != nil {
		if o.Visit {
			c.Away(play.VisitCode, nil)
		}
		a.labResumed = true // the story asked for, not last time's
		a.openLab()
		a.labAt = labAt
	}
	if o.Lab != "" {
		if err := a.openLabDir(o.Lab); err != nil {
			a.Shutdown(context.Background())
			return nil, err
		}
	}
	a.doAsks() // the lab opened at once, if it did (no command: nothing runs yet)
	if a.onContents() {
		a.toc.notice = o.Notice
	} else if o.Notice != "" {
		a.pl.SetFlash(o.Notice)
	}
	return a, nil
}

// Contents is the contents screen: the course's scenes as a list, with the
// marks of the learner's progress.
type Contents struct {
	com    *Common
	course *play.Course
	menu   list.Model
	// warning is why the saved progress could not be read, "" if it was;
	// notice a one-time note (Options.Notice), shown until the next key
	warning string
	notice  string
	w, h    int
	// live is set on a live server, where the lab's entry says why it
	// runs on an embedded server of its own
	live bool
	// drawn is the list as last drawn (menuView); laid the width and
	// page its items were laid out for
	drawn menuDrawn
	laid  layout
	// built is set once the list is: a course opened on a scene builds
	// it when the contents first show (building it, every scene's text
	// read and laid out, was a twentieth of the package's tests);
	// pending is the scene to select then, -1 for none
	built   bool
	pending int
	// own is the course's session (the one under the contents, or under
	// a story of the lab), nil for none: the footer's "last time" is the
	// place the course would save with it now (play.Course.PlaceNow)
	own func() *play.Session
}

// layout is the width and the page (items a page) the contents' items
// were laid out for: the summaries wrap to the width, the headings keep
// off a page's foot.
type layout struct{ width, perPage int }

// newContents is the contents of course c, with com's styles and keys; it
// is drawn at the smallest size until SetSize. The list is built when
// first used (see list).
func newContents(com *Common, c *play.Course, warning string, live bool) *Contents {
	return &Contents{com: com, course: c, warning: warning, live: live, pending: -1}
}

// list is the contents' list, built from the registry and the progress
// as they stand at its first use, with the scene selectScene asked for
// before it was built selected.
func (t *Contents) list() *list.Model {
	if !t.built {
		t.built = true
		t.menu = t.newMenu()
		if i := t.pending; i >= 0 {
			t.pending = -1
			t.selectScene(i)
		}
	}
	return &t.menu
}

// SetSize sets the size View draws at: the list and the line under it. A
// screen too small for a scene draws no contents: its size is not taken.
func (t *Contents) SetSize(w, h int) {
	if w < MinWidth || h < MinHeight {
		return
	}
	changed := t.w != w || t.h != h
	t.list()
	t.w, t.h = w, h
	// the footer: the keys, and above them the last time, if any
	foot := 1
	if t.lastTimeLine() != "" {
		foot = 2
	}
	if !changed && t.menu.Width() == w && t.menu.Height() == h-foot && t.menu.FilterState() == list.Unfiltered {
		// the app sizes the contents on every message they show at: the
		// same size again pages the list again only while a filter is
		// typed (TestContentsSizedOnce)
		return
	}
	t.menu.SetSize(w, h-foot)
	if changed {
		t.menu.Title = t.title()
	}
	if laid := (layout{w, t.menu.Paginator.PerPage}); changed && laid != t.laid {
		// the summaries wrap and the headings keep off a page's foot at
		// this size: the items are laid out again (the list itself, its
		// filter and cursor, stays)
		sel, _ := t.menu.SelectedItem().(entry)
		t.menu.SetItems(noOrphans(t.items(w), laid.perPage))
		t.laid = laid
		t.reselect(sel)
	}
}

// title is the contents' title: the course, and how far through it the
// learner is.
func (t *Contents) title() string {
	done, of := t.course.Played()
	return fmt.Sprintf("the course: Redis distributed locks, scene by scene · %d of %d played", done, of)
}

// reselect selects the entry e was (by its id), off any heading.
func (t *Contents) reselect(e entry) {
	for at, it := range t.menu.Items() {
		if x, ok := it.(entry); ok && x.id == e.id {
			t.menu.Select(at)
		}
	}
	skipHeading(&t.menu, 0)
}

// newMenu builds the contents list from the registry and the progress.
func (t *Contents) newMenu() list.Model {
	width, height := max(t.w, t.com.Width, MinWidth), max(t.h, t.com.Height, MinHeight)
	items := t.items(width)
	m := t.menuOf(items, width, height)
	t.laid = layout{width, m.Paginator.PerPage}
	return m
}

// items are the contents' entries and the parts' headings, the entries
// laid out for a list width columns wide (see entry).
func (t *Contents) items(width int) []list.Item {
	var items []list.Item
	prog, st := t.course.Prog, t.com.Styles
	parts, part := play.Parts(), -1
	// a part's heading goes before its first entry: the parts follow the
	// contents' order, the lab a part of its own
	heading := func(i int) {
		if i >= 0 && i != part {
			items = append(items, partItem{n: i + 1, Part: parts[i]})
		}
		part = i
	}
	for _, ce := range t.course.Contents() {
		if ce.Lab {
			heading(labPart(parts))
			e := t.labEntry()
			e.width, e.st, e.desc = width, st, &entryDesc{}
			items = append(items, e)
			continue
		}
		i, s := ce.Scene, t.course.Scenes[ce.Scene]
		heading(play.PartOf(s.ID))
		// the text once: each Load is a copy of it (scenes.Heading's too)
		t, err := content.Load(s.ID)
		dive, title := t.Get("dive"), t.Get("title")
		if err != nil {
			dive, title = scenes.Heading(s.ID) // what it says of a text that does not read
		}
		ans, ok := prog.Answers[s.ID]
		e := entry{n: i + 1, id: s.ID, dive: dive, title: title, summary: t.Get("summary"),
			done: prog.Done[s.ID], answered: ok, answeredRight: ans.Right, width: width, st: st, desc: &entryDesc{}}
		if sc, ok := prog.Scores[s.ID]; ok {
			e.score = &sc
		}
		items = append(items, e)
	}
	return items
}

// menuOf is the list of items width x height (the line under it aside),
// in the course's own palette (theme and -no-color included).
func (t *Contents) menuOf(items []list.Item, width, height int) list.Model {
	d := list.NewDefaultDelegate()
	pink := t.com.Styles.Title.GetForeground()
	d.Styles.SelectedTitle = t.com.Styles.Title.Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(pink).Padding(0, 0, 0, 1)
	d.Styles.SelectedDesc = t.com.Styles.Accent.Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(pink).Padding(0, 0, 0, 1)
	d.Styles.NormalTitle = t.com.Styles.Bold.Padding(0, 0, 0, 2)
	d.Styles.NormalDesc = t.com.Styles.Dim.Padding(0, 0, 0, 2)
	d.Styles.DimmedTitle, d.Styles.DimmedDesc = t.com.Styles.Dim.Padding(0, 0, 0, 2), t.com.Styles.Dim.Padding(0, 0, 0, 2)
	d.Styles.FilterMatch = t.com.Styles.Plain.Underline(true)
	pd := partDelegate{DefaultDelegate: d, head: t.com.Styles.Accent.Bold(true)}
	d.SetHeight(entryRows)
	pd = partDelegate{DefaultDelegate: d, head: pd.head}
	m := list.New(items, pd, width, height-1)
	m.Title = t.title()
	m.Filter = wordFilter // words and their starts, not letters anywhere
	t.com.styleList(&m)
	m.SetShowStatusBar(false)
	m.SetShowHelp(false) // the line under the list says the keys
	m.DisableQuitKeybindings()
	m.SetItems(noOrphans(items, m.Paginator.PerPage)) // as many on a page as the list's own lines leave room for
	skipHeading(&m, 0)
	return m
}

// partItem is a part's heading in the contents: its number, title and
// estimated time. It is never selected (see skipHeading), and a filter
// never matches it.
type partItem struct {
	n int
	play.Part
}

// partDelegate draws the contents: a part's heading on a line of its
// own, an entry as the list's default delegate does.
type partDelegate struct {
	list.DefaultDelegate
	head lipgloss.Style
}

// selectScene selects the course's scene i in the list, where the lab
// and the parts' headings before it move it down.
func (t *Contents) selectScene(i int) {
	if !t.built {
		t.pending = i
		return
	}
	for at, it := range t.menu.Items() {
		if e, ok := it.(entry); ok && !e.lab && e.n == i+1 {
			t.menu.Select(at)
			return
		}
	}
}

// refreshMenu rebuilds the contents' marks, keeping the selection.
func (t *Contents) refreshMenu() {
	if !t.built {
		return // built from the progress as it stands when first used
	}
	sel, _ := t.menu.SelectedItem().(entry)
	w, h := t.menu.Width(), t.menu.Height()
	t.menu = t.newMenu()
	t.menu.SetSize(w, h)
	t.reselect(sel)
}

// Init starts nothing: the list is built.
func (t *Contents) Init() tea.Cmd { return nil }

// Update takes a key (q quits, enter opens the entry selected, the rest is
// the list's and its filter's) or the list's own messages (its filter's
// results).
func (t *Contents) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return t, t.listUpdate(msg)
	}
	t.notice = "" // a one-time note goes with the next key
	switch {
	case !t.typing() && msg.(tea.KeyMsg).String() == "q":
		return t, quit
	case !t.typing() && key.Matches(k, glossaryKey):
		return t, push(newGlossary(t.com, t.session(), play.Learner))
	case !t.typing() && key.Matches(k, contentsHelpKey):
		return t, push(newContentsKeys(t.com))
	case t.typing() && k.Type == tea.KeyEnter:
		return t, t.acceptFilter()
	case !t.typing() && k.Type == tea.KeyEnter:
		return t, t.openSelected()
	}
	before := t.list().Index()
	cmd := t.listUpdate(msg)
	skipHeading(&t.menu, before)
	return t, cmd
}

// typing reports that a filter is being typed: its letters are its own.
func (t *Contents) typing() bool { return t.list().FilterState() == list.Filtering }

// listUpdate passes a message to the list: a key, or its filter's results.
func (t *Contents) listUpdate(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	t.menu, cmd = t.list().Update(msg)
	return cmd
}

// KeyMap is the contents' keys: the list's own, with the words of this
// page, and quit.
func (t *Contents) KeyMap() help.KeyMap {
	if t.typing() {
		// every letter (g, ? and q too) is the filter's: only these act
		ks := []key.Binding{views.Bind("enter", "open the first match", "enter"),
			views.Bind("↑/↓", "choose", "up", "down"),
			views.Bind("esc", "cancel", "esc"), views.Bind("ctrl+c", "quit", "ctrl+c")}
		return keyList{short: ks, full: [][]key.Binding{ks}}
	}
	open := views.Bind("enter", "open", "enter")
	filter := t.list().KeyMap.Filter
	filter.SetHelp(filter.Help().Key, "filter")
	choose := views.Bind("↑/↓", "choose", "up", "down")
	return keyList{short: []key.Binding{open, filter, choose, glossaryKey, contentsHelpKey, t.com.Keys.Quit}, full: [][]key.Binding{{open, filter, choose, glossaryKey, contentsHelpKey, t.com.Keys.Quit}}}
}

// picked asks the app to open the contents' entry e: a scene, or the lab.
type picked struct{ e entry }

// acceptFilter is enter while filtering: the scene the filter leaves
// selected opens at once. The matches are worked out now rather than
// taken from the list's filter message, which may still be on its way
// when enter follows the typing. With no match the filter stays open to
// be corrected.
func (t *Contents) acceptFilter() tea.Cmd {
	q := t.list().FilterInput.Value()
	if q == "" {
		return nil
	}
	t.menu.SetFilterText(q)
	if len(t.menu.VisibleItems()) == 0 {
		t.menu.SetFilterState(list.Filtering)
		return nil
	}
	return t.openSelected()
}

// openSelected asks for the entry selected to open (see picked).
func (t *Contents) openSelected() tea.Cmd {
	e, ok := t.list().SelectedItem().(entry)
	if !ok {
		return nil
	}
	return func() tea.Msg { return picked{e} }
}

// openEntry opens the contents' entry e: the lab, or a scene, the
// contents closed.
func (a *App) openEntry(e entry) tea.Cmd {
	if !a.onContents() {
		return nil // a late pick: the contents have closed since
	}
	if e.lab {
		_, cmd := a.openLab()
		return cmd
	}
	if n, step := play.Navigate(a.nav(), play.NavOpenAt(e.n-1)); step == play.OpenScene {
		a.backToScene()
		return a.switchTo(n.Scene)
	}
	return nil
}

// onContents reports that the contents are on screen.
func (a *App) onContents() bool { return a.toc != nil && a.pages.top() == a.toc }

// contentsOpen reports the contents on the stack, on top or under a page
// opened from them (the glossary, the class view): no scene is the
// learner's place on screen.
func (a *App) contentsOpen() bool {
	return a.toc != nil && slices.Contains(a.pages, Component(a.toc))
}

// session is the course's session under the contents, nil when none is
// open: the glossary opened here holds back what its open question would
// be answered by, as over the scene.
func (t *Contents) session() *play.Session {
	if t.own == nil {
		return nil
	}
	return t.own()
}

// lastTime is the place the footer's "last time" names: where the
// learner would continue from if locksim ended now (the scene and step
// just left, within a session as after a restart).
func (t *Contents) lastTime() Moment {
	var s *play.Session
	if t.own != nil {
		s = t.own()
	}
	return t.course.PlaceNow(s).Moment()
}
