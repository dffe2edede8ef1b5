package tui

import (
	"context"
	"fmt"
	"sync"
	"time"

	"locksim/class"
	"locksim/lab"
	"locksim/play"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// session is what the pages of one screen share, as soft-serve's
// components share their common.Common, beyond the styles and size in
// Common: the course and the learner's way through it, the player on
// screen, the class, the backend. The scene's keys act on it; it asks for
// pages to open or close through asks, which the app carries out once the
// message is handled (see doAsks). It never sees the stack.
type session struct {
	ctx    context.Context
	cancel context.CancelFunc
	b      *sim.Backend
	seed   uint64
	pl     *Player
	// quiz is the quiz page when the scene is a quiz (it draws pl's
	// session), nil otherwise
	quiz *Quiz
	ops  *sync.WaitGroup
	// course is the learner's way through the course: the scenes, the
	// lesson, each scene's last place, the progress; the app draws it
	course *play.Course
	// switchWanted is a scene asked for (by its index) while a move ran;
	// -1 for none. Keys typed after it wait in afterSwitch for the new scene.
	switchWanted int
	afterSwitch  []tea.KeyMsg
	// sizeAsks is how many times the terminal was asked its size again
	// since it gave 0x0 (unknownSize)
	sizeAsks int

	// com is the session's screen-wide part: styles, keys, size, export
	com  *Common
	help help.Model
	// fits is what fitKeys kept, for the help line drawn by fitsFor
	fits    map[string][]key.Binding
	fitsFor *lipgloss.Renderer
	// interrupted is set when ctrl+c ended the program
	interrupted bool
	// down is set once the server stopped answering; cleared by home
	down bool
	// retrying is set while a healthRetry is on its way
	retrying bool

	// toc is the contents, a page opened over the scene; nil without a
	// course (NewApp alone)
	toc *Contents
	// laidOut is set while the player's layout is that of the frame on
	// screen (see settle)
	laidOut bool
	// saveRunning is set while a command saves the progress (see saving)
	saveRunning bool

	// asks is what the message being handled asked of the stack
	asks pageAsk
	// lastTrials is the race's trials last opened, whose anomalies o shows
	// once the page is closed
	lastTrials *Trials
	// labDir is -lab DIR, labOwn the learner's own lock as last left in
	// the lab's editor
	labDir string
	labOwn lab.Lock
	// labStory is set while a story of the lab is on screen (a break the
	// adversary found, or a lock to break by hand): pl is its player, and
	// coursePl the course's, put back when the story closes (the course
	// opens the story on the lab's own server: play.Course.LabStory).
	labStory bool
	coursePl *Player
	// labAt is a lab story's position to open at start (Options.Position)
	labAt *play.Position
	// labResumed is set once the lab's story saved last time has been
	// offered back (see openLab)
	labResumed bool

	// the lesson's class clock, the speaker-notes file (-notes) and what
	// it last got, and a presenter's esc waiting for its confirmation
	clock      func() time.Time
	started    time.Time
	notesPath  string
	notesShown string
	leaving    bool

	// cls is the session's class when served over SSH (see JoinClass),
	// nil otherwise
	cls *classroom
}

// closeRuns lets go of the session's runs once no move is in flight: the
// player's, the course's under a story of the lab, the lab's server.
func (a *session) closeRuns(ctx context.Context) {
	a.pl.Run.Close() // the keys go with the backend's Close
	if a.coursePl != nil {
		a.coursePl.Run.Close()
	}
	_ = a.course.Close(ctx) // the lab's server
}

// quit ends the program; interrupted says ctrl+c did.
func (a *session) quit(interrupted bool) tea.Cmd {
	a.interrupted = a.interrupted || interrupted
	a.cancel()
	return tea.Quit
}

// Interrupted reports that ctrl+c ended the program.
func (a *session) Interrupted() bool { return a.interrupted }

// watchHealth turns the heartbeat's reading into the banner: the server
// unreachable (and for how long); once it is back, a replay of the story
// to where the learner was, without a key press.
func (a *session) watchHealth() tea.Cmd {
	h := a.b.Health()
	a.pl.serverDown = h.Err != nil
	switch {
	case h.Err != nil:
		a.down = true
		a.pl.banner = "server unreachable, retrying… · the keys shown are the last read"
		if s := int(a.clock().Sub(h.Since).Seconds()); s > 0 {
			a.pl.banner = fmt.Sprintf("server unreachable for %d s, retrying… · the keys shown are the last read", s)
		}
		return nil
	case a.down || h.Lapsed:
		// back, or awake after the heartbeat lapsed: the server may have lost
		// the run's keys (a restart without persistence, or other runs swept
		// them), so the story is replayed to where the learner was, once no
		// move is running
		a.pl.banner = ""
		if a.pl.Busy {
			return nil
		}
		a.down = false
		a.pl.SetFlash("the server is back: the story is replayed to where you were")
		if a.b.TakeLapse() {
			// the heartbeat was gone: a restart without persistence, or a sleep
			// long enough for other runs to sweep this one's keys
			a.pl.SetFlash("the server is back, without this run's keys: the story is replayed to where you were")
		}
		return a.pl.replayHere()
	}
	a.pl.banner = ""
	return nil
}

// sceneMsg takes a message of the session's work (a move done, a
// read-back, the spinner's tick): the player's, and the course's player's
// under a story of the lab. A scene asked for while a move ran opens once
// it is done, with the keys typed since.
func (a *session) sceneMsg(msg tea.Msg) tea.Cmd {
	cmd := a.pl.Update(msg)
	if a.labStory && a.coursePl != nil {
		// the course's scene, under the lab's story, still gets its own
		// messages (a move that was running, a read-back)
		cmd = tea.Batch(cmd, a.coursePl.Update(msg))
	}
	if _, ok := msg.(play.RunMsg); ok && !a.labStory {
		a.course.NoteDone(a.pl.Session)
	}
	if a.switchWanted >= 0 && !a.pl.Busy {
		i, typed := a.switchWanted, a.afterSwitch
		a.switchWanted, a.afterSwitch = -1, nil
		cmds := []tea.Cmd{a.switchTo(i)}
		for _, k := range typed {
			cmds = append(cmds, a.onKey(k))
		}
		return tea.Batch(cmds...)
	}
	return cmd
}

// backToScene asks for every page over the scene to close (see doAsks).
func (a *session) backToScene() { a.asks.close = true }

// openOver asks for page c to open on top (see doAsks).
func (a *session) openOver(c Component) { a.asks.open = append(a.asks.open, c) }

// nav is the app's state as Navigate sees it.
func (a *session) nav() play.Nav {
	n := a.course.Nav(a.pl.Session)
	// the scene's keys ask: the contents are not on screen, and a page over
	// the scene takes its esc itself (see over)
	n.Page, n.Course, n.Leaving = a.pl.notes, a.toc != nil, a.leaving
	// a story of the lab goes back to the lab
	n.Visiting = n.Visiting && !a.labStory && a.toc != nil
	return n
}

// navigate carries out what Navigate says of the input.
func (a *session) navigate(in play.NavAction) tea.Cmd {
	n, step := play.Navigate(a.nav(), in)
	a.leaving = n.Leaving
	switch step {
	case play.AskLeave:
		a.pl.SetFlash("leave " + a.pl.Scene.ID + " for the contents? esc again or y leaves · any other key stays")
	case play.CancelReplay:
		a.pl.Cancel()
		a.pl.SetFlash("replay cancelled: the story starts again from the top")
	case play.LetGo:
		a.pl.Deselect() // the readout follows the story again
	case play.ClosePage:
		a.pl.notes = false
		a.backToScene()
	case play.ShowContents:
		a.toc.refreshMenu()
		a.toc.selectScene(a.course.At)
		a.openOver(a.toc)
	case play.OpenScene:
		a.backToScene()
		return a.switchTo(n.Scene)
	case play.GoHome:
		return a.goHome()
	case play.PastLesson:
		if in.Verb == play.NavPrev {
			a.pl.SetFlash("the first scene of the lesson · esc for the contents, q to quit")
		} else {
			a.pl.SetFlash("the end of the lesson · esc for the contents, q to quit")
		}
	}
	return nil
}

// goHome leaves a visit for the learner's own place as it was before it
// (play.Course.Home), or for the contents when the visit left none.
func (a *session) goHome() tea.Cmd {
	if a.pl.Busy {
		a.pl.SetFlash("a move is running: esc again once it is done")
		return nil
	}
	s, err := a.course.Home(a.pl.Session)
	if err != nil {
		a.pl.SetErr(err.Error())
		return nil
	}
	if a.cls != nil {
		a.cls.shown = ""
		a.cls.part.Wanted() // a place kept for after the running move is dropped
	}
	a.backToScene()
	if s == nil {
		a.toc.refreshMenu()
		a.toc.selectScene(a.course.At)
		a.toc.notice = "back from the visit: nothing of it was saved as your place"
		a.openOver(a.toc)
		return nil
	}
	old := a.pl.Run
	a.setPlayer(s)
	a.pl.SetFlash("back to your own place")
	return a.pl.Start(old)
}

// switchTo opens scene i (wrapping around), after the running move if any.
func (a *session) switchTo(i int) tea.Cmd {
	i = (i + len(a.course.Scenes)) % len(a.course.Scenes)
	if a.pl.Busy {
		a.switchWanted = i // switched to once the move is done
		return nil
	}
	if i == a.course.At && a.course.Visiting() == play.NotVisiting && !a.course.Browsing() {
		return nil // on screen already; a visit's scene, or the one under the contents, opens as the learner's own
	}
	s, err := a.course.Open(i, a.pl.Session)
	if err != nil {
		a.pl.SetErr(err.Error())
		return nil
	}
	old := a.pl.Run
	a.setPlayer(s)
	a.backToScene()
	return a.pl.Start(old)
}

// setPlayer puts session s on screen: its player (and quiz page, for a
// quiz) at the screen's size, and the keys that mean something in it.
func (a *session) setPlayer(s *play.Session) {
	a.pl = newPlayer(s, a.com)
	a.asks.scene = true // the scene's page for its kind
	a.pl.role = a.role()
	a.pl.endLine, a.pl.storyEnd = a.endLine, a.storyEnd
	a.quiz = play.Show(s, func() *Quiz { return nil }, func(*play.QuizState) *Quiz { return newQuiz(a.pl) })
	a.sizeScene(a.com.Width, a.com.Height)
	a.applyKeys()
}

// sizeScene sets the size the scene draws at: its player's, and its quiz
// page's.
func (a *session) sizeScene(w, h int) {
	a.pl.SetSize(w, h)
	if a.quiz != nil {
		a.quiz.SetSize(w, h)
	}
}

// role is who reads this session's screen, for the disclosure rule.
func (a *session) role() play.Role {
	switch {
	case a.cls != nil && a.cls.part.Role() == class.Instructor:
		return play.Instructor
	case a.cls != nil && a.cls.part.Role() == class.Projector, a.course.Present:
		return play.Projector
	case a.cls != nil && a.cls.part.Following():
		return play.Follower
	}
	return play.Learner
}

// sceneView draws the scene page: the class's view of it, the scene with
// the page over it, or the scene.
func (a *session) sceneView() string {
	if v, ok := a.classView(); ok {
		return v
	}
	return a.pl.View() + "\n" + a.footer()
}

// quizView draws the quiz page: the class's view of it, or the situation
// on screen with the help line under it.
func (a *session) quizView() string {
	if v, ok := a.classView(); ok {
		return v
	}
	return a.quiz.View() + "\n" + a.footer()
}

// overView draws a page over the scene (the keys, the story, the history)
// under the scene's header, with the scene's help line: its keys that act
// on the scene still do. A class's view stands in for it as for the scene.
func (a *session) overView(title, page string) string {
	if v, ok := a.classView(); ok {
		return v
	}
	st, w, h := a.com.Styles, a.com.Width, a.com.Height
	return a.pl.header(st, w) + "\n" + views.Rule(st, title, w) + "\n" + fitRows(page, h-3) + "\n" + a.footer()
}

// ownView is overView for a page whose keys are its own, not the
// scene's (the keys page): its help line lists them, or says note.
func (a *session) ownView(title, page string, keys []key.Binding, note string) string {
	if v, ok := a.classView(); ok {
		return v
	}
	st, w, h := a.com.Styles, a.com.Width, a.com.Height
	line := a.classFooter(truncate(views.OneLine(st.Dim, views.HelpLine(keys)), w))
	if note != "" {
		line = a.classFooter(truncate(views.OneLine(st.Warn, note), w))
	}
	return a.pl.header(st, w) + "\n" + views.Rule(st, title, w) + "\n" + fitRows(page, h-3) + "\n" + line
}

// layout brings the player's layout to the frame on screen (see settle).
func (a *session) layout() {
	if a.laidOut || a.com.Width < MinWidth || a.com.Height < MinHeight || a.pl == nil {
		return
	}
	// a quiz keeps the layout of the last scene frame
	if a.quiz == nil {
		a.pl.measure()
	}
	a.laidOut = true
}

// footer is the scene frame's help line: the scene page's keys (the
// answers while a question waits), or presenter mode's, or the line a
// class or a visit puts in its place.
func (a *session) footer() string {
	keys := a.sceneShort()
	helpLine := truncate(a.help.ShortHelpView(keys), a.com.Width)
	switch {
	case a.pl.Asking && !a.course.Present:
		helpLine = truncate(views.OneLine(a.com.Styles.Dim, views.HelpLine(keys)), a.com.Width)
	case a.course.Present:
		helpLine = truncate(views.OneLine(a.com.Styles.Dim, a.presenterFooter()), a.com.Width)
	}
	return a.classFooter(helpLine)
}

// classFooter is helpLine, or the line a class or a visit puts in its
// place.
func (a *session) classFooter(helpLine string) string {
	line := a.classLine()
	if v := a.visitLine(); v != "" && (a.cls == nil || !a.cls.part.Following() && !a.cls.part.OutOfTouch()) {
		line = v // a follower's line says how to leave follow mode first
	}
	if line != "" {
		helpLine = truncate(line, a.com.Width)
	}
	return helpLine
}

// Selected returns the selected actor's index in the current scene (-1 for
// none); tests use it.
func (a *session) Selected() int { return a.pl.Sel }

// sceneMouse is the mouse over the scene: the wheel scrolls the log, a
// card under the pointer is selected. A projector's takes none.
func (a *session) sceneMouse(msg tea.MouseMsg) tea.Cmd {
	if a.projecting() {
		return nil
	}
	a.layout()
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		a.pl.scrollLog(1)
		return nil
	case tea.MouseButtonWheelDown:
		a.pl.scrollLog(-1)
		return nil
	}
	if msg.Action == tea.MouseActionMotion || msg.Action == tea.MouseActionPress {
		if i := views.ZoneAt(a.pl.zones, msg.X, msg.Y); i >= 0 {
			a.pl.Select(i)
		}
	}
	return nil
}

// openTrial opens a trial of the race's trials as a story of the race
// scene, through the course (a position that carries the trial), so that
// a code, a follower and a resume open it too.
func (a *session) openTrial(rec play.TrialRecord) tea.Cmd {
	a.backToScene() // the trials page closes
	if a.pl.Busy {
		a.pl.SetFlash("wait for the move to finish, then show the trial again")
		return nil
	}
	pos := play.Position{Version: play.PositionVersion, Scene: "race", Seed: a.seed, Trial: &rec}
	s, err := a.course.OpenAt(pos, a.pl.Session)
	if err != nil {
		a.pl.SetFlash(err.Error())
		return nil
	}
	old := a.pl.Run
	a.setPlayer(s)
	a.backToScene()
	a.pl.SetFlash(fmt.Sprintf("trial %d of %s: %s · → steps through it, v checks it, r goes back to the race",
		rec.Trial, rec.Variant, rec.Anomaly))
	return a.pl.Start(old)
}

// showOne is o in the race scene: the smallest trial of the kind picked
// on the trials page last closed, opened as a story.
func (a *session) showOne() tea.Cmd {
	if a.lastTrials == nil {
		a.pl.SetFlash("t runs the trials first; o then shows the smallest trial of the anomaly picked there")
		return nil
	}
	if cmd := a.lastTrials.showOne(); cmd != nil {
		return cmd
	}
	a.pl.SetFlash(a.lastTrials.note)
	return nil
}
