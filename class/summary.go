package class

import (
	"slices"
	"strings"

	"locksim/content"
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

// Answered is the class's answers to one scene's question, over every
// student's progress: for the instructor's summary at the end, never for
// a student (it says which answers came true).
type Answered struct {
	Scene string
	// Question and Choices are as the scene asks them at its first
	// settings (a student may have answered under others).
	Question string
	Choices  []string
	// Chosen counts, per choice, the students who predicted it; Asked is
	// their sum, Right how many of those their own run made true.
	Chosen       []int
	Asked, Right int
}

// Questions are the class's answers to every question of the course some
// student of ms answered, in the course's order.
func Questions(ms []Member) []Answered {
	var out []Answered
	for _, sc := range scenes.All() {
		if sc.Predict == nil || !sc.Sends() {
			continue
		}
		t, err := content.Load(sc.ID)
		if err != nil || !t.Has("choices") {
			continue
		}
		params := scenes.Params(nil)
		q := Answered{Scene: sc.ID, Question: strings.Join(strings.Fields(sc.Question(t, params, "predict")), " "),
			Choices: strings.Split(sc.Question(t, params, "choices"), "\n")}
		q.Chosen = make([]int, len(q.Choices))
		for _, m := range ms {
			a, ok := m.Prog.Answers[sc.ID]
			if m.Role != Student || !ok || a.Chosen < 0 || a.Chosen >= len(q.Choices) {
				continue
			}
			q.Chosen[a.Chosen]++
			q.Asked++
			if a.Right {
				q.Right++
			}
		}
		if q.Asked > 0 {
			out = append(out, q)
		}
	}
	return out
}
