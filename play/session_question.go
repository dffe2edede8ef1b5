package play

import (
	"context"
	"strings"

	"locksim/scenes"
)

// Waiting reports a follower that has answered the question and waits at
// it for the instructor to run the move: what would answer it stays
// hidden, as while the question is open.
func (p *Session) Waiting() bool {
	return p.Follow && !p.Asking && p.Guess >= 0 && p.Scene.Predict != nil && p.Snap.Pos == p.QuestionAt()
}

// QuestionAt is the step the story's question stands before, -1 when it
// has none: found in the schedule as written and followed through the
// learner's own moves (the package's QuestionAt), since an edited run
// names its later moves by the actors' next steps, not by the story's
// labels the question is found by.
func (p *Session) QuestionAt() int {
	own := p.ownMoves()
	key := questionKey{scene: p.Scene, settings: scenes.FormatSettings(p.Scene, p.Params), own: len(own)}
	if p.qFor == nil || *p.qFor != key {
		p.qAt, p.qFor = QuestionAt(p.Scene, p.Params, own), &key
	}
	return p.qAt
}

// questionKey is what the question's step depends on.
type questionKey struct {
	scene    *scenes.Scene
	settings string
	own      int
}

// mustAsk reports that the story may not pass position at before the
// learner answers the prediction: at is where the question stands.
func (p *Session) mustAsk(at int) bool {
	return p.asksHere() && p.Guess < 0 && !p.Passed && at >= 0 && at == p.QuestionAt()
}

// asksHere reports that the story asks its question on this server: a
// story only embedded nodes can play does not happen on a live one.
func (p *Session) asksHere() bool {
	return p.Predict && p.JudgedHere()
}

// JudgedHere reports that this server's replies can judge the story's
// question: not those of a live server, for a story only embedded nodes
// can play (its fault never comes), so an answer saved on the embedded
// server gets no verdict there.
func (p *Session) JudgedHere() bool {
	return !(p.Backend.Live() && p.Scene.NeedsEmbedded(p.Params))
}

// Choices are the prediction's answers, from the course text.
func (p *Session) Choices() []string {
	if !p.Text.Has("choices") {
		return nil
	}
	return strings.Split(p.Question("choices"), "\n")
}

// AnswerKeys is how many of the numbered keys (Select: 1, 2, ...) answer
// the question now: its choices while it waits for the learner's answer
// (Act's Select answers it then, instead of selecting an actor), 0 when no
// question is open.
func (p *Session) AnswerKeys() int {
	if !p.Asking {
		return 0
	}
	return len(p.Choices())
}

// Question is a section of the prediction (predict, ask, choices, hint-N)
// with its slots filled from this story's settings.
func (p *Session) Question(name string) string {
	return p.Scene.Question(p.Text, p.Params, name)
}

// answer takes the learner's prediction and lets the story run the move.
func (p *Session) answer(n int) Cmd {
	if n < 0 || n >= len(p.Choices()) {
		return nil
	}
	if !p.Follow && p.Snap.Live && p.Backend.Health().Err != nil {
		// the move would be refused: the question stays open, with all
		// it hides (an answer taken but not judged let the keys and the
		// bar's length show before the reveal)
		p.Err = AnswerWaitsForServer
		return nil
	}
	p.Asking, p.Guess, p.Hinting = false, n, false
	if p.Follow {
		return nil // the instructor runs the move when the class has answered
	}
	at := p.QuestionAt()
	p.answering = true
	return p.SeekTo(at + 1)
}

// AnswerWaitsForServer is the line for an answer given while a live server
// does not answer: it is refused, and the question stays open.
const AnswerWaitsForServer = "the server does not answer: your answer waits until it is back"

// refuseAnswer, when the answer's move has come back with err, takes the
// answer back if the move was not made, and says why: the question is
// open again, with all it hides, and is asked again (by the replay, once
// a live server is back), instead of an answer taken and judged on the
// next step. It returns the error line, "" when the answer stands.
func (p *Session) refuseAnswer(err error) string {
	if !p.answering {
		return ""
	}
	p.answering = false
	if err == nil || p.Guess < 0 || p.Snap.Pos > p.QuestionAt() {
		return ""
	}
	p.Guess, p.Asking = -1, true
	if err == context.Canceled {
		return "the move was stopped before it ran: your answer was not taken"
	}
	if p.Snap.Live {
		return AnswerWaitsForServer
	}
	return "the move failed, so your answer was not taken: " + oneLine(err)
}

// reveal, once the decisive move has run, reads what the replies made true.
// A story that does not happen on this server (asksHere) judges nothing: a
// prediction saved for Redlock's clock jump on the embedded server was
// judged wrong against a live server's replies, where the jump never came.
func (p *Session) reveal() {
	at := p.QuestionAt()
	if (p.Guess < 0 && !p.Passed) || at < 0 || p.Snap.Pos <= at || !p.JudgedHere() {
		return
	}
	p.Actual = p.Scene.Predict.Answer(scenes.Frame{Snap: p.Snap, L: p.Ledger, P: p.Params, Sel: -1, Text: p.Text})
	if !p.Revealed && p.Answered != nil && p.Guess >= 0 {
		p.Answered(p.Scene.ID, p.Guess, p.Actual == p.Guess)
	}
	p.Revealed = true
}
