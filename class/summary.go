package class

import (
	"slices"
	"sort"
	"strings"

	"locksim/scenes"
)

// Summary is one student's class in numbers, for the report's summary
// row and the instructor's summary screen.
type Summary struct {
	// Finished counts the scenes of the course played to the end.
	Finished int
	// Asked counts the predictions given, every question of every scene
	// (SceneAnswers); Ran those whose own run has made the move the
	// question comes before, and Right those of Ran their run made true.
	// A prediction whose move has not run is neither true nor false: it
	// counts in Asked and NotRun only.
	Asked, Ran, Right int
	// QuizRight of QuizOf are the quizzes' latest scores, summed.
	QuizRight, QuizOf int
	// Levels are the lab's levels passed, by id.
	Levels []string
}

// NotRun counts the predictions given whose run has not yet made the
// move: not yet true, not yet false.
func (s Summary) NotRun() int { return s.Asked - s.Ran }

// Summarize is m's summary from its progress and its answers.
func Summarize(m Member) Summary {
	migrate(&m)
	var s Summary
	// the ids only: scenes.All builds every scene, and a summary page
	// sums each student's
	for _, id := range scenes.IDs() {
		if m.Prog.Done[id] {
			s.Finished++
		}
		for _, a := range SceneAnswers(m, id) {
			s.Asked++
			if a.Ran {
				s.Ran++
			}
			if a.Right() {
				s.Right++
			}
		}
	}
	for _, q := range m.Prog.Scores {
		s.QuizRight += q.Right
		s.QuizOf += q.Of
	}
	for id, ok := range m.Prog.Levels {
		if ok {
			s.Levels = append(s.Levels, id)
		}
	}
	slices.Sort(s.Levels)
	return s
}

// SceneAnswers are m's answers to the questions of scene id: each
// question of it the class asked them (Member.Answers: a lesson's stories
// are questions of their own, lost-reply's one per story), in the
// lesson's order as AskedOf orders them; when the class kept none, the one
// answer m's progress keeps for the scene (the latest, given before the
// class recorded answers, or before m joined), as one whose run made the
// move. m is read as migrate reads it.
func SceneAnswers(m Member, id string) []Answer {
	migrate(&m)
	var out []Answer
	for _, a := range m.Answers {
		if a.Q.Scene == id && a.Chosen >= 0 {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		if p, ok := m.Prog.Answers[id]; ok && p.Chosen >= 0 {
			a := Answer{Q: Question{Scene: id, Story: OldStory, Name: PredictQuestion}, Chosen: p.Chosen, Ran: true, Actual: -1}
			if p.Right {
				a.Actual = p.Chosen
			}
			return []Answer{a}
		}
		return nil
	}
	// sort.Slice, not slices.SortFunc: see Asked's sort (answers.go).
	ls := lessons{}
	sort.Slice(out, func(i, j int) bool { return ls.order(out[i].Q, out[j].Q) < 0 })
	return out
}

// order orders two questions of one scene as AskedOf does: the lesson's
// order, the older locksim's answers (settings not kept) last, then by
// key.
func (ls lessons) order(a, b Question) int {
	if (a.Story == OldStory) != (b.Story == OldStory) {
		if a.Story == OldStory {
			return 1
		}
		return -1
	}
	if la, lb := ls.at(a), ls.at(b); la != lb {
		return la - lb
	}
	return strings.Compare(a.Key(), b.Key())
}
