package play

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"locksim/scenes"
	"locksim/scenes/progress"
	"locksim/sim"
)

// Course is one learner's way through the course, with no drawing: the
// scenes in order, the one open, the lesson's playlist (-scenes), each
// scene as the learner left it, and the progress kept in a Store
// (predictions, quiz scores, scenes played to the end, where the learner
// was last). It opens each scene's Session; a screen draws them and a
// driver (Driver) can walk them headless.
type Course struct {
	// Scenes are the course's scenes in order (scenes.All).
	Scenes []*scenes.Scene
	// At is the index in Scenes of the open (or last open) scene.
	At int
	// Playlist is the lesson (-scenes): course indices in the order a step
	// past the end of each goes through them; nil for the whole course.
	Playlist []int
	// Quiz is set when the course asks the predictions (off with -no-quiz).
	Quiz bool
	// Present is presenter mode: a step past the end of a story opens
	// what comes next in the lesson.
	Present bool
	// Prog is the learner's progress, as loaded and since recorded.
	Prog progress.Progress

	store   Store
	left    map[string]Left
	unsaved bool // Prog changed since TakeSave last took it

	// visit is why the session on screen is not the learner's own place
	// (NotVisiting when it is); home is the course index of the learner's
	// own scene left for the visit, its place kept in left, or -1 when the
	// visit began with nothing of the learner's own on screen (the saved
	// place, as the store holds it, is then theirs)
	visit Visit
	home  int
	// browsing: the session on screen is the one under the contents
	// before the learner opened a scene (Browse), nobody's place
	browsing bool
	// inLab: a story of the learner's own lab stands over the course's
	// session (LabStory, until LabClosed); it is the learner's place on
	// screen, and the course's session under it keeps what it was
	inLab bool

	ctx context.Context
	b   *sim.Backend
	// labB is the lab's own embedded server, opened at its first story:
	// the course's server (embedded or live) keeps the course's scene as
	// it was, and a learner's script never runs on a live one
	labB   *sim.Backend
	seed   uint64
	ops    *sync.WaitGroup
	nextID int // numbers sessions, so a closed scene's late messages are dropped
}

// Left is a scene as the learner left it: its position, and a quiz's
// answers and the situation on screen.
type Left struct {
	Pos  Position
	Quiz *QuizState
}

// NewCourse prepares the course on backend b, tokens drawn from seed, at
// its first scene, keeping nothing (NoStore) until Use gives it a store.
// ctx ends the sessions' commands; ops counts them (see Env).
func NewCourse(ctx context.Context, b *sim.Backend, seed uint64, ops *sync.WaitGroup) *Course {
	return &Course{Scenes: scenes.All(), store: NoStore{}, left: map[string]Left{}, home: -1, ctx: ctx, b: b, seed: seed, ops: ops,
		Prog: progress.Progress{Done: map[string]bool{}, Answers: map[string]progress.Answer{}}}
}

// Use keeps progress in st from now on and loads what it holds. A load
// error leaves the progress empty and is returned, for the screen to say.
func (c *Course) Use(st Store) error {
	if st == nil {
		st = NoStore{}
	}
	c.store = st
	prog, err := st.Load()
	c.Prog = labApart(prog)
	if c.Prog.Done == nil {
		c.Prog.Done = map[string]bool{}
	}
	if c.Prog.Answers == nil {
		c.Prog.Answers = map[string]progress.Answer{}
	}
	return err
}

// SetPlaylist sets the lesson to the scenes with the given ids, in order;
// ids of no scene are skipped.
func (c *Course) SetPlaylist(ids []string) {
	c.Playlist = nil
	for _, id := range ids {
		if i := c.Index(id); i >= 0 {
			c.Playlist = append(c.Playlist, i)
		}
	}
}

// Index is the course index of the scene with id, -1 for none.
func (c *Course) Index(id string) int {
	for i, s := range c.Scenes {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// Open prepares scene i (wrapping around) as a new session, which the
// caller starts (Session.Start, handing it from's run to clear); from is
// the open scene's session, nil for none, and is left as it stands, to
// come back to. The new session asks the predictions if the course does,
// records into the progress, and is put back where the learner left it:
// in this course, or, for the scene of the saved moment, last time (a
// saved place this locksim cannot open is left for the scene's start).
// On an error the course stays at the open scene.
func (c *Course) Open(i int, from *Session) (*Session, error) {
	sc := c.Scenes[(i+len(c.Scenes))%len(c.Scenes)]
	start := Position{Version: PositionVersion, Scene: sc.ID}
	pos, quiz, kept := start, (*QuizState)(nil), false
	if st, ok := c.left[sc.ID]; ok {
		pos, quiz, kept = st.Pos, st.Quiz, true
	} else if saved, ok := c.savedPlace(sc.ID); ok {
		pos, kept = saved, true // where the learner left it in an earlier run
	} else if sc.ID == c.Prog.Moment.Scene && (sc.Kind == scenes.Story || c.LastPlace().Trial != nil) {
		// continue where the learner left off last time, settings and seed too
		pos, kept = c.LastPlace(), true
	}
	s, err := c.open(pos, from, true)
	if err != nil && kept {
		// an older locksim's place may name what this one has not
		s, err = c.open(start, from, true)
		quiz = nil
	}
	if err != nil {
		return nil, err
	}
	if quiz != nil {
		*s.OpenQuiz() = *quiz // its attempt's score reported or not, as left
	}
	c.visit, c.home, c.browsing, c.inLab = NotVisiting, -1, false, false // a scene the learner opens is their own
	return s, nil
}

// OpenAt prepares pos's scene as a new session put where pos stands,
// whatever the learner left there, as the learner's own place (a trial of
// the race they ran); from is as for Open. A place that is not the
// learner's own opens with Visit. A place that does not open (see Open)
// is an error, and the course stays at the open scene.
func (c *Course) OpenAt(pos Position, from *Session) (*Session, error) {
	s, err := c.open(pos, from, true)
	if err == nil {
		c.visit, c.home, c.browsing, c.inLab = NotVisiting, -1, false, false
	}
	return s, err
}

// Browse opens pos as the session that stands under the contents before
// the learner has picked anything: it is nobody's place, so it is never
// saved over the learner's saved place nor kept as its scene's, and a
// visit from it goes back to the saved place (Home).
func (c *Course) Browse(pos Position) (*Session, error) {
	s, err := c.OpenAt(pos, nil)
	if err == nil {
		c.browsing = true
	}
	return s, err
}

// Browsing reports that the session on screen is the one Browse opened:
// the learner has opened no scene yet, and no story of the lab is on
// screen (the learner's place then).
func (c *Course) Browsing() bool { return c.browsing && !c.inLab }

// open opens pos's scene at pos through the door (Open), from left as it
// stands; own says whether what the learner does in it is recorded as
// theirs. A story of the lab (Position.Lab) plays on the lab's own
// embedded server, and the course stays at the scene it was at: nothing of
// it goes to the course's progress.
func (c *Course) open(pos Position, from *Session, own bool) (*Session, error) {
	b, i, o := c.b, c.Index(pos.Scene), c.options(own)
	switch {
	case pos.Lab != nil:
		lb, err := c.labBackend()
		if err != nil {
			return nil, err
		}
		b, i = lb, c.At
		o.Answered, o.Scored = nil, nil
	case i < 0:
		return nil, fmt.Errorf("no scene %q in this course", pos.Scene)
	}
	c.nextID++
	s, err := Open(c.ctx, pos, Env{Backend: b, Scenes: c.Scenes, ID: c.nextID, Seed: c.seed, Ops: c.ops, Options: o})
	if err != nil {
		return nil, err
	}
	c.leave(from)
	c.At = i
	return s, nil
}

// labBackend is the lab's own embedded server, started the first time a
// story of the lab opens.
func (c *Course) labBackend() (*sim.Backend, error) {
	if c.labB == nil {
		b, err := sim.OpenEmbedded()
		if err != nil {
			return nil, fmt.Errorf("the lab's server: %w", err)
		}
		c.labB = b
	}
	return c.labB, nil
}

// LabStory prepares the lab story pos carries (Position.Lab) where pos
// stands, as a new session the caller starts, on the lab's own embedded
// server, opened at the first story. It is played over the lab: the
// course's place (the scene open, a visit, what was left) is untouched.
// A position with no lab story, one that does not open (see Open), or a
// server that does not start is an error.
func (c *Course) LabStory(pos Position) (*Session, error) {
	if pos.Lab == nil {
		return nil, fmt.Errorf("position: scene %s is no story of the lab", pos.Scene)
	}
	b, err := c.labBackend()
	if err != nil {
		return nil, err
	}
	c.nextID++
	s, err := Open(c.ctx, pos, Env{Backend: b, ID: c.nextID, Seed: c.seed, Ops: c.ops, Options: Options{Predict: c.Quiz}})
	if err == nil && c.visit == NotVisiting {
		c.inLab = true // a story of the learner's own lab is their place
	}
	return s, err
}

// Close closes what the course opened besides its sessions' runs (the
// lab's server) within ctx; call it once no command runs. It returns the
// server's error closing.
func (c *Course) Close(ctx context.Context) error {
	if c.labB == nil {
		return nil
	}
	b := c.labB
	c.labB = nil
	return b.Close(ctx)
}

// options are a new session's options in this course; own sessions
// record the learner's predictions and quiz scores.
func (c *Course) options(own bool) Options {
	o := Options{Predict: c.Quiz, Present: c.Present}
	if own {
		o.Answered, o.Scored = c.RecordAnswer, c.RecordScore
	}
	return o
}

// leave keeps from's place as the learner left its scene, to come back
// to; a visit's place is not the learner's, and is not kept.
func (c *Course) leave(from *Session) {
	if from != nil && c.visit == NotVisiting && !c.Browsing() {
		pos := from.Position()
		c.left[from.Scene.ID] = Left{Pos: pos, Quiz: from.OpenQuiz()}
		c.keepPlace(pos)
	}
}

// keepPlace records pos as the learner's place in its scene, for the next
// run of locksim (progress.Progress.Places). A lab story's place belongs
// to the lab, not to a scene of the course.
func (c *Course) keepPlace(pos Position) {
	if pos.Lab != nil || c.Index(pos.Scene) < 0 {
		return
	}
	b, err := json.Marshal(pos)
	if err != nil {
		return
	}
	if c.Prog.Places == nil {
		c.Prog.Places = map[string]json.RawMessage{}
	}
	if !bytes.Equal(c.Prog.Places[pos.Scene], b) {
		c.Prog.Places[pos.Scene] = b
		c.unsaved = true
	}
}

// savedPlace is the learner's place in scene id as an earlier run saved
// it; ok is false when there is none, or it no longer reads.
func (c *Course) savedPlace(id string) (Position, bool) {
	b, ok := c.Prog.Places[id]
	if !ok {
		return Position{}, false
	}
	pos, err := ParsePosition(b)
	if err != nil || pos.Scene != id {
		return Position{}, false
	}
	return pos, true
}

// Visit is why the place on screen is not the learner's own: a visit
// never becomes their saved place (SaveMoment), nor the place kept for
// its scene, and but for following the instructor nothing done in it
// counts as theirs (a prediction, a quiz score, a story played to its
// end). Esc goes back to the learner's own place (Home).
type Visit int

const (
	// NotVisiting: the place on screen is the learner's own.
	NotVisiting Visit = iota
	// VisitCode is a story code opened (-story CODE, ssh -t HOST story CODE).
	VisitCode
	// VisitRun is a student's run the instructor put on their screen.
	VisitRun
	// VisitFollow is the instructor's place, which a student follows (or
	// followed) in a sandbox of their own: the place is the instructor's,
	// but the prediction is the student's own, and counts.
	VisitFollow
	// VisitProject is the instructor's place exactly, on a projector: the
	// projector has no place of its own.
	VisitProject
)

// Counts reports whether the learner's own predictions, scores and
// stories played to the end count in a visit of this kind.
func (v Visit) Counts() bool { return v == NotVisiting || v == VisitFollow }

// Visit prepares pos's scene as a new session put where pos stands, as a
// visit of the given kind (see Visit); from is the session on screen. The
// first visit keeps from, the learner's own, to go back to (Home); a
// visit from a visit keeps the same home. An unknown or unreadable place
// is an error, and the course stays as it was.
func (c *Course) Visit(kind Visit, pos Position, from *Session) (*Session, error) {
	if kind == NotVisiting {
		return c.OpenAt(pos, from)
	}
	if (kind == VisitRun || kind == VisitCode) && pos.Prediction != nil {
		// someone else's answer (a student's, a code's author's) comes with
		// their place once its move has run; at or before the question the
		// question is still the reader's (the room's), and the place must
		// ask it, not answer it
		if sc, err := pos.scene(); err == nil {
			if at := QuestionAt(sc, scenes.Params(maps.Clone(pos.Settings)), pos.Own); at >= 0 && pos.Step <= at {
				pos.Prediction = nil
			}
		}
	}
	at := c.At
	s, err := c.open(pos, from, kind.Counts())
	if err != nil {
		return nil, err
	}
	if c.visit == NotVisiting {
		c.home = -1
		if from != nil && kind != VisitProject && !c.Browsing() {
			c.home = at
		}
	}
	c.visit = kind
	return s, nil
}

// Away marks what is on screen from now on as a visit of the given kind
// that the course does not open itself (a story of the lab from a story
// code); from is the session on screen, the learner's own to go back to,
// nil for none.
func (c *Course) Away(kind Visit, from *Session) {
	if kind == NotVisiting || c.visit != NotVisiting {
		if kind != NotVisiting {
			c.visit = kind
		}
		return
	}
	c.leave(from)
	c.home = -1
	if from != nil && kind != VisitProject {
		c.home = c.Index(from.Scene.ID)
	}
	c.visit = kind
}

// Visiting is the kind of visit on screen, NotVisiting for the learner's
// own place.
func (c *Course) Visiting() Visit { return c.visit }

// Home ends the visit and prepares the learner's own place as it was
// before it, as a new session the caller starts: the scene left for the
// visit, as left; or, when the visit began with nothing of theirs on
// screen, the saved place. With neither, it returns no session: the
// contents are the learner's to choose from, and the course stays away
// (what is on screen is still not theirs) until a scene is opened. from
// is the visit's session, which is not kept.
func (c *Course) Home(from *Session) (*Session, error) {
	if c.visit == NotVisiting {
		return nil, nil
	}
	i := c.home
	if i < 0 {
		i = c.Index(c.Prog.Moment.Scene)
	}
	if i < 0 {
		return nil, nil
	}
	return c.Open(i, from)
}

// Nav is the course's part of where the learner is, for Navigate: the
// open scene s (a replay running, an actor or node selected) among the
// course's scenes, in presenter mode or not. The screen adds what it
// alone knows: the contents shown, a page on top, a question to leave.
func (c *Course) Nav(s *Session) Nav {
	n := Nav{Scene: c.At, Scenes: len(c.Scenes), Replaying: s.Busy && s.CancelOp != nil,
		Selected: s.Sel >= 0 || s.Node >= 0, Present: c.Present, Visiting: c.visit != NotVisiting}
	if j := slices.Index(c.Playlist, c.At); j >= 0 {
		// > and < go through the lesson (-scenes) and stay in it past its ends
		n.Lesson, n.LessonNext, n.LessonPrev = true, -1, -1
		if j+1 < len(c.Playlist) {
			n.LessonNext = c.Playlist[j+1]
		}
		if j > 0 {
			n.LessonPrev = c.Playlist[j-1]
		}
	}
	return n
}

// LastPlace is where the learner left the course: the saved position, or,
// in a progress file an older locksim wrote, its moment.
func (c *Course) LastPlace() Position {
	if pos, ok := SavedPlace(c.Prog); ok {
		return pos
	}
	return FromMoment(c.Prog.Moment)
}

// SavedPlace is the course's place saved in p, as Use reads it: a story
// of the lab that an older locksim saved as the course's place is the
// lab's (labApart), never the course's. ok is false for no saved position
// (or one that no longer reads). A server resuming a student reads their
// file through it, so the served course and the local one agree.
func SavedPlace(p progress.Progress) (Position, bool) {
	p = labApart(p)
	if len(p.Place) == 0 {
		return Position{}, false
	}
	pos, err := ParsePosition(p.Place)
	if err != nil || pos.Scene != p.Moment.Scene {
		return Position{}, false
	}
	return pos, true
}

// RecordAnswer keeps the learner's latest prediction in scene id.
func (c *Course) RecordAnswer(id string, chosen int, right bool) {
	c.Prog.Answers[id] = progress.Answer{Chosen: chosen, Right: right}
	c.unsaved = true
}

// RecordScore keeps a quiz's latest whole attempt, right of of; the quiz
// is done once it has been answered through.
func (c *Course) RecordScore(id string, right, of int) {
	if c.Prog.Scores == nil {
		c.Prog.Scores = map[string]progress.Score{}
	}
	c.Prog.Scores[id] = progress.Score{Right: right, Of: of}
	c.Prog.Done[id] = true
	c.unsaved = true
}

// NoteDone marks s's scene done once its story has been played to the
// end; call it when a command's snapshot came back (RunMsg).
func (c *Course) NoteDone(s *Session) {
	sn := s.Snap
	if !c.visit.Counts() || len(sn.Moves) == 0 || sn.Pos < len(sn.Moves) || c.Prog.Done[s.Scene.ID] {
		return
	}
	c.Prog.Done[s.Scene.ID] = true
	c.unsaved = true
}

// TakeSave returns the store and a copy of the progress to save when it
// changed since the last take (ok), so that a command can save it while
// the course goes on; the caller saves one at a time, so an older state
// never lands after a newer one.
func (c *Course) TakeSave() (st Store, prog progress.Progress, ok bool) {
	if !c.unsaved {
		return nil, progress.Progress{}, false
	}
	c.unsaved = false
	return c.store, cloneProgress(c.Prog), true
}

// SaveMoment records the learner's own place in the course as the place
// to continue from, and saves the progress now; call it when the program
// ends. The own place is where s, the course's session, stands (under a
// story of the lab, the session the story stands over: a story of the
// lab is the lab's place, see KeepLab, and s one is kept as that); during
// a visit it is the place the visit left (Home), never the visited one,
// and when the visit began with nothing of the learner's own on screen,
// or the learner opened no scene (Browse), the place the store holds is
// left as it is (and nothing is written if nothing else changed). It
// returns the store's error.
func (c *Course) SaveMoment(s *Session) error {
	if s != nil && s.Position().Lab != nil {
		c.KeepLab(s)
		s = nil
	}
	own, ok := c.ownPlace(s)
	if !ok {
		if !c.unsaved {
			return nil
		}
		c.unsaved = false
		if held, err := c.store.Load(); err == nil {
			held = labApart(held)
			c.Prog.Moment, c.Prog.Place = held.Moment, held.Place
		}
		return c.store.Save(cloneProgress(c.Prog))
	}
	c.Prog.Moment = own.Moment()
	if place, err := json.Marshal(own); err == nil {
		c.Prog.Place = place
	}
	c.keepPlace(own)
	c.unsaved = false
	return c.store.Save(c.Prog)
}

// ownPlace is the learner's own place in the course with s the course's
// session, the one SaveMoment saves: where s stands when it is theirs (no
// visit, not Browse's, not a story of the lab); during a visit the place
// the visit left (Home). ok is false when the learner has no place of
// their own on screen: the place saved stands.
func (c *Course) ownPlace(s *Session) (Position, bool) {
	switch {
	case c.visit == NotVisiting && s != nil && !c.browsing && s.Position().Lab == nil:
		return s.Position(), true
	case c.visit != NotVisiting && c.home >= 0:
		if l, ok := c.left[c.Scenes[c.home].ID]; ok {
			return l.Pos, true
		}
	}
	return Position{}, false
}

// PlaceNow is where the learner would continue from if locksim ended now,
// with s the course's session: the place SaveMoment would save, else the
// place last saved (LastPlace). The contents' "last time" reads it, so
// within a session it names the scene and step just left, as a restart
// would.
func (c *Course) PlaceNow(s *Session) Position {
	if pos, ok := c.ownPlace(s); ok {
		return pos
	}
	return c.LastPlace()
}

// cloneProgress is p with maps of its own, for a command to read while the
// course goes on.
func cloneProgress(p progress.Progress) progress.Progress {
	q := p
	q.Done, q.Answers, q.Scores = maps.Clone(p.Done), maps.Clone(p.Answers), maps.Clone(p.Scores)
	q.Levels = maps.Clone(p.Levels)
	q.Moment.Settings = maps.Clone(p.Moment.Settings)
	q.Place, q.Lab = slices.Clone(p.Place), slices.Clone(p.Lab)
	q.Places = maps.Clone(p.Places)
	return q
}
