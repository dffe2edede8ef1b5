package tui

import (
	"context"
	"encoding/json"
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
	// Now tells the time the roster's rows are judged online at; nil for
	// time.Now.
	Now func() time.Time
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
	send(ClassMsg{Events: evs})
	for {
		evs, err := w.Next(ctx)
		if err != nil {
			return err
		}
		send(ClassMsg{Events: evs})
	}
}

// classroom is what the app keeps of its class.
type classroom struct {
	Classroom
	role class.Role
	code string
	// lead is the instructor's place as last heard; asked is set while the
	// instructor asks the class to follow
	lead  *class.Lead
	asked bool
	// following: a student replays to the instructor's place (a projector
	// always does)
	following bool
	// wanted is a place to go once the running move is done, as a visit
	// of kind visit (see goTo)
	wanted *play.Position
	visit  play.Visit
	// shown is the name of the student whose run the instructor shows
	shown  string
	roster map[string]class.Member
	// reported and led are the row and the place last handed to the seat
	reported, led string
	// the instructor's: the class view (a page, see deskPage), the row
	// picked in it, the class asked to follow
	board  *Desk
	pick   int
	follow bool
	// warned is the step at which the instructor was told how many have
	// answered, and that count: a second step there, with no new answer
	// since, runs the move (see runsTooSoon)
	warned      int
	warnedCount int
	// place is the instructor's place as the class view last saw it (see
	// placeOf), placeSince when it got there: an open question's time
	place      string
	placeSince time.Time
	// hold is set while the instructor holds the class (see Lead.Hold):
	// the instructor's to put, a student's as last heard; away while the
	// instructor's session is away (see ClassMsg.Away)
	hold, away bool
	// refused is set when a held student's key was refused, until the
	// next key: the class's line says why, where a flash would take the
	// place of the story's own verdict and ⚠ lines
	refused bool
}

// held reports a student held on the instructor's place: the class is
// held, the student follows, and the instructor is there.
func (c *classroom) held() bool {
	return c.role == class.Student && c.following && c.hold && !c.away
}

func (c *classroom) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

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
	m := c.Seat.Member()
	a.cls = &classroom{Classroom: c, role: m.Role, code: c.Seat.Info().Code, roster: map[string]class.Member{}, pick: 0}
	a.cls.following = m.Role == class.Projector
	if m.Role != class.Student {
		// the instructor's questions are for the room: a step at one runs
		// the move, and a story's end goes on with the lesson
		a.course.Present = true
		opt := a.pl.Options()
		opt.Present = true
		a.pl.Configure(opt)
	}
	if m.Role == class.Instructor {
		a.cls.board = newDesk(a.com, a.cls.code, c.Join, c.Web, c.Projector)
		a.cls.board.SetSize(a.com.Width, a.com.Height)
	}
	var old *sim.Run
	if before, ok := c.Seat.Before(); ok && m.Role == class.Student && before.Following && !before.OnContents && before.Pos.Scene != "" {
		old = a.resumeFollowing(before.Pos, before.Revealed)
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
	case c.role == class.Projector:
		scene := a.pl.View()
		if a.quiz != nil {
			scene = a.quiz.View()
		}
		return scene + "\n" + truncate(a.classLine(), a.com.Width), true
	}
	return "", false
}

// syncDesk hands the instructor's class view the class as it stands.
func (a *session) syncDesk() {
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
	// the place's time: since the instructor's scene, settings or step
	// last changed, by the class's clock
	if place := placeOf(lead); place != c.place {
		c.place, c.placeSince = place, c.now()
	}
	c.board.sync(deskState{students: ss, pick: c.pick, lead: lead, since: c.placeSince, follow: c.follow, hold: c.hold,
		notes: a.notesPage(), now: c.now(), lesson: lessonOf(class.AskedOf(ss), lead.Scene)})
}

// placeOf names a position's scene, settings and step, to tell when the
// instructor's place changed.
func placeOf(p play.Position) string {
	set := map[string]int{}
	for k, v := range p.Settings {
		if v != 0 { // a setting left out is its first value
			set[k] = v
		}
	}
	data, _ := json.Marshal(struct {
		Scene    string
		Settings map[string]int
		Step     int
	}{p.Scene, set, p.Step})
	return string(data)
}

// classKeys switches on the class's bindings for the session's role.
func (a *session) classKeys(k *views.KeyMap) {
	if a.cls == nil {
		return
	}
	switch a.cls.role {
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
	if msg.Away != nil {
		a.cls.away = *msg.Away
	}
	var cmd tea.Cmd
	for _, e := range msg.Events {
		switch {
		case e.Kind == class.KindMember && e.Member != nil:
			a.cls.roster[e.Member.ID] = *e.Member
		case e.Kind == class.KindLead && e.Lead != nil:
			if a.cls.lead != nil && a.cls.lead.Seq > e.Lead.Seq {
				continue
			}
			cmd = a.heardLead(*e.Lead, e.Lost)
		}
	}
	return cmd
}

// heardLead is the instructor's new place: a follower goes there; a
// student is told when the instructor asks the class to follow, and let
// go when the instructor stops asking; every session of the instructor
// redraws from it (one leader per class), and says so when its own move
// lost the race to it.
func (a *session) heardLead(l class.Lead, lost bool) tea.Cmd {
	c := a.cls
	seen := c.lead != nil
	c.lead = &l
	switch c.role {
	case class.Instructor:
		if l.By == c.Seat.ID() && !lost {
			return nil // this session's own move, back from the class
		}
		c.follow, c.hold = l.Follow, l.Hold
		if data, err := json.Marshal(class.Lead{Pos: l.Pos, Follow: l.Follow, Hold: l.Hold}); err == nil {
			c.led = string(data)
		}
		if lost && seen {
			a.say("your move lost the race: another session of yours moved the class first · this is the class's place now")
		}
		return a.goTo(l.Pos, play.NotVisiting)
	case class.Projector:
		return a.goTo(l.Pos, play.VisitProject)
	case class.Student:
		held := l.Hold && l.Follow
		switch {
		case held && !c.hold && !c.following:
			a.say("the instructor holds the class · F follows, until they release it")
		case l.Follow && !c.asked && !c.following:
			a.say("the instructor asks the class to follow · F follows")
		case !l.Follow && c.following:
			a.unfollow("the instructor stopped leading · esc goes back to your own place")
		case held && !c.hold && c.following:
			// no flash: it would stand in the verdict's and the ⚠'s
			// place until the next key; the class's line says the class
			// is held
		case !held && c.hold && c.following:
			a.say("the instructor released the class · F leaves follow mode")
		}
		c.asked, c.hold = l.Follow, held
		if c.following {
			return a.goTo(l.Pos, play.VisitFollow)
		}
	}
	return nil
}

// toggleFollow is the Follow key: a student follows the instructor (to
// their place at once) or leaves follow mode; the instructor asks the
// class to follow or stops asking.
func (a *session) toggleFollow() tea.Cmd {
	c := a.cls
	switch c.role {
	case class.Instructor:
		c.follow = !c.follow
		if c.follow {
			a.say("the class is asked to follow: students who accept see your scene, settings and step")
		} else {
			c.hold = false // a class not asked to follow is held by nothing
			a.say("the class is no longer asked to follow")
		}
	case class.Student:
		if c.held() {
			c.refused = true
			return nil
		}
		if c.following {
			a.unfollow("you left follow mode: this is still the instructor's place · esc goes back to your own · F follows again")
			return nil
		}
		if c.lead == nil {
			a.say("the instructor has not opened a scene yet")
			return nil
		}
		c.following = true
		opt := a.pl.Options()
		opt.Follow = true
		a.pl.Configure(opt)
		return a.goTo(c.lead.Pos, play.VisitFollow)
	}
	return nil
}

// toggleHold is the class view's H: the instructor holds the class
// (asking it to follow, if it was not) or releases it.
func (a *session) toggleHold() {
	c := a.cls
	c.hold = !c.hold
	if c.hold {
		c.follow = true
		a.say("the class is held: followers stay on your place until H in the class view releases it")
	} else {
		a.say("the class is released: followers may leave follow mode again")
	}
}

// say is a one-time note on the screen on top: the contents' status
// line, or the scene's flash.
func (a *session) say(note string) { a.asks.note = note }

// unfollow leaves follow mode with a note.
func (a *session) unfollow(note string) {
	a.cls.following, a.cls.wanted = false, nil
	opt := a.pl.Options()
	opt.Follow = false
	a.pl.Configure(opt)
	a.say(note)
}

// goTo brings the screen to pos, as a visit of kind visit (never the
// learner's own place: see play.Course.Visit): at once if no move is
// running, else once it is done. A follower's sandbox (VisitFollow) keeps
// its own seed (its tokens differ), its own prediction and races its own
// race; the other kinds take pos whole (a projector; a student's run the
// instructor shows).
func (a *session) goTo(pos play.Position, visit play.Visit) tea.Cmd {
	if pos.Check() != nil {
		return nil // a place this locksim cannot open: stay
	}
	if a.pl.Busy || a.switchWanted >= 0 {
		a.cls.wanted, a.cls.visit = &pos, visit
		return nil
	}
	exact := visit != play.VisitFollow
	a.cls.wanted = nil
	a.leaving = false
	a.backToScene()
	cur := a.pl.Position()
	same := cur.Scene == pos.Scene && sameSettings(cur.Settings, pos.Settings)
	if !exact {
		pos.Seed, pos.Race, pos.Prediction = cur.Seed, nil, nil
		if same {
			pos.Prediction = cur.Prediction
		} else {
			pos.Seed = a.seed
		}
		if pos.Quiz != nil {
			pos.Quiz = &play.QuizPlace{At: pos.Quiz.At}
		}
	}
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
	if a.cls.role != class.Instructor {
		opt := s.Options()
		opt.Follow = a.cls.following && !exact
		s.Configure(opt)
	}
	old := a.pl.Run
	a.setPlayer(s)
	return a.pl.Start(old)
}

// classAfter runs after every message: a place waiting for the running
// move is gone to, and what changed is handed to the seat (the row; the
// instructor's place).
func (a *session) classAfter(contents bool) tea.Cmd {
	c := a.cls
	if c == nil || a.pl == nil || a.pl.Busy {
		return nil
	}
	var cmd tea.Cmd
	if c.wanted != nil && a.switchWanted < 0 {
		cmd = a.goTo(*c.wanted, c.visit)
		if a.pl.Busy {
			return cmd
		}
	}
	row := class.Member{Pos: a.pl.Position(), Actual: a.pl.Actual, Revealed: a.ran(), Following: c.following, Prog: a.course.Prog,
		OnContents: contents || a.course.Browsing() && a.course.Visiting() == play.NotVisiting}
	if data, err := json.Marshal(row); err == nil && string(data) != c.reported {
		c.reported = string(data)
		c.Seat.Report(row)
	}
	if c.role == class.Instructor {
		l := class.Lead{Pos: row.Pos, Follow: c.follow, Hold: c.hold && c.follow}
		if data, err := json.Marshal(l); err == nil && string(data) != c.led {
			c.led = string(data)
			// a move from the place this session shows: a compare-and-set
			// on its version
			if c.lead != nil {
				l.Version = c.lead.Version
			}
			c.Seat.Lead(l)
		}
	}
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

// classKey handles the class's keys before the scene's: the follow key,
// the instructor's class view, and, while following, the keys that would
// move the story away from the instructor's place. done is set when the
// key was the class's.
func (a *App) classKey(msg tea.KeyMsg) (cmd tea.Cmd, done bool) {
	c := a.cls
	if c == nil {
		return nil, false
	}
	if c.Seat != nil && c.role != class.Projector {
		c.Seat.Key() // the roster's time since the last key
	}
	c.refused = false // the note of a refused key lasts until the next
	k := a.com.Keys
	// the class view stands in for a scene (and the pages over it): over
	// the contents, the lab or the trials its keys are theirs
	top := a.pages.top()
	scene := (isScene(top) || isOver(top) || isDesk(top)) && !a.labStory
	switch {
	case key.Matches(msg, k.Quit):
		return nil, false
	case c.role == class.Projector:
		return nil, true // the projector shows the instructor's screen: nothing moves it
	case key.Matches(msg, k.Follow):
		return a.toggleFollow(), true
	case key.Matches(msg, k.Desk) && !scene && a.onContents():
		// the class can be watched arriving before a scene is led
		a.openOver(&deskPage{a.session})
		return nil, true
	case key.Matches(msg, k.Desk) && !scene:
		a.pl.SetFlash("the class view opens from a scene or the contents: esc first")
		return nil, true
	case key.Matches(msg, k.Desk) && isDesk(top):
		return nil, false // the class view's: l closes it
	case key.Matches(msg, k.Desk):
		a.openOver(&deskPage{a.session})
		return nil, true
	case !scene:
	case key.Matches(msg, glossaryKey) && isOver(top):
		// the glossary over a page over the scene, not the scene's setting g
	case c.held() && a.movesAway(msg):
		c.refused = true
		return nil, true
	case c.following && a.movesAway(msg):
		a.pl.SetFlash("you are following the instructor · F leaves follow mode")
		return nil, true
	case c.role == class.Instructor && a.runsTooSoon(msg):
		return nil, true
	}
	return nil, false
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
