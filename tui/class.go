package tui

import (
	"context"
	"slices"
	"time"

	"locksim/sim"

	"locksim/class"
	"locksim/play"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Classroom is a session's place in a class served over SSH: its seat
// (which the roster, the instructor's place and the poll go through),
// and, for the instructor, what students type to join. Nil on a terminal
// of one's own.
type Classroom struct {
	Seat *class.Seat
	// Join is the command students join with, shown on the instructor's
	// class view ("ssh -p 2222 k7m2q@host").
	Join string
	// Web is the page students join from in a browser (-web), shown
	// under Join; "" when the server serves no page.
	Web string
	// Projector is the instructor's link to the class's projector tab
	// (serve.Session.ProjectorLink, /p/TOKEN), shown whole on the class
	// view; "" for a student, or a server with no web page.
	Projector string
	// TabLink, the instructor's alone over SSH, makes a one-time link
	// that opens this class view in a browser tab (serve.Session.TabLink),
	// and how long it opens one for; nil, or "" from it, for none. I on
	// the class view shows one.
	TabLink func() (link string, life time.Duration)
	// Now tells the time the roster's rows are judged online at; nil for
	// time.Now.
	Now func() time.Time
	// Enrolled is the school's roster (-roster FILE), the instructor's
	// alone: the class view lists who has not joined and who matches no
	// row, and m matches a student by hand. Nil for none.
	Enrolled []class.Enrolled
}

// JoinedMsg puts a running app in a class (see JoinClass), or, with Note
// set and no Seat, says why it is not in one ("no class has code k7m2q").
type JoinedMsg struct {
	Class Classroom
	Note  string
}

// ClassMsg carries a class's events to the screen (see Listen), or news
// of the instructor's presence.
type ClassMsg struct {
	Events []class.Event
	// Away, when set, says whether the instructor's session has stopped
	// beating (for class.Gone) or beats again: a class is not held while
	// its instructor is away, so a server or session that died never
	// keeps the followers.
	Away *bool
}

// Listen sends the class's roster, then its events as they come, to send
// (the session's Program.Send), until the watch ends: the session left,
// ctx ended, or the hub failed. It returns that error; run it on a
// goroutine of its own.
func Listen(ctx context.Context, seat *class.Seat, w *class.Watch, send func(tea.Msg)) error {
	roster, err := seat.Roster(ctx)
	if err != nil {
		return err
	}
	var evs []class.Event
	for i := range roster {
		evs = append(evs, class.Event{Kind: class.KindMember, Member: &roster[i]})
	}
	evs = append(evs, class.MatchEvents(roster)...)
	send(ClassMsg{Events: evs})
	for {
		evs, err := w.Next(ctx)
		if err != nil {
			return err
		}
		send(ClassMsg{Events: evs})
	}
}

// classroom is what the app keeps of its class: its part in the class's
// protocol (class.Part, which holds every class state the session has),
// and what the screen draws of it.
type classroom struct {
	Classroom
	part *class.Part
	// shown is the name of the student whose run the instructor shows
	shown string
	// the instructor's: the class view (a page, see deskPage) and the row
	// picked in it
	board *Desk
	pick  int
}

// row is member id's row as last heard; the zero Member for none.
func (c *classroom) row(id string) class.Member {
	m, _ := c.part.Member(id)
	return m
}

func (c *classroom) now() time.Time { return c.part.Now() }

// JoinClass puts the app in the class its seat sits in, as the seat's
// role: a student (who may follow), the instructor (the class view, the
// poll, follow asked for), or a projector (the scene only, following the
// instructor exactly). Call it before the first message.
func (a *session) JoinClass(c Classroom) {
	if old := a.joinClass(c); old != nil {
		old.Close() // never started: no key of it is on the server
	}
}

// joinClass is JoinClass; it returns the run of the scene it replaced when
// it put a returning follower back in the instructor's story (nil when it
// replaced none), for the caller to close, or to clear once started.
func (a *session) joinClass(c Classroom) *sim.Run {
	part := class.NewPart(c.Seat, c.Now)
	a.cls = &classroom{Classroom: c, part: part}
	role := part.Role()
	if role != class.Student {
		// the instructor's questions are for the room: a step at one runs
		// the move, and a story's end goes on with the lesson
		a.course.Present = true
		opt := a.pl.Options()
		opt.Present = true
		a.pl.Configure(opt)
	}
	if role == class.Instructor {
		part.Enrol(c.Enrolled)
		a.cls.board = newDesk(a.com, part.Code(), c.Join, c.Web, c.Projector)
		a.cls.board.tabLink = c.TabLink
		a.cls.board.SetSize(a.com.Width, a.com.Height)
	}
	var old *sim.Run
	if pos, ran, ok := part.Resume(); ok {
		old = a.resumeFollowing(pos, ran)
	}
	a.applyKeys()
	return old
}

// classView is the screen a class draws instead of the app's own: the
// projector's scene with the class's line under it, or the instructor's
// class view. ok is false for the app's own screen.
func (a *session) classView() (v string, ok bool) {
	c := a.cls
	switch {
	case c == nil:
		return "", false
	case c.part.Role() == class.Projector:
		scene := a.pl.View()
		if a.quiz != nil {
			scene = a.quiz.View()
		}
		return scene + "\n" + truncate(a.classLine(), a.com.Width), true
	}
	return "", false
}

// syncDesk hands the instructor's class view the class as it stands;
// contents: the instructor's screen is on the contents (App.offScene).
func (a *session) syncDesk(contents bool) {
	c := a.cls
	if c == nil || c.board == nil || a.pl == nil {
		return
	}
	ss := a.students()
	c.pick = min(c.pick, max(len(ss)-1, 0))
	c.board.SetSize(a.com.Width, a.com.Height)
	lead := a.pl.Position()
	if a.course.Browsing() && a.course.Visiting() == play.NotVisiting {
		lead = play.Position{} // no scene led yet: nothing to poll
	}
	var enrol *class.Enrolment
	if e, ok := c.part.Enrolment(); ok {
		enrol = &e
	}
	notes := a.notesPage()
	if lead.Scene == "" {
		// the scene under the contents is no scene of the class's: its
		// notes and answer key are not the room's yet
		notes = ""
	}
	c.board.sync(deskState{students: ss, pick: c.pick, enrol: enrol, lead: lead, since: c.part.Since(lead), follow: c.part.Asked(), hold: c.part.Holding(),
		contents: contents, notes: notes, now: c.now(), lesson: lessonOf(c.part.AskedOfStudents(), lead.Scene)})
}

// classKeys switches on the class's bindings for the session's role.
func (a *session) classKeys(k *views.KeyMap) {
	if a.cls == nil {
		return
	}
	switch a.cls.part.Role() {
	case class.Student:
		k.Follow.SetEnabled(true)
	case class.Instructor:
		k.Follow.SetEnabled(true)
		k.Follow.SetHelp("F", "ask the class to follow, or stop")
		k.Desk.SetEnabled(true)
	}
}

// classMsg takes the class's events: the instructor's place (which a
// follower goes to) and the roster's rows.
func (a *session) classMsg(msg ClassMsg) tea.Cmd {
	if a.cls == nil {
		return nil
	}
	return a.do(a.cls.part.Heard(msg.Events, msg.Away))
}

// do does on the screen what an operation of the class asks: a note, a
// player that follows or leads itself again, a place to go to.
func (a *session) do(ef class.Effect) tea.Cmd {
	if ef.Unfollowed || ef.Followed {
		opt := a.pl.Options()
		opt.Follow = ef.Followed
		a.pl.Configure(opt)
	}
	if ef.Note != "" {
		a.say(ef.Note)
	}
	if ef.Contents {
		a.toContents()
	}
	if ef.Go != nil {
		return a.goTo(ef.Go.Pos, ef.Go.Visit)
	}
	return nil
}

// toContents brings the instructor's screen to the contents, where
// another session of theirs is (class.Lead.Contents), unless its row is
// on the contents already (App.offScene: the lab opened from the
// contents, say): see App.doAsks.
func (a *session) toContents() { a.asks.contents = true }

// toggleHold is the class view's H: the instructor holds the class
// (asking it to follow, if it was not) or releases it.
func (a *session) toggleHold() {
	if a.cls.part.Holding() {
		a.do(a.cls.part.Release())
		return
	}
	a.do(a.cls.part.Hold())
}

// say is a one-time note on the screen on top: the contents' status
// line, or the scene's flash.
func (a *session) say(note string) { a.asks.note = note }

// goTo brings the screen to pos, as a visit of kind visit (never the
// learner's own place: see play.Course.Visit): at once if no move is
// running, else once it is done (class.Part.Want). A follower's sandbox
// keeps its own seed, prediction and race (class.Visit).
func (a *session) goTo(pos play.Position, visit play.Visit) tea.Cmd {
	if pos.Check() != nil {
		// a place this locksim cannot open (a newer locksim's form or
		// scene, or a lead of a form it does not know): stay, and say so
		a.say(class.UnknownLeadNote)
		return nil
	}
	if a.pl.Busy || a.switchWanted >= 0 {
		a.cls.part.Want(class.Go{Pos: pos, Visit: visit})
		return nil
	}
	exact := visit != play.VisitFollow
	a.cls.part.Wanted()
	a.leaving = false
	a.backToScene()
	// the instructor's class view stays open over a move another session
	// of theirs made: l on a second session is not taken away by the first
	a.asks.keepDesk = a.cls.part.Role() == class.Instructor && visit == play.NotVisiting
	cur := a.pl.Position()
	same := cur.Scene == pos.Scene && sameSettings(cur.Settings, pos.Settings)
	pos = class.Visit(cur, pos, visit, a.seed)
	if (a.course.Visiting() != play.NotVisiting || visit == play.NotVisiting) && same && cur.Seed == pos.Seed && slices.Equal(cur.Own, pos.Own) && (!exact || sameJSON(cur.Race, pos.Race) && sameJSON(cur.Prediction, pos.Prediction)) {
		// the same story, visited already: select and seek in it (the
		// learner's own story is left as it stands, to go back to)
		return a.pl.spinWith(a.pl.GoTo(pos))
	}
	s, err := a.course.Visit(visit, pos, a.pl.Session)
	if err != nil {
		a.pl.SetErr(err.Error())
		return nil
	}
	if a.cls.part.Role() != class.Instructor {
		opt := s.Options()
		opt.Follow = a.cls.part.Following() && !exact
		s.Configure(opt)
	}
	old := a.pl.Run
	a.setPlayer(s)
	return a.pl.Start(old)
}

// classAfter runs after every message: a place waiting for the running
// move is gone to, and the session's row is handed to the class (for the
// instructor, the leader's step). A student out of follow mode whose own
// run stands at the class's open question waits there for the
// instructor's move (class.Part.PollHolds). contents is the row's
// OnContents (App.offScene).
func (a *session) classAfter(contents bool) tea.Cmd {
	c := a.cls
	if c == nil || a.pl == nil || a.pl.Busy {
		return nil
	}
	var cmd tea.Cmd
	if c.part.Wants() && a.switchWanted < 0 {
		g := c.part.Wanted()
		cmd = a.goTo(g.Pos, g.Visit)
		if a.pl.Busy {
			return cmd
		}
	}
	pos := a.pl.Position()
	if c.part.Role() == class.Student && !c.part.Following() {
		// held at the class's poll, an answer waits for the instructor's
		// move as a follower's does
		if hold := c.part.PollHolds(pos); a.pl.Options().Follow != hold {
			opt := a.pl.Options()
			opt.Follow = hold
			a.pl.Configure(opt)
		}
	}
	c.part.Report(class.Member{Pos: pos, Actual: a.pl.Actual, Revealed: a.ran(), Prog: a.course.Prog, OnContents: contents})
	return cmd
}

// ran reports that the session's own run has made the move its question
// comes before, so Actual is what its replies answered.
func (a *session) ran() bool {
	p := a.pl
	if p.Scene.Predict == nil || (p.Guess < 0 && !p.Passed) {
		return false
	}
	at := p.QuestionAt()
	return at >= 0 && p.Snap.Pos > at
}

// classKey turns the class's keys into the class's operations before the
// scene has them: the follow key, the instructor's class view, and the
// keys that would move the story away from the instructor's place or
// past the class's open question. done is set when the key was the
// class's.
func (a *App) classKey(msg tea.KeyMsg) (cmd tea.Cmd, done bool) {
	c := a.cls
	if c == nil {
		return nil, false
	}
	c.part.Key()
	k := a.com.Keys
	role := c.part.Role()
	// the class view stands in for a scene (and the pages over it): over
	// the contents, the lab or the trials its keys are theirs
	top := a.pages.top()
	scene := (isScene(top) || isOver(top) || isDesk(top)) && !a.labStory
	switch {
	case key.Matches(msg, k.Quit):
		return nil, false
	case role == class.Projector:
		return nil, true // the projector shows the instructor's screen: nothing moves it
	case key.Matches(msg, k.Follow) && role == class.Instructor:
		return a.do(c.part.AskFollow()), true
	case key.Matches(msg, k.Follow):
		return a.do(c.part.Follow()), true
	case key.Matches(msg, k.Desk) && !scene && a.onContents():
		// the class can be watched arriving before a scene is led
		a.pl.SetFlash("") // the scene's one-time note went with this key
		a.openOver(&deskPage{a.session})
		return nil, true
	case key.Matches(msg, k.Desk) && !scene:
		a.pl.SetFlash("the class view opens from a scene or the contents: esc first")
		return nil, true
	case key.Matches(msg, k.Desk) && isDesk(top):
		return nil, false // the class view's: l closes it
	case key.Matches(msg, k.Desk):
		a.pl.SetFlash("") // the scene's one-time note went with this key
		a.openOver(&deskPage{a.session})
		return nil, true
	case !scene:
	case key.Matches(msg, glossaryKey) && isOver(top):
		// the glossary over a page over the scene, not the scene's setting g
	default:
		if a.movesAway(msg) {
			if note, ok := c.part.MoveAway(); !ok {
				if note != "" {
					a.pl.SetFlash(note)
				}
				return nil, true
			}
		}
		if !a.stepsOn(msg) {
			break
		}
		if note, ok := c.part.StepPast(a.pl.Position()); !ok {
			a.pl.SetFlash(note)
			return nil, true
		}
		if note, ok := c.part.Reveal(a.pl.Position(), a.pl.Asking); !ok {
			a.pl.SetFlash(note)
			return nil, true
		}
	}
	return nil, false
}

// stepsOn reports a key that runs the story's next move: a step, play,
// the clicker's page down or its period.
func (a *App) stepsOn(msg tea.KeyMsg) bool {
	k := a.com.Keys
	return key.Matches(msg, k.Step) || key.Matches(msg, k.Play) || msg.Type == tea.KeyPgDown || msg.String() == "."
}

// movesAway reports a key that would take a follower's story away from
// the instructor's place: a step, a setting, an own move, another scene.
func (a *App) movesAway(msg tea.KeyMsg) bool {
	k := a.com.Keys
	for _, b := range []key.Binding{k.Play, k.Step, k.Back, k.Home, k.Replay, k.Move, k.Crash, k.Pause, k.Wait,
		k.SceneNext, k.ScenePrev, k.Stop, k.Cut, k.Slow, k.Jump, k.Hang, k.Defaults, k.Trials, k.Node} {
		if key.Matches(msg, b) {
			return true
		}
	}
	for _, kb := range a.knobBindings() {
		if key.Matches(msg, kb) {
			return true
		}
	}
	// esc closes the notes, the keys page and the story page (but not the
	// history page) without leaving the place
	_, help := a.pages.top().(*helpPage)
	_, about := a.pages.top().(*aboutPage)
	return msg.Type == tea.KeyEsc && !a.pl.notes && !help && !about
}

// offScene reports the session's row on the contents (class.Member's
// OnContents): the contents open, or, before the learner opened a scene,
// the lab or another page over the scene under them, nobody's place.
func (a *App) offScene() bool {
	return a.contentsOpen() || a.course.Browsing() && a.course.Visiting() == play.NotVisiting
}

// toContents puts the contents over the scene, the pages over it closed
// but the class view, which stays on top (as over a move, see goTo); a
// place kept for after the running move is dropped. It is the
// instructor's session following another session of theirs to the
// contents (see session.toContents).
func (a *App) toContents() tea.Cmd {
	if a.cls != nil {
		a.cls.part.Wanted()
	}
	a.leaving = false
	var desk Component
	if top := a.pages.top(); isDesk(top) {
		desk, a.pages = top, a.pages[:len(a.pages)-1]
	}
	a.pages.closeAt(a.pages.find(isScene) + 1)
	a.toc.refreshMenu()
	a.toc.selectScene(a.course.At)
	cmd := a.openPage(a.toc)
	if desk != nil {
		a.pages.push(desk)
	}
	return cmd
}
