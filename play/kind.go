package play

import (
	"slices"

	"locksim/scenes"
	"locksim/sim"
)

// kind is what a session plays, resolved once by the door (Open) from the
// scene its position stands in: a story, a race or a quiz. A recorded
// trial and a lab story are stories whose scene the position carries;
// firing the race again from a trial makes the session a race once more
// (the only change of kind, and it happens here, in the core).
//
// The session keeps what every kind shares (the run, the snapshot, the
// prediction, the selection); a kind keeps what only it has and answers
// the questions whose answer depends on it: the verbs it accepts, the
// script it runs, whether its run fires at once, its part of a Position
// (apply, place), how it follows a leader (goTo) and when it is over.
// Outside this package nothing asks a session's kind: the screen asks what
// it accepts (Accepts), what may be shown (Disclose), what it asks
// (QuestionAt, Choices), where it stands (Position), and gets the page for
// its kind from Show (a quiz's page with its QuizState).
type kind interface {
	// accepts reports that v means something in this kind of session.
	accepts(p *Session, v Verb) bool
	// script is the run's script under the session's settings.
	script(p *Session) sim.Script
	// fires reports a run that plays its decisive move as it starts (the
	// race's SETs), unless a question must be answered first.
	fires() bool
	// apply puts pos's part of this kind into the session (Open).
	apply(p *Session, pos Position)
	// place writes this kind's part of the session's place into pos.
	place(p *Session, pos *Position)
	// goTo moves the session to where pos stands in the same story.
	goTo(p *Session, pos Position) Cmd
	// over reports nothing more to step through (see Course.StoryOver).
	over(p *Session) bool
}

// storyKind is a scene played move by move: its own moves are the learner's
// insertions in the schedule; lab and trial are set when the position
// carries the story's scene (a lab's lock, a recorded trial of the race).
type storyKind struct {
	// own are the learner's moves in the schedule, in the order made;
	// reown those a position put back, redone when the run starts
	own, reown []Own
	lab        *LabPlace
	trial      *TrialRecord
}

// raceKind is the race scene: its SETs are fired at once, or one at a time in
// a recorded order (replaying) until the learner fires it again for real.
type raceKind struct {
	replaying *RaceRecord
}

// quizKind is a scene of situations to classify: it sends no command.
type quizKind struct {
	state *QuizState
	// scored reports the score once every situation of an attempt is
	// answered (see Options.Scored)
	scored func(id string, right, of int)
}

// kindOf is the kind a session of sc plays, with nothing of a place yet.
func kindOf(sc *scenes.Scene, text quizText) (kind, error) {
	switch sc.Kind {
	case scenes.Race:
		return &raceKind{}, nil
	case scenes.Quiz:
		items, err := text()
		if err != nil {
			return nil, err
		}
		return &quizKind{state: NewQuiz(items)}, nil
	}
	return &storyKind{}, nil
}

// quizText reads a quiz's situations from its text, when the kind needs it.
type quizText func() ([]scenes.Situation, error)

// storyVerbs are what a story of one server accepts; a distributed story
// adds its nodes' (nodeVerbs), and a trial the way back to the race.
var storyVerbs = verbs(Step, Back, Play, Faster, Slower, Home, Knob, Defaults, Select, Next, Prev, Hint, Seek,
	Crash, Pause, Wait, Move)

var nodeVerbs = verbs(Node, Stop, Cut, Slow, Jump, Hang)

var raceVerbs = verbs(Replay, Knob, Defaults, Select, Next, Prev, Hint, Seek)

var quizVerbs = verbs(Step, Back, Home, Select, Answer, Hint)

func verbs(vs ...Verb) map[Verb]bool {
	m := make(map[Verb]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

func (k *storyKind) accepts(p *Session, v Verb) bool {
	switch {
	case storyVerbs[v]:
		return true
	case nodeVerbs[v]:
		return p.Scene.Distributed
	case v == Replay:
		return k.trial != nil // back to the race the trial came from
	}
	return false
}

func (k *storyKind) script(p *Session) sim.Script { return p.Scene.Script(p.Params) }
func (k *storyKind) fires() bool                  { return false }

func (k *storyKind) apply(p *Session, pos Position) {
	k.own, k.reown = slices.Clone(pos.Own), slices.Clone(pos.Own)
}

func (k *storyKind) place(p *Session, pos *Position) {
	pos.Own, pos.Trial, pos.Lab = slices.Clone(k.own), k.trial.clone(), k.lab.clone()
}

// accepts takes a step only from a presenter's clicker at the question:
// it passes the question to the class and fires the race.
func (k *raceKind) accepts(p *Session, v Verb) bool {
	return raceVerbs[v] || v == Step && p.Present && p.Asking
}
func (k *raceKind) fires() bool { return true }

// script is, for a race opened from a record, the one whose SETs go one at
// a time in the recorded order (scenes.InOrder).
func (k *raceKind) script(p *Session) sim.Script {
	if k.replaying != nil {
		return scenes.InOrder(p.Scene, p.Params, k.replaying.Order())
	}
	return p.Scene.Script(p.Params)
}

func (k *raceKind) apply(p *Session, pos Position) { k.replaying = pos.Race.clone() }

// place is the race on screen as a record: the replies the server gave,
// once the SETs have run; before that, the record being replayed, if any,
// so a position taken while the question is open keeps it.
func (k *raceKind) place(p *Session, pos *Position) {
	if shots := volleyShots(p.Snap); len(shots) > 0 {
		pos.Race = &RaceRecord{Shots: shots}
		return
	}
	pos.Race = k.replaying.clone()
}

func (k *quizKind) accepts(p *Session, v Verb) bool { return quizVerbs[v] }
func (k *quizKind) script(p *Session) sim.Script    { return p.Scene.Script(p.Params) }
func (k *quizKind) fires() bool                     { return false }

func (k *quizKind) apply(p *Session, pos Position) {
	if pos.Quiz == nil {
		return
	}
	q := k.state
	q.At = max(0, min(pos.Quiz.At, len(q.Items)))
	for i := range min(len(q.Answers), len(pos.Quiz.Answers)) {
		if a := pos.Quiz.Answers[i]; a >= 0 && a <= int(scenes.Correctness) {
			q.Answers[i] = a
		}
	}
	for i := range min(len(q.Shown), len(pos.Quiz.Shown)) {
		q.Shown[i] = pos.Quiz.Shown[i]
	}
}

func (k *quizKind) place(p *Session, pos *Position) {
	q := k.state
	pos.Quiz = &QuizPlace{At: q.At, Answers: slices.Clone(q.Answers)}
	for _, shown := range q.Shown {
		if shown {
			pos.Quiz.Shown = slices.Clone(q.Shown)
			break
		}
	}
}

// ownMoves are the learner's moves in a story's schedule, nil in any other
// kind of session.
func (p *Session) ownMoves() []Own {
	if k, ok := p.kind.(*storyKind); ok {
		return k.own
	}
	return nil
}

// GoTo moves the session to where pos stands in the story already open
// (same scene, settings and seed): the actor pos selects, and its step or,
// in a quiz, its situation. A follower goes where the instructor leads
// this way; a race's step 1 is its volley, so a follower's own race fires
// when the instructor's has.
func (p *Session) GoTo(pos Position) Cmd {
	p.Select(slices.IndexFunc(p.Snap.Actors, func(x sim.Actor) bool { return x.Name == pos.Selected }))
	return p.kind.goTo(p, pos)
}

func (k *storyKind) goTo(p *Session, pos Position) Cmd { return p.SeekTo(pos.Step) }
func (k *raceKind) goTo(p *Session, pos Position) Cmd  { return p.SeekTo(pos.Step) }

func (k *quizKind) goTo(p *Session, pos Position) Cmd {
	if pos.Quiz != nil {
		k.state.At = max(0, min(pos.Quiz.At, len(k.state.Items)))
	}
	return nil
}

func (k *storyKind) over(p *Session) bool {
	return len(p.Snap.Moves) > 0 && p.Snap.Pos >= len(p.Snap.Moves)
}

// over is true at once: a race has no steps, so once it has run it is over.
func (k *raceKind) over(p *Session) bool { return true }
func (k *quizKind) over(p *Session) bool { return k.state.At >= len(k.state.Items) }

// FormsRefusal is the one line that turns down settings p of sc on b when
// their story sends a one-command form b's server lacks ("DELIFEQ needs
// Valkey 9.0 or later; this server is Redis 7.0.15"), "" when it has them.
func FormsRefusal(sc *scenes.Scene, p scenes.Params, b *sim.Backend) string {
	need := sc.FormsNeeded(p)
	if len(need) == 0 || b == nil {
		return ""
	}
	have := b.FormSupport()
	for _, form := range need {
		if r := have.Refusal(form); r != "" {
			return r
		}
	}
	return ""
}

// Accepts reports that v means something in this session now: the screen
// offers a key (and lists it in help) only for what its session accepts.
// An accepted verb may still be refused in a moment (Act says why).
func (p *Session) Accepts(v Verb) bool { return p.kind.accepts(p, v) }

// Stepped reports a session the learner steps through move by move (a
// story, a trial, a lab story): its place has a step out of a total.
func (p *Session) Stepped() bool { return p.kind.accepts(p, Play) }

// Sends reports a session that sends commands to the server (all but a
// quiz): it has keys, a log and a history to check.
func (p *Session) Sends() bool {
	_, isQuiz := p.kind.(*quizKind)
	return !isQuiz
}

// Show is the page of s's kind, made by the one of its functions that
// draws it: quiz for a quiz (with the quiz's state, whose pointer stays the
// same for the session's life: a new attempt starts over in place), story
// for every other session (a race is a story fired at once).
func Show[T any](s *Session, story func() T, quiz func(*QuizState) T) T {
	if q := s.OpenQuiz(); q != nil {
		return quiz(q)
	}
	return story()
}
