package tui

import (
	"errors"
	"fmt"
	"io/fs"

	"locksim/lab"
	"locksim/play"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// openLab opens the lab's screen from the contents, with the levels the
// progress says are passed; the learner's own lock is the one -lab DIR
// read, or the one left in the editor before.
func (a *App) openLab() (*Lab, tea.Cmd) {
	a.backToScene() // the lab stands in for the contents
	l := newLab(a.com, a.course.Prog.Levels, a.course.RecordLevel, &a.labOwn, a.labDir, a.b.Live(), a.toc)
	l.predict = a.course.Quiz
	l.SetSize(a.com.Width, a.com.Height)
	a.openOver(l)
	if a.labResumed {
		return l, nil
	}
	a.labResumed = true
	// the first time in this run: the story of the lab the learner was
	// in when locksim last ended, if they were in one
	if pos, ok := a.course.LabPlace(); ok {
		return l, a.openLabAt(l, pos)
	}
	return l, nil
}

// labPage is the lab on the stack, nil when it is closed.
func (a *App) labPage() *Lab {
	if i := a.pages.find(isLab); i >= 0 {
		return a.pages[i].(*Lab)
	}
	for _, c := range a.asks.open {
		if l, ok := c.(*Lab); ok {
			return l // opened by the message being handled
		}
	}
	return nil
}

// isLab reports the lab's page.
func isLab(c Component) bool {
	_, ok := c.(*Lab)
	return ok
}

// openLabDir opens the lab at once on the learner's own lock in dir
// (-lab DIR): the editor, the lock read from its files. A directory that
// does not exist yet, or holds no acquire, starts from the starter lock,
// written there at the first run or ctrl+s; a lock that does not read
// (both languages of a part, a bad lab.json) is an error.
func (a *App) openLabDir(dir string) error {
	lk, note, err := loadLabDir(dir)
	if err != nil {
		return err
	}
	a.labDir, a.labOwn = dir, lk
	a.labResumed = true // -lab DIR opens the learner's lock, not a story
	l, _ := a.openLab()
	l.sel = len(l.levels)
	l.openLevel(l.sel)
	if note != "" {
		l.note = note
	}
	l.layout() // the note takes rows of its own, over the keys
	return nil
}

// CheckLab reports what -lab DIR cannot open: a lock in dir that does
// not read (a part in both languages, a bad lab.json), or a dir that is
// a file. A missing directory, or one with no acquire yet, is fine: the
// lab starts there from a starter lock.
func CheckLab(dir string) error {
	_, _, err := loadLabDir(dir)
	return err
}

// loadLabDir reads the learner's lock from dir (see CheckLab), and says
// when it is the starter.
func loadLabDir(dir string) (lk lab.Lock, note string, err error) {
	l, err := lab.Load(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, lab.ErrNoAcquire):
		lk, note = labStarter(), dir+" has no lock yet: a starter, saved there at the first run or ctrl+s"
		// a course may hand out the policy alone
		f, err := lab.ReadLabFile(dir, "lab.json")
		switch {
		case err == nil:
			if lk.Policy, err = lab.ParsePolicy([]byte(f.Text)); err != nil {
				return lk, "", fmt.Errorf("-lab %s: %w", dir, err)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return lk, "", fmt.Errorf("-lab %s: %w", dir, err)
		}
		return lk, note, nil
	case err != nil:
		return lk, "", fmt.Errorf("-lab %s: %w", dir, err)
	}
	if l.Extend.Name == "" {
		l.Extend = lab.Part{Name: lab.PartExtend, Lang: lab.Lua}
	}
	return *l, "", nil
}

// labEntry is the lab's line in the contents: done once every level is
// passed, the count of those passed after its summary.
func (t *Contents) labEntry() entry {
	e := entry{id: "lab", title: "Write your own lock", dive: "the lab", lab: true,
		summary: "write an acquire, a release and an extend; locksim searches every schedule within a bound for one that breaks them"}
	if t.live {
		e.summary = "on an embedded server of its own: your script can name any key, and a read-only probe cannot prove its writes stay in locksim's keys"
	}
	levels, passed := labLevels(), 0
	for _, lv := range levels {
		if t.course.Prog.Levels[lv.ID()] {
			passed++
		}
	}
	e.done = passed == len(levels)
	if pos, ok := t.course.LabPlace(); ok {
		// kept apart from the course's last time (the footer's): the lab
		// opens it again
		e.left = "a story at step " + itoa(int64(pos.Step))
	}
	if passed > 0 && !e.done {
		e.summary = itoa(int64(passed)) + " of " + itoa(int64(len(levels))) + " levels passed · " + e.summary
	}
	return e
}

// selectLab selects the lab's line in the contents.
func (t *Contents) selectLab() {
	for at, it := range t.list().Items() {
		if e, ok := it.(entry); ok && e.lab {
			t.menu.Select(at)
			return
		}
	}
}

// openLabStory puts a story of lab l on screen in the player, at its
// start; the course's player waits aside until the story closes.
func (a *session) openLabStory(l *Lab, place *play.LabPlace) tea.Cmd {
	return a.openLabAt(l, play.Position{Version: play.PositionVersion, Scene: lab.SceneID, Lab: place})
}

// openLabAt opens the lab story pos carries where pos stands, over lab l;
// see openLabStory.
func (a *session) openLabAt(l *Lab, pos play.Position) tea.Cmd {
	s, err := a.course.LabStory(pos)
	if err != nil {
		l.note = oneLine(err)
		return nil
	}
	if !a.labStory {
		a.coursePl = a.pl
		a.openOver(&scenePage{a: a, lab: l})
	}
	old := a.pl
	a.setPlayer(s)
	a.labStory = true
	if old != a.coursePl {
		return a.pl.Start(old.Run) // a story replaced by another: its keys go
	}
	return a.pl.Start(nil)
}

// closeLabStory puts the course's player back and the lab on screen; the
// story's run lets go of its connections once no move runs.
func (a *session) closeLabStory() {
	story := a.pl
	a.pl, a.coursePl, a.labStory = a.coursePl, nil, false
	a.course.LabClosed()
	a.applyKeys()
	a.sizeScene(a.com.Width, a.com.Height)
	story.Run.Close()
}

// labStoryKey handles a key while a story of the lab is on screen: the
// player's keys, except that esc, once nothing else is open, goes back to
// the lab rather than to the contents.
func (a *session) labStoryKey(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyEsc && !a.leaving {
		if _, step := play.Navigate(a.nav(), play.NavDo(play.NavBack)); step == play.ShowContents || step == play.AskLeave || step == play.GoHome {
			if a.pl.Busy {
				a.pl.SetFlash("a move is running: esc again once it is done")
				return nil
			}
			a.closeLabStory()
			return nil
		}
	}
	k := a.com.Keys
	clicker := a.course.Present && (key.Matches(msg, k.Play) || msg.Type == tea.KeyPgDown || msg.String() == "." || msg.String() == " ")
	over := !a.pl.Busy && !a.pl.Asking && a.pl.Snap.Pos >= len(a.pl.Snap.Moves) // a hand-played story has no moves yet
	if (key.Matches(msg, k.Step) || clicker) && over {
		// the course's end of a story would open its next scene
		a.pl.SetFlash("the lab's story has ended · esc goes back to the lab · home replays it")
		if lp := a.pl.LabPlace(); lp != nil && len(lp.Moves) == 0 {
			a.pl.SetFlash("no schedule here: " + labHandMove(lp.Clients) + ", x crashes, p pauses, w waits")
		}
		return nil
	}
	if key.Matches(msg, a.com.Keys.SceneNext) || key.Matches(msg, a.com.Keys.ScenePrev) {
		a.pl.SetFlash("the lab's story has no next scene · esc goes back to the lab")
		return nil
	}
	if key.Matches(msg, a.com.Keys.Ending) {
		// no scene's ending follows a story of the lab: the lab's page
		// says what broke
		a.pl.SetFlash("a story of the lab has no scene's lesson · esc: the lab says what broke")
		return nil
	}
	return a.onKey(msg)
}

// labHandEnd is what a story of the lab played by hand says where a
// story's schedule would end: the learner's move, with the level's own
// count of clients.
func labHandEnd(clients int) string { return "your move: " + labHandMove(clients) }

// labHandMove is how a client moves in a story of the lab played by
// hand, with the level's own count of clients.
func labHandMove(clients int) string {
	return "1-" + itoa(int64(clients)) + " picks a client, enter steps it"
}

// labStoryKeys is the help line of a story of the lab: no scene comes
// before or after it, and esc goes back to the lab; in one played by
// hand, enter steps the client picked, and no schedule steps.
func (a *session) labStoryKeys(short []key.Binding) []key.Binding {
	lp := a.pl.LabPlace()
	hand := lp != nil && len(lp.Moves) == 0
	var out []key.Binding
	for _, b := range short {
		switch k := b.Keys(); {
		case len(k) == 0:
		case k[0] == ">" || k[0] == "<":
			continue
		case k[0] == "esc":
			b.SetHelp("esc", "the lab")
		case hand && k[0] == "right":
			continue
		case hand && k[0] == "1":
			b.SetHelp("1-"+itoa(int64(lp.Clients)), "pick")
			out = append(out, b, a.com.Keys.Move)
			out[len(out)-1].SetHelp("enter", "step it")
			continue
		}
		out = append(out, b)
	}
	return out
}
