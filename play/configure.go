package play

// Options are how a session asks and reports: set once by whoever opens
// it (the course, or a screen that changes its mind before the start).
type Options struct {
	// Predict asks the scene's prediction at its decisive point (off with
	// -no-quiz).
	Predict bool
	// Present is presenter mode: the clicker puts a question to the class.
	Present bool
	// Follow is a class's follower: the story moves where the instructor
	// leads, so an answer is kept and the story waits at the question for
	// the instructor to run the decisive move, and a seek past a question
	// left unanswered passes it (the instructor moved on).
	Follow bool
	// Answered reports a prediction and whether it was right, once; nil
	// for none.
	Answered func(id string, chosen int, right bool)
	// Scored reports a quiz's score once every situation of an attempt is
	// answered; nil for none.
	Scored func(id string, right, of int)
}

// Configure sets how the session asks and reports (see Options).
func (p *Session) Configure(o Options) {
	p.Predict, p.Present, p.Follow, p.Answered = o.Predict, o.Present, o.Follow, o.Answered
	if k, ok := p.kind.(*quizKind); ok {
		k.scored = o.Scored
	}
}

// Options are how the session asks and reports now.
func (p *Session) Options() Options {
	o := Options{Predict: p.Predict, Present: p.Present, Follow: p.Follow, Answered: p.Answered}
	if k, ok := p.kind.(*quizKind); ok {
		o.Scored = k.scored
	}
	return o
}

// Select selects actor i (-1 for none) as pointing at its card does: it
// answers no question and waits for no move, unlike the Select action.
func (p *Session) Select(i int) { p.Sel = i }

// AnswerPending marks the prediction the session was opened with as one
// not yet reported: a student back in a class after their session ended
// between their answer and the move, whose answer is then reported (to
// the progress and the class's report) when the move runs here. Opened
// from a place, a prediction otherwise counts as reported already.
func (p *Session) AnswerPending() {
	if p.Guess >= 0 && p.Snap.Pos <= p.QuestionAt() {
		p.Revealed = false
	}
}

// PickNode picks node i of a distributed story (-1 for none), as pointing
// at it does: it waits for no move, unlike the Node action.
func (p *Session) PickNode(i int) { p.Node = i }

// Deselect lets go of the selected actor and node: the readout follows the
// story again.
func (p *Session) Deselect() { p.Sel, p.Node = -1, -1 }

// SetFlash shows a one-time note over the verdict until the next key; ""
// clears it.
func (p *Session) SetFlash(note string) { p.Flash = note }

// SetErr shows err as the session's error; "" clears it.
func (p *Session) SetErr(err string) { p.Err = err }
