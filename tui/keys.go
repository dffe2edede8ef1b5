package tui

import (
	"slices"
	"strings"

	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// applyKeys switches off the bindings the current session does not accept
// (play.Session.Accepts), so help lists only live keys, and words the
// live ones for what they do here.
func (a *session) applyKeys() {
	s := a.pl.Session
	k := views.DefaultKeyMap()
	for _, r := range []struct {
		b    *key.Binding
		verb play.Verb
	}{
		{&k.Step, play.Step}, {&k.Back, play.Back}, {&k.Home, play.Home}, {&k.Play, play.Play},
		{&k.Faster, play.Faster}, {&k.Slower, play.Slower}, {&k.Replay, play.Replay},
		{&k.Next, play.Next}, {&k.Prev, play.Prev}, {&k.Defaults, play.Defaults},
		{&k.Move, play.Move}, {&k.Crash, play.Crash}, {&k.Pause, play.Pause}, {&k.Wait, play.Wait},
		{&k.Node, play.Node}, {&k.Stop, play.Stop}, {&k.Cut, play.Cut}, {&k.Slow, play.Slow}, {&k.Jump, play.Jump}, {&k.Hang, play.Hang},
		{&k.Efficiency, play.Answer}, {&k.Correctness, play.Answer},
	} {
		r.b.SetEnabled(s.Accepts(r.verb))
	}
	k.Defaults.SetEnabled(s.Accepts(play.Defaults) && len(s.Scene.Knobs) > 0)
	// the race's own pages (t, o) and the history of a story's steps (v)
	k.Trials.SetEnabled(s.Scene.FiresAtOnce())
	k.ShowOne.SetEnabled(s.Scene.FiresAtOnce())
	k.Verdicts.SetEnabled(s.Stepped())
	for _, b := range []*key.Binding{&k.Export, &k.Earlier, &k.Later} {
		b.SetEnabled(s.Sends()) // a quiz has no run, no log, no history
	}
	if s.Trial() != nil {
		k.Replay.SetHelp("r", "back to the race")
	}
	switch {
	case s.Scene.FiresAtOnce():
		k.Next = views.Bind("→/tab", "next worker", "right", "tab", "down")
		k.Prev = views.Bind("←/shift+tab", "previous worker", "left", "shift+tab", "up")
		k.Select.SetHelp("1-4", "pick a worker")
	case !s.Sends():
		k.Select.SetKeys("1", "2")
		k.Select.SetHelp("1/2", "answer")
		k.Step.SetHelp("→/n/./pgdn", "next situation")
		k.Back.SetHelp("←/b/,/pgup", "previous situation")
		k.Home.SetHelp("home", "start the quiz again")
	default:
		if n := len(s.Scene.Build(scenes.Params{}).Actors); n > 0 {
			k.Select.SetHelp("1-"+itoa(int64(n)), "select an actor")
		}
	}
	a.classKeys(&k)
	a.com.Keys = k
}

func (a *session) knobBindings() []key.Binding {
	var out []key.Binding
	for _, k := range a.pl.Scene.Knobs {
		out = append(out, views.Bind(k.Key, "change "+k.Name, k.Key))
	}
	return out
}

func (a *session) onKey(msg tea.KeyMsg) tea.Cmd {
	k := a.com.Keys
	switch {
	case key.Matches(msg, k.Quit):
		a.interrupted = msg.Type == tea.KeyCtrlC
		a.cancel()
		return tea.Quit
	case a.com.Width < MinWidth || a.com.Height < MinHeight:
		return nil // nothing acts on a scene the learner cannot see
	case a.switchWanted >= 0:
		a.afterSwitch = append(a.afterSwitch, msg) // meant for the scene to come
		return nil
	case a.leaving:
		// a presenter's esc asked first: esc again or y leaves, any other
		// key stays and does what it does
		a.pl.SetFlash("")
		if cmd := a.navigate(a.navOf(msg)); slices.Contains(a.asks.open, Component(a.toc)) && a.toc != nil {
			return cmd
		}
		return a.onKey(msg)
	case a.course.Present && msg.Type == tea.KeyF5:
		return nil // a clicker's "start the slide show": nothing to start
	case a.pl.Flash != "":
		a.pl.SetFlash("") // a one-time note goes with the next key
		return a.onKey(msg)
	case (key.Matches(msg, k.Step) || a.course.Present && (key.Matches(msg, k.Play) || msg.Type == tea.KeyPgDown || msg.String() == "." || msg.String() == " ")) && a.storyOver():
		return a.endOfStory()
	case a.course.Present && (key.Matches(msg, k.Step) || key.Matches(msg, k.Play) || msg.Type == tea.KeyPgDown || msg.String() == "." || msg.String() == " "):
		// presenter mode: every clicker key moves the story one step
		cmd, _ := a.pl.key(play.Do(play.Step), a.com.Keys)
		return cmd
	case key.Matches(msg, k.Trials) && a.pl.Asking:
		a.pl.SetFlash("answer the prediction first (1-" + itoa(int64(len(a.pl.Choices()))) + ")")
		return nil
	case key.Matches(msg, k.Trials):
		t, err := NewTrials(a.b, TrialsFromRace, play.DefaultTrials(a.seed), a.com)
		if err != nil {
			a.pl.SetFlash(err.Error())
			return nil
		}
		a.lastTrials = t
		a.openOver(trialsPage{t})
		return nil
	case key.Matches(msg, k.ShowOne) && a.pl.Asking:
		a.pl.SetFlash("answer the prediction first (1-" + itoa(int64(len(a.pl.Choices()))) + ")")
		return nil
	case key.Matches(msg, k.ShowOne):
		return a.showOne()
	case key.Matches(msg, k.Notes):
		a.pl.notes = !a.pl.notes
		return nil
	case key.Matches(msg, k.Verdicts):
		a.openOver(a.newHistory())
		return nil
	case key.Matches(msg, k.Ending):
		if p := a.newEnding(); p != nil {
			a.openOver(p)
		} else {
			a.pl.SetFlash("a shows what the scene taught once its story is over")
		}
		return nil
	case key.Matches(msg, k.Export):
		return a.pl.export()
	case key.Matches(msg, k.Help):
		a.openOver(a.newHelp(nil))
		return nil
	case key.Matches(msg, glossaryKey) && !a.knobUses(glossaryKey):
		a.openOver(newGlossary(a.com, a.pl.Session, a.pl.role))
		return nil
	case key.Matches(msg, k.About):
		a.openOver(a.newAbout())
		return nil
	case key.Matches(msg, k.SceneNext), key.Matches(msg, k.ScenePrev):
		return a.navigate(a.navOf(msg))
	case key.Matches(msg, k.Earlier):
		a.layout()
		a.pl.scrollLog(1)
		return nil
	case key.Matches(msg, k.Later):
		a.layout()
		a.pl.scrollLog(-1)
		return nil
	case msg.Type == tea.KeyEsc:
		return a.navigate(play.NavDo(play.NavBack))
	}
	if act, says, ok := a.actionOf(msg); ok {
		cmd, done := a.pl.key(act, a.com.Keys)
		if done {
			a.applyKeys() // what the session accepts may change (r from a trial back to the race)
		}
		if !done && says {
			a.pl.SetFlash(msg.String() + " does nothing in this scene · ? lists its keys")
		}
		return cmd
	}
	if msg.Type == tea.KeyRunes {
		a.pl.SetFlash(msg.String() + " does nothing here · ? lists the keys")
	}
	return nil
}

// leaveYes is a presenter's yes to the question whether to leave the
// scene (the export's key otherwise).
var leaveYes = views.Bind("", "", "y")

// navOf is the navigation input a key press is: esc goes back (see
// play.Navigate), < and > to the previous and next scene, y says yes to
// leaving; any other key is NavOther.
func (a *session) navOf(msg tea.KeyMsg) play.NavAction {
	k := a.com.Keys
	switch {
	case msg.Type == tea.KeyEsc:
		return play.NavDo(play.NavBack)
	case key.Matches(msg, k.SceneNext):
		return play.NavDo(play.NavNext)
	case key.Matches(msg, k.ScenePrev):
		return play.NavDo(play.NavPrev)
	case key.Matches(msg, leaveYes):
		return play.NavDo(play.NavContents)
	}
	return play.NavDo(play.NavOther)
}

// sceneKeys is the scene page's keys: its help line (a question's
// answers while one waits) and the ? page (every live binding, the
// scene's settings last).
func (a *session) sceneKeys() keyList {
	g := glossaryKey
	if a.knobUses(g) {
		g.SetHelp("? then g", "glossary") // g is the scene's setting: the pages over it take g
	}
	return keyList{short: a.sceneShort(), full: append(a.helpKeys().FullHelp(), append(a.knobBindings(), g))}
}

// sceneShort is sceneKeys' short list, the help line's, alone: the help
// line is drawn on every frame, and the full list is not on it.
func (a *session) sceneShort() []key.Binding {
	k := a.com.Keys
	if a.lessonLast() {
		// past the lesson's last scene > stays and says so: not offered
		k.SceneNext.SetEnabled(false)
	}
	short := k.ShortHelp()
	if n := a.pl.AnswerKeys(); n > 0 && !a.course.Present {
		short = k.PredictHelp(n)
	} else if a.com.Width > 0 {
		short = a.fitKeys(short)
	}
	if a.labStory {
		short = a.labStoryKeys(short)
	}
	return short
}

// fitKeys is views.Fit of short at the screen's width, measured on the
// help line as drawn: kept by the width and the keys (their keys, help
// and whether enabled), since trying each key left out draws the line
// again, up to fourteen times a frame. SetStyles empties what is kept.
func (a *session) fitKeys(short []key.Binding) []key.Binding {
	var sig strings.Builder
	sig.WriteString(itoa(int64(a.com.Width)))
	for _, b := range short {
		h := b.Help()
		sig.WriteString("\x00" + strings.Join(b.Keys(), "\x01") + "\x01" + h.Key + "\x01" + h.Desc)
		if !b.Enabled() {
			sig.WriteString("\x01off")
		}
	}
	if f, ok := a.fits[sig.String()]; ok && a.fitsFor == a.com.Styles.R {
		return slices.Clip(f)
	}
	whole := a.help
	whole.Width = 0 // the line's whole width, not the help model's cut
	f := views.Fit(short, a.com.Width, func(b []key.Binding) int { return ansi.StringWidth(whole.ShortHelpView(b)) })
	if a.fits == nil || len(a.fits) >= 64 || a.fitsFor != a.com.Styles.R {
		a.fits, a.fitsFor = map[string][]key.Binding{}, a.com.Styles.R // a few screens' worth
	}
	a.fits[sig.String()] = f
	return slices.Clip(f)
}

// lessonLast reports the open scene is the last of a lesson (-scenes),
// where > stays (play.PastLesson).
func (a *session) lessonLast() bool {
	if a.pl.Session == nil {
		return false
	}
	n := a.course.Nav(a.pl.Session)
	return n.Lesson && n.LessonNext < 0
}

// knobUses reports a setting of the scene on screen bound to b's key.
func (a *session) knobUses(b key.Binding) bool {
	for _, k := range a.pl.Scene.Knobs {
		if slices.Contains(b.Keys(), k.Key) {
			return true
		}
	}
	return false
}

// keyList is a page's keys as help lists them: a help.KeyMap of lists
// worked out when the page is drawn.
type keyList struct {
	short []key.Binding
	full  [][]key.Binding
}

func (k keyList) ShortHelp() []key.Binding  { return k.short }
func (k keyList) FullHelp() [][]key.Binding { return k.full }

// helpKeys are the bindings the ? page lists: in presenter mode every
// clicker key steps the story, and nothing plays by itself.
func (a *session) helpKeys() views.KeyMap {
	k := a.com.Keys
	if a.course.Present && a.pl.Stepped() {
		// space steps as → does: one row for both, so the page fits 80x24
		// (this copy lists the keys; the session's own still match space)
		k.Play.SetEnabled(false)
		k.Step.SetHelp(k.Step.Help().Key, "step (clicker), space too")
		k.Faster.SetEnabled(false)
	}
	if n := a.pl.AnswerKeys(); n > 0 {
		// a question waits: the numbers answer it (play.Session.AnswerKeys)
		// and select no actor until it is answered
		k.Select.SetHelp("1-"+itoa(int64(n)), "your prediction")
	}
	if a.lessonLast() {
		k.SceneNext.SetEnabled(false) // > stays: the lesson ends here
	}
	if a.labStory {
		// a story of the lab has no scene before or after it, and no
		// scene's ending; esc goes back to the lab (labStoryKey)
		k.SceneNext.SetEnabled(false)
		k.ScenePrev.SetEnabled(false)
		k.Ending.SetEnabled(false)
		k.Esc.SetHelp("esc", "cancel, let go, the lab")
	}
	return k
}

// bound is one row of the key map's table: a binding, the action it sends
// the session (a numbered verb takes its number from the key pressed, see
// actionOf), and whether a press that means nothing in the scene says so.
type bound struct {
	b    key.Binding
	act  play.Action
	says bool
}

// table is the key map's table from binding to the Action it sends the
// session, in the order keys are matched: the quiz's answers, actors and
// nodes by number, the scene's settings, then the story's controls. The
// help lines list the same bindings (views.KeyMap's ShortHelp and
// FullHelp, with the scene's settings).
func (a *session) table() []bound {
	k := a.com.Keys
	rows := []bound{
		{k.Efficiency, play.DoN(play.Answer, int(scenes.Efficiency)), false},
		{k.Correctness, play.DoN(play.Answer, int(scenes.Correctness)), false},
		{k.Select, play.Do(play.Select), false}, {k.Node, play.Do(play.Node), false},
		{k.Next, play.Do(play.Next), false}, {k.Prev, play.Do(play.Prev), false},
	}
	for i, kb := range a.knobBindings() {
		rows = append(rows, bound{kb, play.DoN(play.Knob, i), false})
	}
	for _, r := range []struct {
		b    key.Binding
		verb play.Verb
	}{
		{k.Play, play.Play}, {k.Step, play.Step}, {k.Back, play.Back}, {k.Home, play.Home},
		{k.Faster, play.Faster}, {k.Slower, play.Slower}, {k.Replay, play.Replay},
		{k.Crash, play.Crash}, {k.Pause, play.Pause}, {k.Wait, play.Wait}, {k.Hint, play.Hint},
		{k.Stop, play.Stop}, {k.Cut, play.Cut}, {k.Slow, play.Slow}, {k.Jump, play.Jump}, {k.Hang, play.Hang},
		{k.Defaults, play.Defaults},
	} {
		rows = append(rows, bound{r.b, play.Do(r.verb), true})
	}
	return append(rows, bound{k.Move, play.Do(play.Move), false})
}

// actionOf is the Action the key press sends the session, by the table;
// says is set when a press the scene has no use for should say so. 1-5
// pick an actor (or answer), A-E a node.
func (a *session) actionOf(msg tea.KeyMsg) (act play.Action, says, ok bool) {
	for _, r := range a.table() {
		if !key.Matches(msg, r.b) {
			continue
		}
		act = r.act
		switch act.Verb {
		case play.Select:
			act.N = int(msg.String()[0] - '1')
		case play.Node:
			act.N = int(msg.String()[0] - 'A')
		}
		return act, r.says, true
	}
	return play.Action{}, false, false
}

// LabKeyMap are the lab's keys. In the editor every printable key is
// typed, so the lab's own keys there are control keys, tab and esc.
type LabKeyMap struct {
	// the levels list; Hand plays a level to break (enter, as Open)
	Up, Down, Open, Hand key.Binding
	// the editor: run the adversary, move between the parts and the
	// policy's fields, switch a part between Lua and plain commands
	Run, NextPart, PrevPart, Lang, Save key.Binding
	// Story opens the adversary's break as a story; Pick picks which
	// property's break, when several broke
	Story, Pick key.Binding
	// Back leaves the editor for the levels (the lab for the contents);
	// Cancel, the same key, stops a search
	Back, Cancel key.Binding
	// Hint shows a level's next staged hint, and once the level is passed
	// its reference fix beside the learner's lock
	Hint key.Binding
	// Help opens the lab's keys page: ctrl+g wherever the editor takes
	// typing (a ? there is code), Keys (?) on the levels and on a lock to
	// break, where nothing is typed
	Help, Keys key.Binding
	// Scroll moves the result under the editor, when it is longer than
	// the rows left to it, by a line (ctrl+↓ on, ctrl+↑ back)
	Scroll key.Binding
}

// DefaultLabKeyMap is the lab's key map.
func DefaultLabKeyMap() LabKeyMap {
	return LabKeyMap{
		Up:       views.Bind("↑/↓", "choose", "up", "k"),
		Down:     views.Bind("", "", "down", "j"),
		Open:     views.Bind("enter", "open", "enter"),
		Hand:     views.Bind("enter", "break it: you schedule the moves", "enter"),
		Run:      views.Bind("ctrl+r", "run the adversary", "ctrl+r"),
		NextPart: views.Bind("tab", "next part or policy field", "tab"),
		PrevPart: views.Bind("shift+tab", "previous part or field", "shift+tab"),
		Lang:     views.Bind("ctrl+l", "Lua/commands", "ctrl+l"),
		Save:     views.Bind("ctrl+s", "save", "ctrl+s"),
		Story:    views.Bind("ctrl+o", "open the break ▸ as a story", "ctrl+o"),
		Pick:     views.Bind("pgdn/pgup", "pick another break", "pgdown", "pgup"),
		Back:     views.Bind("esc", "back", "esc"),
		Cancel:   views.Bind("esc", "cancel the search", "esc"),
		Hint:     views.Bind("ctrl+x", "a hint", "ctrl+x"),
		Help:     views.Bind("ctrl+g", "keys", "ctrl+g"),
		Scroll:   views.Bind("ctrl+↓/↑", "scroll the result", "ctrl+down", "ctrl+up"),
		Keys:     views.Bind("?", "keys", "?", "ctrl+g"),
	}
}
