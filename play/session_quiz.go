package play

import (
	"locksim/scenes"
)

// QuizState is where the learner stands in a quiz.
type QuizState struct {
	Items   []scenes.Situation
	At      int    // the situation on screen; len(items) is the score page
	Answers []int  // the Class chosen for each situation, -1 for none
	Shown   []bool // its key shown to the class, with no answer given
	// reported is set once this attempt's score went to the progress
	reported bool
}

func NewQuiz(items []scenes.Situation) *QuizState {
	q := &QuizState{Items: items, Answers: make([]int, len(items)), Shown: make([]bool, len(items))}
	for i := range q.Answers {
		q.Answers[i] = -1
	}
	return q
}

// OpenQuiz is the quiz a quiz session runs, for its page (see Show); nil
// for every other session.
func (p *Session) OpenQuiz() *QuizState {
	if k, ok := p.kind.(*quizKind); ok {
		return k.state
	}
	return nil
}

// KeyShown reports that situation i's key is on screen: answered, shown to
// the class, or -no-quiz (the key without the questions).
func (p *Session) KeyShown(i int) bool {
	q := p.OpenQuiz()
	return q.Answers[i] >= 0 || q.Shown[i] || !p.Predict
}

// quizKey applies a key to a quiz: answer (arg: the Class), step and back
// between situations and the score, home for a fresh attempt, a hint.
func (p *Session) quizKey(act Action) (Cmd, bool) {
	action, arg := act.Verb, act.N
	q := p.OpenQuiz()
	n := len(q.Items)
	switch action {
	case Answer, Select:
		switch {
		case q.At >= n:
			return nil, false
		case arg < 0 || arg > int(scenes.Correctness):
			p.Flash = p.Text.Get("not-a-choice")
		case p.KeyShown(q.At):
			p.Flash = p.Text.Get("answered-already")
		default:
			q.Answers[q.At] = arg
			p.Hints = 0
			p.reportScore()
		}
		return nil, true
	case Step:
		if p.Present && q.At < n && !p.KeyShown(q.At) {
			q.Shown[q.At] = true // the clicker: the class has had its say
			return nil, true
		}
		q.At = min(q.At+1, n)
		p.Hints = 0
		return nil, true
	case Back:
		q.At = max(q.At-1, 0)
		p.Hints = 0
		return nil, true
	case Home:
		*q, p.Hints = *NewQuiz(q.Items), 0 // in place: the page keeps its pointer
		return nil, true
	case Hint:
		if q.At >= n || p.KeyShown(q.At) || !p.Text.Has("hint-1") {
			return nil, false
		}
		if p.Text.Has("hint-" + itoa(int64(p.Hints+1))) {
			p.Hints++
		}
		return nil, true
	}
	return nil, false
}

// reportScore hands the score to the progress once every situation of the
// attempt is answered (a key shown to the class is not an answer).
func (p *Session) reportScore() {
	q := p.OpenQuiz()
	right, answered := scenes.Grade(q.Items, q.Answers)
	if q.reported || answered < len(q.Items) || !p.Predict {
		return
	}
	q.reported = true
	if k := p.kind.(*quizKind); k.scored != nil {
		k.scored(p.Scene.ID, right, len(q.Items))
	}
}
