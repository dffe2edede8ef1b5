package tui

import (
	"fmt"
	"io"
	"strings"
	"time"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
	"locksim/views"

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
	// Position, if set, opens its scene where it stands, the learner's own
	// moves and prediction included (a position handed over from another
	// session); it takes the place of Scene, Step, Settings and Seed.
	Position *play.Position
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
	// Notice is one line said at start, such as the keys of killed runs
	// removed from the server: the contents' status line, or the one-time
	// note of a scene opened at once, until the next key. "" for none.
	Notice string
}

// entry is one scene in the contents.
type entry struct {
	n                        int
	id, dive, title, summary string
	done                     bool
	answered, answeredRight  bool
	score                    *progress.Score // a quiz's latest score
}

// FilterValue is what / matches: the id and the title. The summary and the
// dive would let a few letters match every scene.
func (e entry) FilterValue() string { return e.id + " " + e.title }

func (e entry) Title() string {
	mark := "·"
	if e.done {
		mark = "✓"
	}
	return fmt.Sprintf("%s %2d  %-11s %s · %s", mark, e.n, e.id, e.title, e.dive)
}

func (e entry) Description() string {
	d := "    " + e.summary
	if e.answered {
		d += map[bool]string{true: " · predicted right", false: " · predicted wrong"}[e.answeredRight]
	}
	if e.score != nil {
		// first: a summary fills the line, and the score is the news
		d = fmt.Sprintf("    %d of %d right · %s", e.score.Right, e.score.Of, e.summary)
	}
	return d
}

// NewCourse opens the course on b: the contents (or the scene o asks for),
// with the learner's saved progress.
func NewCourse(b *sim.Backend, o Options) (*App, error) {
	if o.Position != nil {
		o.Scene, o.Step, o.Settings, o.Seed = o.Position.Scene, o.Position.Step, o.Position.Settings, o.Position.Seed
	}
	if o.Scene == "" && len(o.Scenes) > 0 {
		o.Scene = o.Scenes[0]
	}
	id := o.Scene
	if id == "" {
		id = scenes.All()[0].ID
	}
	a, err := NewApp(b, id, o.Seed)
	if err != nil {
		return nil, err
	}
	c := a.course
	c.Quiz, c.Present = !o.NoQuiz, o.Present
	a.com.Export = o.Export
	if o.Styles != nil {
		a.SetStyles(*o.Styles)
	}
	a.pl.Predict = c.Quiz && a.pl.Scene.Asks()
	a.pl.Present = o.Present
	if err := c.Use(o.Store); err != nil {
		// said on the contents screen, where the missing marks show
		a.warning = err.Error()
		if o.Warn != nil {
			fmt.Fprintf(o.Warn, "locksim: %v\n", err)
		}
	}
	switch {
	case o.Position != nil:
		a.pl.ApplyPosition(*o.Position)
	case o.Scene != "":
		a.pl.ApplyPosition(play.FromMoment(Moment{Scene: o.Scene, Settings: o.Settings, Seed: o.Seed, Step: o.Step}))
	}
	c.SetPlaylist(o.Scenes)
	if o.Clock != nil {
		a.clock = o.Clock
	}
	a.started, a.notesPath = a.clock(), o.Notes
	// the contents are there to go back to even when -scene opened a scene
	a.menu = a.newMenu()
	if i := c.Index(c.Prog.Moment.Scene); i >= 0 {
		a.menu.Select(i)
	}
	a.contents = o.Scene == ""
	if a.contents {
		a.notice = o.Notice
	} else if o.Notice != "" {
		a.pl.Flash = o.Notice
	}
	return a, nil
}

// newMenu builds the contents list from the registry and the progress.
func (a *App) newMenu() list.Model {
	var items []list.Item
	prog := a.course.Prog
	for i, s := range a.course.Scenes {
		dive, title := scenes.Heading(s.ID)
		t, _ := content.Load(s.ID)
		ans, ok := prog.Answers[s.ID]
		e := entry{n: i + 1, id: s.ID, dive: dive, title: title, summary: t.Get("summary"),
			done: prog.Done[s.ID], answered: ok, answeredRight: ans.Right}
		if sc, ok := prog.Scores[s.ID]; ok {
			e.score = &sc
		}
		items = append(items, e)
	}
	// the list in the course's own palette (theme and -no-color included)
	d := list.NewDefaultDelegate()
	pink := a.com.Styles.Title.GetForeground()
	d.Styles.SelectedTitle = a.com.Styles.Title.Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(pink).Padding(0, 0, 0, 1)
	d.Styles.SelectedDesc = a.com.Styles.Accent.Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(pink).Padding(0, 0, 0, 1)
	d.Styles.NormalTitle = a.com.Styles.Bold.Padding(0, 0, 0, 2)
	d.Styles.NormalDesc = a.com.Styles.Dim.Padding(0, 0, 0, 2)
	d.Styles.DimmedTitle, d.Styles.DimmedDesc = a.com.Styles.Dim.Padding(0, 0, 0, 2), a.com.Styles.Dim.Padding(0, 0, 0, 2)
	d.Styles.FilterMatch = a.com.Styles.Plain.Underline(true)
	m := list.New(items, d, max(a.com.Width, MinWidth), max(a.com.Height-1, MinHeight-1))
	m.Title = "the course: Redis distributed locks, scene by scene"
	a.com.styleList(&m)
	m.SetShowStatusBar(false)
	m.SetShowHelp(false) // the line under the list says the keys
	m.DisableQuitKeybindings()
	return m
}

// refreshMenu rebuilds the contents' marks, keeping the selection.
func (a *App) refreshMenu() {
	if a.menu.Items() == nil {
		return
	}
	sel := a.menu.Index()
	w, h := a.menu.Width(), a.menu.Height()
	a.menu = a.newMenu()
	a.menu.SetSize(w, h)
	a.menu.Select(sel)
}

// SaveProgress records the moment on screen (scene, settings, seed, step),
// for "continue where you left off"; call it when the program ends.
func (a *App) SaveProgress() {
	if a.pl == nil {
		return
	}
	if err := a.course.SaveMoment(a.pl.Session); err != nil {
		a.pl.Err = "saving progress: " + err.Error()
	}
}

// menuKey handles a key on the contents screen.
func (a *App) menuKey(msg tea.KeyMsg) tea.Cmd {
	a.notice = "" // a one-time note goes with the next key
	filtering := a.menu.FilterState() == list.Filtering
	switch {
	case !filtering && (msg.String() == "q" || msg.Type == tea.KeyCtrlC):
		a.interrupted = msg.Type == tea.KeyCtrlC
		a.cancel()
		return tea.Quit
	case msg.Type == tea.KeyCtrlC:
		a.interrupted = true
		a.cancel()
		return tea.Quit
	case filtering && msg.Type == tea.KeyEnter:
		return a.acceptFilter()
	case !filtering && msg.Type == tea.KeyEnter:
		return a.openSelected()
	}
	var cmd tea.Cmd
	a.menu, cmd = a.menu.Update(msg)
	return cmd
}

// acceptFilter is enter while filtering: the scene the filter leaves
// selected opens at once. The matches are worked out now rather than
// taken from the list's filter message, which may still be on its way
// when enter follows the typing. With no match the filter stays open to
// be corrected.
func (a *App) acceptFilter() tea.Cmd {
	q := a.menu.FilterInput.Value()
	if q == "" {
		return nil
	}
	a.menu.SetFilterText(q)
	if len(a.menu.VisibleItems()) == 0 {
		a.menu.SetFilterState(list.Filtering)
		return nil
	}
	return a.openSelected()
}

// openSelected opens the scene selected in the contents.
func (a *App) openSelected() tea.Cmd {
	e, ok := a.menu.SelectedItem().(entry)
	if !ok {
		return nil
	}
	if n, step := play.Navigate(a.nav(), play.NavOpenAt(e.n-1)); step == play.OpenScene {
		a.contents = false
		return a.switchTo(n.Scene)
	}
	return nil
}

// menuView draws the contents.
func (a *App) menuView() string {
	help := "enter open · / filter · ↑/↓ choose · ✓ played to the end · q quit"
	if m := a.course.Prog.Moment; m.Scene != "" {
		at := fmt.Sprintf("%s, step %d", m.Scene, m.Step)
		if sc := scenes.Find(m.Scene); sc != nil && scenes.FormatSettings(sc, m.Settings) != "" {
			at += " (" + scenes.FormatSettings(sc, m.Settings) + ")"
		}
		help = "last time: " + at + " · enter open · / filter · q quit"
	}
	switch {
	case a.notice != "":
		help = a.com.Styles.Warn.Render(a.notice)
	case a.warning != "":
		help = a.com.Styles.Warn.Render(a.warning)
	}
	return strings.TrimRight(a.menu.View(), "\n") + "\n" + truncate(a.com.Styles.Dim.Render(help), a.com.Width)
}
