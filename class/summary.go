package class

import (
	"slices"

	"locksim/scenes"
)

// Summary is one student's class in numbers, for the report's summary
// row and the instructor's summary screen.
type Summary struct {
	// Finished counts the scenes of the course played to the end.
	Finished int
	// Asked counts the predictions given, Right those their own run made
	// true.
	Asked, Right int
	// QuizRight of QuizOf are the quizzes' latest scores, summed.
	QuizRight, QuizOf int
	// Levels are the lab's levels passed, by id.
	Levels []string
}

// Summarize is m's summary from its progress.
func Summarize(m Member) Summary {
	var s Summary
	for _, sc := range scenes.All() {
		if m.Prog.Done[sc.ID] {
			s.Finished++
		}
	}
	for _, a := range m.Prog.Answers {
		s.Asked++
		if a.Right {
			s.Right++
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
