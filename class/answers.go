package class

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
)

// RowVersion is the form of the roster rows this locksim writes. Version 2
// keeps each member's answers per question (Member.Answers); a row written
// before it (version 0: the field is absent) kept only the prediction at
// the member's one current place, so a second question overwrote the
// first. Such a row is migrated as it is read (see migrate).
const RowVersion = 2

// PredictQuestion is the name of a story's question, the only one a
// scene of the course asks (its content's "predict" and "choices").
const PredictQuestion = "predict"

// OldStory is the Story of an answer migrated from a row of version 0
// that kept it per scene only (in the member's progress): the settings it
// was given under are not known, and the question's text is the one at
// the scene's first settings.
const OldStory = "settings not kept"

// Question names one question a class is asked: a scene's question in one
// story, under one set of settings. Two settings of one scene (the two
// stories of gc-pause's lesson) are two questions, each with its own text
// and its own answers.
type Question struct {
	Scene string `json:"scene"`
	// Story is the story of the scene the question is asked in: "" for
	// the scene's own (every scene of the course), OldStory for an answer
	// kept by an older locksim without its settings.
	Story string `json:"story,omitempty"`
	// Settings are the story's settings, those at their first value left
	// out.
	Settings map[string]int `json:"settings,omitempty"`
	// Name is the question's name in the scene (PredictQuestion).
	Name string `json:"name"`
}

// Key is q as one string, the same for the same question: the map key of
// Member.Answers ("gc-pause||pause=2|predict").
func (q Question) Key() string {
	set := nonZero(q.Settings)
	names := slices.Sorted(maps.Keys(set))
	var parts []string
	for _, n := range names {
		parts = append(parts, n+"="+strconv.Itoa(set[n]))
	}
	return q.Scene + "|" + q.Story + "|" + strings.Join(parts, ",") + "|" + q.Name
}

// Label names the question for a heading or a report's column: its scene
// and the settings that are not the first ("gc-pause, pause 20 s").
func (q Question) Label() string {
	sc := scenes.Find(q.Scene)
	out := q.Scene
	if q.Story == OldStory {
		return out + " (" + OldStory + ")"
	}
	if sc == nil {
		return out
	}
	set := nonZero(q.Settings)
	for _, k := range sc.Knobs {
		if v, ok := set[k.Name]; ok && v >= 0 && v < len(k.Values) {
			out += ", " + k.Name + " " + k.Values[v]
		}
	}
	return out
}

// Text is the question as its story asks it, and its choices; ok is false
// for a scene that asks none.
func (q Question) Text() (question string, choices []string, ok bool) {
	sc := scenes.Find(q.Scene)
	if sc == nil || sc.Predict == nil || !sc.Sends() {
		return "", nil, false
	}
	t, err := content.Load(sc.ID)
	if err != nil || !t.Has("choices") {
		return "", nil, false
	}
	params := scenes.Params(q.Settings)
	if q.Story == OldStory {
		params = scenes.Params(nil)
	}
	return strings.Join(strings.Fields(sc.Question(t, params, PredictQuestion)), " "),
		strings.Split(sc.Question(t, params, "choices"), "\n"), true
}

// QuestionOf is the question pos's story asks; ok is false for a story
// that asks none (a quiz, a scene without a question, a lab's story, a
// position that does not open).
func QuestionOf(pos play.Position) (Question, bool) {
	if pos.Lab != nil || pos.Trial != nil {
		return Question{}, false
	}
	sc := scenes.Find(pos.Scene)
	if sc == nil || sc.Predict == nil || !sc.Sends() {
		return Question{}, false
	}
	q := Question{Scene: sc.ID, Settings: nonZero(pos.Settings), Name: PredictQuestion}
	if len(q.Settings) == 0 {
		q.Settings = nil
	}
	if _, _, ok := q.Text(); !ok {
		return Question{}, false
	}
	return q, true
}

// Answer is one member's answer to one question.
type Answer struct {
	Q Question `json:"q"`
	// Chosen is the choice, 0-based.
	Chosen int `json:"chosen"`
	// At is when it was given, by the seat's clock.
	At time.Time `json:"at"`
	// Blind is set for an answer given out of the class's poll: the
	// member did not follow the instructor, so nothing held the move's
	// reply from them until the class's reveal (they may have seen it
	// first). A follower's answer is never blind.
	Blind bool `json:"blind,omitempty"`
	// Ran is set once the member's own run has made the move the question
	// comes before; Actual is then what its replies answered, -1 when
	// they made none of the choices true.
	Ran    bool `json:"ran,omitempty"`
	Actual int  `json:"actual"`
}

// Right reports that the member's own run made the answer true.
func (a Answer) Right() bool { return a.Ran && a.Actual == a.Chosen }

// record is answers with what row says at its place: an answer given
// there (new, or changed before its run made the move), and, once the
// run made it, what it answered. An answer whose run has made the move
// is final: a later one to the same question (a replay, after the reply
// was seen) does not replace it. blind is the new answer's Blind. The
// map returned is a new one when anything changed.
func record(answers map[string]Answer, row Member, now time.Time, blind bool) map[string]Answer {
	if row.OnContents || row.Pos.Prediction == nil || row.Pos.Prediction.Chosen < 0 {
		return answers
	}
	q, ok := QuestionOf(row.Pos)
	if !ok {
		return answers
	}
	key := q.Key()
	a, had := answers[key]
	switch {
	case !had || !a.Ran && a.Chosen != row.Pos.Prediction.Chosen:
		a = Answer{Q: q, Chosen: row.Pos.Prediction.Chosen, At: now, Blind: blind, Actual: -1}
	case a.Ran || a.Chosen != row.Pos.Prediction.Chosen:
		return answers
	}
	if row.Revealed {
		a.Ran, a.Actual = true, row.Actual
	}
	if old := answers[key]; had && a.Chosen == old.Chosen && a.Ran == old.Ran && a.Actual == old.Actual && a.At.Equal(old.At) {
		return answers
	}
	out := maps.Clone(answers)
	if out == nil {
		out = map[string]Answer{}
	}
	out[key] = a
	return out
}

// mergeAnswers is own with the answers of prior it lacks: a member who
// sits again keeps what the class kept of them.
func mergeAnswers(prior, own map[string]Answer) map[string]Answer {
	if len(prior) == 0 {
		return own
	}
	out := maps.Clone(own)
	if out == nil {
		out = map[string]Answer{}
	}
	for k, a := range prior {
		if _, ok := out[k]; !ok {
			out[k] = a
		}
	}
	return out
}

// migrate brings a row of an older locksim (RowVersion 0) to this one:
// the prediction at its place becomes its answer to that place's
// question, exactly (settings, whether its run made the move, what it
// answered); each answer its progress kept per scene that is not that
// one becomes an answer to the scene's question with its settings not
// known (Story OldStory), judged as the progress judged it. When it was
// given is not known: the row's StepAt (or Seen) stands for it.
func migrate(m *Member) {
	if m.V >= RowVersion {
		return
	}
	m.V = RowVersion
	if m.Answers != nil {
		return
	}
	at := m.StepAt
	if at.IsZero() {
		at = m.Seen
	}
	var here Answer
	var hasHere bool
	if q, ok := QuestionOf(m.Pos); ok && !m.OnContents && m.Pos.Prediction != nil && m.Pos.Prediction.Chosen >= 0 {
		here = Answer{Q: q, Chosen: m.Pos.Prediction.Chosen, At: at, Blind: !m.Following, Actual: -1}
		if m.Revealed {
			here.Ran, here.Actual = true, m.Actual
		}
		hasHere = true
		m.Answers = map[string]Answer{q.Key(): here}
	}
	for _, id := range slices.Sorted(maps.Keys(m.Prog.Answers)) {
		p := m.Prog.Answers[id]
		if hasHere && here.Q.Scene == id && here.Ran && here.Chosen == p.Chosen {
			continue // the progress's answer is the one at the place
		}
		q := Question{Scene: id, Story: OldStory, Name: PredictQuestion}
		if _, _, ok := q.Text(); !ok {
			continue
		}
		a := Answer{Q: q, Chosen: p.Chosen, At: at, Ran: true, Actual: -1}
		if p.Right {
			a.Actual = p.Chosen
		}
		if m.Answers == nil {
			m.Answers = map[string]Answer{}
		}
		m.Answers[q.Key()] = a
	}
}

// Asked is one question's answers over the class, for the class view, the
// summary and the report.
type Asked struct {
	Q        Question
	Question string
	Choices  []string
	// Chosen counts, per choice, the students who answered it; Answered
	// is their sum, Blind how many of those were blind (see Answer.Blind).
	Chosen          []int
	Answered, Blind int
	// Actual counts, per choice, the students whose own run made it true;
	// Ran is how many runs have made the move, NoneTrue those whose
	// replies made no choice true, Right those that made the student's
	// own answer true.
	Actual               []int
	Ran, NoneTrue, Right int
	// First is when the first answer came.
	First time.Time
}

// NotRun counts the students who answered whose run has not yet made
// the move: their predictions are not yet true, nor false.
func (a Asked) NotRun() int { return a.Answered - a.Ran }

// Headline is the question's answers in one line ("9 of 10 answered ·
// most chose 2 (7)"), of students in the story.
func (a Asked) Headline(of int) string {
	return Poll{Of: of, Guesses: a.Chosen, Answered: a.Answered}.Headline()
}

// AskedOf is every question some student of ms answered, each with its
// own text and counts, in the course's order, a scene's questions in its
// lesson's order (then by their key), the older locksim's answers of a
// scene last.
func AskedOf(ms []Member) []Asked {
	byKey := map[string]*Asked{}
	for _, m := range ms {
		if m.Role != Student {
			continue
		}
		migrate(&m)
		for key, a := range m.Answers {
			q, ok := byKey[key]
			if !ok {
				text, choices, ok := a.Q.Text()
				if !ok {
					continue
				}
				q = &Asked{Q: a.Q, Question: text, Choices: choices, Chosen: make([]int, len(choices)), Actual: make([]int, len(choices))}
				byKey[key] = q
			}
			if a.Chosen < 0 || a.Chosen >= len(q.Choices) {
				continue
			}
			q.Chosen[a.Chosen]++
			q.Answered++
			if a.Blind {
				q.Blind++
			}
			if q.First.IsZero() || a.At.Before(q.First) {
				q.First = a.At
			}
			if a.Ran {
				q.Ran++
				if a.Actual >= 0 && a.Actual < len(q.Choices) {
					q.Actual[a.Actual]++
				} else {
					q.NoneTrue++
				}
				if a.Right() {
					q.Right++
				}
			}
		}
	}
	order := map[string]int{}
	for i, id := range scenes.IDs() {
		order[id] = i
	}
	var out []Asked
	for _, q := range byKey {
		out = append(out, *q)
	}
	// sort.Slice, not slices.SortFunc: sort.Slice's code is shared, where
	// the generic sort compiles its own for each struct type sorted (about
	// 16 KB of the binary for this one).
	ls := lessons{}
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Q.Scene != b.Q.Scene {
			return order[a.Q.Scene] < order[b.Q.Scene]
		}
		return ls.order(a.Q, b.Q) < 0
	})
	return out
}

// lessons are the scenes a sort of questions has read, by id: scenes.Find
// builds a scene afresh, and a sort compares each question many times (a
// scene built per comparison was most of a summary page's drawing).
type lessons map[string]*scenes.Scene

// at is where q's settings come in its scene's lesson, past the end for
// settings the lesson does not walk.
func (l lessons) at(q Question) int {
	sc, ok := l[q.Scene]
	if !ok {
		sc = scenes.Find(q.Scene)
		l[q.Scene] = sc
	}
	if sc == nil {
		return 0
	}
	for i, p := range sc.Lesson {
		if sameSettings(p, q.Settings) {
			return i
		}
	}
	if len(sc.Lesson) == 0 && len(nonZero(q.Settings)) == 0 {
		return 0
	}
	return len(sc.Lesson)
}

// cell is a member's answer as the report writes it: the choice's number,
// then "right" or "wrong" once their own run made the move, then "blind"
// for a blind one ("2 right blind"); "" for no answer.
func (a Answer) cell() string {
	s := strconv.Itoa(a.Chosen + 1)
	if a.Ran {
		s += map[bool]string{true: " right", false: " wrong"}[a.Right()]
	}
	if a.Blind {
		s += " blind"
	}
	return s
}

// column is the report's header of q's column: its label and its text.
func (a Asked) column() string {
	return fmt.Sprintf("%s: %s", a.Q.Label(), a.Question)
}
