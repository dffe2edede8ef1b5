package play

import "testing"

// TestDiscloseRule is the rule as a table: where the story stands against
// its question, whether it was answered, and who reads.
func TestDiscloseRule(t *testing.T) {
	for _, c := range []struct {
		name                         string
		s                            standing
		role                         Role
		open, state, checked, answer bool
		key                          bool
	}{
		{"no question", standing{at: -1, step: 3}, Learner, false, true, true, true, false},
		{"ahead, before its moment", standing{at: 5, moment: 4, step: 2}, Learner, true, true, false, false, false},
		{"ahead, in its moment", standing{at: 5, moment: 4, step: 4}, Projector, true, false, false, false, false},
		{"at it", standing{at: 5, moment: 5, step: 5}, Follower, true, false, false, false, false},
		{"at it, the instructor's own session", standing{at: 5, moment: 5, step: 5}, Instructor, true, false, false, true, true},
		{"at it, the notes file", standing{at: 5, moment: 5, step: 5}, NotesFile, true, false, false, true, true},
		{"at it, answered", standing{at: 5, moment: 5, step: 5, answered: true}, Learner, false, true, true, true, false},
		{"back before it, answered", standing{at: 5, moment: 5, step: 2, answered: true}, Cast, false, true, true, true, false},
		{"past it, passed to the class", standing{at: 5, moment: 5, step: 6}, Projector, false, true, true, true, false},
		{"a follower who answered, waiting", standing{at: 5, moment: 5, step: 5, answered: true, waiting: true}, Follower, false, false, false, false, false},
	} {
		d := disclose(c.s, c.role)
		if d.Open != c.open || d.State != c.state || d.Checked != c.checked || d.Answer != c.answer || d.Key != c.key {
			t.Errorf("%s: got %+v; want open %v, state %v, checked %v, answer %v, key %v", c.name, d, c.open, c.state, c.checked, c.answer, c.key)
		}
	}
}
