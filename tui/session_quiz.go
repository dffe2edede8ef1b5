package tui

import (
	"locksim/play"
	"locksim/scenes"

	tea "github.com/charmbracelet/bubbletea"
)

// quizState is where the learner stands in a quiz.
type quizState struct {
	items   []scenes.Situation
	at      int    // the situation on screen; len(items) is the score page
	answers []int  // the Class chosen for each situation, -1 for none
	shown   []bool // its key shown to the class, with no answer given
	// reported is set once this attempt's score went to the progress
	reported bool
}

func newQuiz(items []scenes.Situation) *quizState {
	q := &quizState{items: items, answers: make([]int, len(items)), shown: make([]bool, len(items))}
	for i := range q.answers {
		q.answers[i] = -1
	}
	return q
}

// quizState is the player's quiz, read from its text the first time.
func (p *Session) quizState() *quizState {
	if p.qz == nil {
		items, _ := scenes.Situations(p.text) // newPlayer refuses a text it cannot read
		p.qz = newQuiz(items)
	}
	return p.qz
}

// keyShown reports that situation i's key is on screen: answered, shown to
// the class, or -no-quiz (the key without the questions).
func (p *Session) keyShown(i int) bool {
	q := p.quizState()
	return q.answers[i] >= 0 || q.shown[i] || !p.quiz
}

// quizKey applies a key to a quiz: answer (arg: the Class), step and back
// between situations and the score, home for a fresh attempt, a hint.
func (p *Session) quizKey(act play.Action) (tea.Cmd, bool) {
	action, arg := act.Verb, act.N
	q := p.quizState()
	n := len(q.items)
	switch action {
	case play.Answer, play.Select:
		switch {
		case q.at >= n:
			return nil, false
		case arg < 0 || arg > int(scenes.Correctness):
			p.flash = p.text.Get("not-a-choice")
		case p.keyShown(q.at):
			p.flash = p.text.Get("answered-already")
		default:
			q.answers[q.at] = arg
			p.hints = 0
			p.reportScore()
		}
		return nil, true
	case play.Step:
		if p.present && q.at < n && !p.keyShown(q.at) {
			q.shown[q.at] = true // the clicker: the class has had its say
			return nil, true
		}
		q.at = min(q.at+1, n)
		p.hints = 0
		return nil, true
	case play.Back:
		q.at = max(q.at-1, 0)
		p.hints = 0
		return nil, true
	case play.Home:
		p.qz, p.hints = newQuiz(q.items), 0
		return nil, true
	case play.Hint:
		if q.at >= n || p.keyShown(q.at) || !p.text.Has("hint-1") {
			return nil, false
		}
		if p.text.Has("hint-" + itoa(int64(p.hints+1))) {
			p.hints++
		}
		return nil, true
	}
	return nil, false
}

// reportScore hands the score to the progress once every situation of the
// attempt is answered (a key shown to the class is not an answer).
func (p *Session) reportScore() {
	q := p.quizState()
	right, answered := scenes.Grade(q.items, q.answers)
	if q.reported || answered < len(q.items) || !p.quiz {
		return
	}
	q.reported = true
	if p.scored != nil {
		p.scored(p.sc.ID, right, len(q.items))
	}
}
