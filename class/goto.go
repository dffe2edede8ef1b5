package class

import "locksim/play"

// Want keeps g to go to once the screen's running move is done.
func (p *Part) Want(g Go) { p.wanted = &g }

// Wanted takes the place kept by Want; nil for none.
func (p *Part) Wanted() *Go {
	g := p.wanted
	p.wanted = nil
	return g
}

// Wants reports a place kept by Want.
func (p *Part) Wants() bool { return p.wanted != nil }

// Visit is pos as the session opens it for a visit of kind visit from
// cur, its own place, with seed the session's own: a follower's sandbox
// (play.VisitFollow) keeps its own seed (its tokens differ), its own
// prediction in the same story, and races its own race; the other kinds
// take pos whole (a projector; a student's run the instructor shows).
func Visit(cur, pos play.Position, visit play.Visit, seed uint64) play.Position {
	if visit != play.VisitFollow {
		return pos
	}
	same := cur.Scene == pos.Scene && sameSettings(cur.Settings, pos.Settings)
	pos.Seed, pos.Race, pos.Prediction = cur.Seed, nil, nil
	if same {
		pos.Prediction = cur.Prediction
	} else {
		pos.Seed = seed
	}
	if pos.Quiz != nil {
		pos.Quiz = &play.QuizPlace{At: pos.Quiz.At}
	}
	return pos
}
