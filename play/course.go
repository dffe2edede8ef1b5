package play

import (
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

	ctx    context.Context
	b      *sim.Backend
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
// ctx ends the sessions' commands; ops counts them (see NewSession).
func NewCourse(ctx context.Context, b *sim.Backend, seed uint64, ops *sync.WaitGroup) *Course {
	return &Course{Scenes: scenes.All(), store: NoStore{}, left: map[string]Left{}, ctx: ctx, b: b, seed: seed, ops: ops,
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
	c.Prog = prog
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
// in this course, or, for the scene of the saved moment, last time. On an
// error the course stays at the open scene.
func (c *Course) Open(i int, from *Session) (*Session, error) {
	i = (i + len(c.Scenes)) % len(c.Scenes)
	c.nextID++
	s, err := NewSession(c.ctx, c.nextID, c.Scenes[i], c.b, c.seed, c.ops)
	if err != nil {
		return nil, err
	}
	if from != nil {
		c.left[from.Scene.ID] = Left{Pos: from.Position(), Quiz: from.Quiz}
	}
	s.Configure(Options{Predict: c.Quiz && s.Scene.Asks(), Present: c.Present, Answered: c.RecordAnswer, Scored: c.RecordScore})
	if st, ok := c.left[s.Scene.ID]; ok {
		if st.Quiz != nil {
			s.Quiz = st.Quiz
		}
		s.ApplyPosition(st.Pos)
	} else if s.Scene.ID == c.Prog.Moment.Scene && (s.Scene.Kind == scenes.Story || c.LastPlace().Trial != nil) {
		// continue where the learner left off last time, settings and seed too
		s.ApplyPosition(c.LastPlace())
	}
	c.At = i
	return s, nil
}

// OpenAt prepares pos's scene as a new session put where pos stands,
// whatever the learner left there (a follower replaying to the
// instructor's place, the instructor showing a student's run); from is
// as for Open. An unknown scene is an error, and the course stays at the
// open scene.
func (c *Course) OpenAt(pos Position, from *Session) (*Session, error) {
	i := c.Index(pos.Scene)
	if i < 0 {
		return nil, fmt.Errorf("no scene %q in this course", pos.Scene)
	}
	c.nextID++
	s, err := NewSession(c.ctx, c.nextID, c.Scenes[i], c.b, c.seed, c.ops)
	if err != nil {
		return nil, err
	}
	if from != nil {
		c.left[from.Scene.ID] = Left{Pos: from.Position(), Quiz: from.Quiz}
	}
	s.Configure(Options{Predict: c.Quiz && s.Scene.Asks(), Present: c.Present, Answered: c.RecordAnswer, Scored: c.RecordScore})
	s.ApplyPosition(pos)
	c.At = i
	return s, nil
}

// Nav is the course's part of where the learner is, for Navigate: the
// open scene s (a replay running, an actor or node selected) among the
// course's scenes, in presenter mode or not. The screen adds what it
// alone knows: the contents shown, a page on top, a question to leave.
func (c *Course) Nav(s *Session) Nav {
	return Nav{Scene: c.At, Scenes: len(c.Scenes), Replaying: s.Busy && s.CancelOp != nil,
		Selected: s.Sel >= 0 || s.Node >= 0, Present: c.Present}
}

// LastPlace is where the learner left the course: the saved position, or,
// in a progress file an older locksim wrote, its moment.
func (c *Course) LastPlace() Position {
	if len(c.Prog.Place) > 0 {
		if pos, err := ParsePosition(c.Prog.Place); err == nil && pos.Scene == c.Prog.Moment.Scene {
			return pos
		}
	}
	return FromMoment(c.Prog.Moment)
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
	if len(sn.Moves) == 0 || sn.Pos < len(sn.Moves) || c.Prog.Done[s.Scene.ID] {
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

// SaveMoment records where s stands (its moment and its position) as the
// place to continue from, and saves the progress now; call it when the
// program ends. It returns the store's error.
func (c *Course) SaveMoment(s *Session) error {
	c.Prog.Moment = progress.Moment{Scene: s.Scene.ID, Settings: maps.Clone(s.Params), Seed: s.Seed, Step: s.Snap.Pos}
	if place, err := json.Marshal(s.Position()); err == nil {
		c.Prog.Place = place
	}
	return c.store.Save(c.Prog)
}

// cloneProgress is p with maps of its own, for a command to read while the
// course goes on.
func cloneProgress(p progress.Progress) progress.Progress {
	q := p
	q.Done, q.Answers, q.Scores = maps.Clone(p.Done), maps.Clone(p.Answers), maps.Clone(p.Scores)
	q.Levels = maps.Clone(p.Levels)
	q.Moment.Settings = maps.Clone(p.Moment.Settings)
	q.Place = slices.Clone(p.Place)
	return q
}
