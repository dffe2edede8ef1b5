package class

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/play"
	"locksim/scenes"
)

// PollState is where the instructor stands against a story's question.
type PollState int

const (
	// Before: the question comes later in the story.
	Before PollState = iota
	// Open: the instructor stands at the question; answers arrive.
	Open
	// Revealed: the instructor has run the decisive move; each student's
	// own run answers as it gets there.
	Revealed
)

// Poll is the class's answers to the question of the story the
// instructor stands in, counted from the roster.
type Poll struct {
	// Q is the question polled: the poll counts the answers to it.
	Q        Question
	Scene    string
	Settings map[string]int
	// Question is the question as the story asks it, Choices its answers.
	Question string
	Choices  []string
	// At is the step the question comes before.
	At    int
	State PollState
	// Of is how many students are in the same story (scene and settings):
	// online, or gone after answering, whose answers stay; Elsewhere how
	// many are online in another.
	Of, Elsewhere int
	// Guesses counts, per choice, the students who predicted it;
	// Answered is their sum.
	Guesses  []int
	Answered int
	// Blind is how many of the answers were blind (see Answer.Blind).
	Blind int
	// Waiting are the names of the students online in the same story who
	// have not answered yet, in roster order: whom the instructor waits for.
	Waiting []string
	// Actual counts, per choice, the students whose own run made it true
	// (their tokens and races differ); Ran is how many runs have got
	// there, NoneTrue those whose replies made no choice true.
	Actual   []int
	Ran      int
	NoneTrue int
}

// Tally is the poll of the question of the story lead stands in: the
// students' answers to that question (its scene, story and settings; an
// answer to another question of the scene, the lesson's other story, is
// that question's, see AskedOf), counted over the students of ms online
// at now in that story, and those who answered it wherever they are now
// or gone since: an answer given stays in its poll when its student goes
// on, leaves, or their server dies. ok is false when that story asks no
// question (a quiz, a scene without one, a position that does not open).
func Tally(lead play.Position, ms []Member, now time.Time) (p Poll, ok bool) {
	q, ok := QuestionOf(lead)
	if !ok {
		return Poll{}, false
	}
	sc := scenes.Find(lead.Scene)
	params := scenes.Params(lead.Settings)
	at := play.QuestionAt(sc, params, lead.Own)
	if at < 0 {
		return Poll{}, false
	}
	text, choices, _ := q.Text()
	p = Poll{Q: q, Scene: sc.ID, Settings: lead.Settings, At: at, Question: text, Choices: choices}
	switch {
	case lead.Step > at || sc.FiresAtOnce() && lead.Race != nil:
		p.State = Revealed
	case lead.Step == at:
		p.State = Open
	}
	key := q.Key()
	p.Guesses, p.Actual = make([]int, len(p.Choices)), make([]int, len(p.Choices))
	for _, m := range ms {
		if m.Role != Student {
			continue
		}
		migrate(&m)
		a, answered := m.Answers[key]
		answered = answered && a.Chosen >= 0 && a.Chosen < len(p.Choices)
		same := m.Pos.Scene == lead.Scene && sameSettings(m.Pos.Settings, lead.Settings) && !m.OnContents
		switch {
		case answered:
		case !m.Here(now):
			continue
		case !same:
			p.Elsewhere++
			continue
		}
		p.Of++
		if !answered {
			p.Waiting = append(p.Waiting, m.Name)
			continue
		}
		p.Guesses[a.Chosen]++
		p.Answered++
		if a.Blind {
			p.Blind++
		}
		if a.Ran {
			p.Ran++
			if a.Actual >= 0 && a.Actual < len(p.Choices) {
				p.Actual[a.Actual]++
			} else {
				p.NoneTrue++
			}
		}
	}
	return p, true
}

// Asking is the scene whose question the class led to l has open: the
// instructor's place is in a story that asks, at or before its question
// (the poll's Before or Open, Tally), so the class has not seen it
// answered. ok is false on the contents, in a story that asks nothing, or
// past the question (Revealed). While a class asks, what answers the
// scene's question stays off every page a student may open on its
// server (the web's handout, a code's transcript or cast past it).
func Asking(l Lead) (scene string, ok bool) {
	if l.Contents || l.Pos.Scene == "" {
		return "", false
	}
	p, ok := Tally(l.Pos, nil, time.Time{})
	if !ok || p.State == Revealed {
		return "", false
	}
	return p.Scene, true
}

// sameSettings compares two settings, a setting left out being its
// first value.
func sameSettings(a, b map[string]int) bool {
	// as nonZero(a) and nonZero(b) compared, without making them: a sort
	// of questions compares settings at every comparison
	for k, v := range a {
		if v != 0 && b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if v != 0 && a[k] != v {
			return false
		}
	}
	return true
}

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// Headline is the poll in one line: how many of the students in the
// story have answered, the count an instructor paces by, and then the
// most chosen answer by its number, every one of them when several tie
// ("32 of 33 answered · most chose 1 and 2, 11 each").
func (p Poll) Headline() string {
	if p.Answered == 0 {
		return fmt.Sprintf("no prediction yet from the %s in this story", students(p.Of))
	}
	head := fmt.Sprintf("%d of %d answered", p.Answered, p.Of)
	top := slices.Max(p.Guesses)
	var most []string
	for i, n := range p.Guesses {
		if n == top {
			most = append(most, strconv.Itoa(i+1))
		}
	}
	if len(most) == 1 {
		return head + fmt.Sprintf(" · most chose %s (%d)", most[0], top)
	}
	return head + fmt.Sprintf(" · most chose %s, %d each", strings.Join(most[:len(most)-1], ", ")+" and "+most[len(most)-1], top)
}

// WaitingLine names the students the question waits for, as many as fit
// in width columns, and how many more there are: "waiting for: Ada, Bo
// and 3 more"; "" when every one has answered.
func (p Poll) WaitingLine(width int) string {
	if len(p.Waiting) == 0 {
		return ""
	}
	line := "waiting for: "
	for i, name := range p.Waiting {
		rest := len(p.Waiting) - i - 1
		next := line
		if i > 0 {
			next += ", "
		}
		next += name
		tail := ""
		if rest > 0 {
			tail = fmt.Sprintf(" and %d more", rest)
		}
		if len([]rune(next+tail)) > width && i > 0 {
			return line + fmt.Sprintf(" and %d more", len(p.Waiting)-i)
		}
		line = next
	}
	return line
}

// students is n students as a sentence says it.
func students(n int) string {
	if n == 1 {
		return "1 student"
	}
	return fmt.Sprintf("%d students", n)
}
