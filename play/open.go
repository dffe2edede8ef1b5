package play

import (
	"context"
	"errors"
	"sync"

	"locksim/content"
	"locksim/scenes"
	"locksim/sim"
)

// Env is what a session needs besides its Position: where it runs, how it
// asks and reports, and how it tells its messages apart.
type Env struct {
	// Backend runs the session's commands.
	Backend *sim.Backend
	// ID must differ from every other session's in the program, so that
	// messages still in flight for a closed one are dropped; 0 will do
	// for a session alone.
	ID int
	// Seed draws the tokens when the position names none (its Seed is 0).
	Seed uint64
	// Ops counts the session's running commands, for a clean shutdown;
	// nil for a count of its own.
	Ops *sync.WaitGroup
	// Options are how the session asks and reports; a scene with nothing
	// to ask is never asked, whatever Predict says.
	Options Options
	// Headless is a reader that reads nothing between moves (see
	// Session.Headless).
	Headless bool
	// Scenes are the scenes a position's id names one of (a course's);
	// nil for the registry's (scenes.All).
	Scenes []*scenes.Scene
	// Text, when it has sections, is the text the readouts are written
	// from (a handout's); a trial of the race keeps its own words. Zero:
	// the scene's text.
	Text content.Text
}

// Open is the one door from a place to a session: it resolves the scene
// pos stands in once (one of the course's, or the lab story or the trial
// of the race it carries, which plays as a story), checks pos against it,
// and prepares a session of its kind (story, race, quiz) put where pos
// stands, which the caller starts (Session.Start, or Driver.Start for a
// headless one). ctx ends its commands. The error names what in pos does
// not open (see Position.Check) or the scene's text that does not read.
func Open(ctx context.Context, pos Position, env Env) (*Session, error) {
	if err := pos.checkVersion(); err != nil {
		return nil, err
	}
	sc, err := pos.sceneIn(env.Scenes)
	if err != nil {
		return nil, err
	}
	if err := pos.checkIn(sc); err != nil {
		return nil, err
	}
	ops := env.Ops
	if ops == nil {
		ops = &sync.WaitGroup{}
	}
	if r := FormsRefusal(sc, scenes.Params(pos.Settings), env.Backend); r != "" {
		return nil, errors.New(r)
	}
	s, err := newSession(ctx, env.ID, sc, env.Backend, env.Seed, ops, env.Text)
	if err != nil {
		return nil, err
	}
	o := env.Options
	o.Predict = o.Predict && sc.Asks()
	s.Configure(o)
	s.Headless = env.Headless
	s.applyPosition(pos)
	return s, nil
}

// openAt asks a freshly started scene to go to step once it has started
// (-step N, or where the learner left it last time). A step past the
// decisive point means the learner has seen it: the question is not asked.
func (p *Session) openAt(step int) {
	if at := p.QuestionAt(); at >= 0 && step > at && p.Guess < 0 {
		p.Passed = true
	}
	p.pending = append(p.pending, DoN(Seek, step))
}
