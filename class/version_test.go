package class

import "testing"

// TestVersionCountsTheStudentsChanges: the part's Version moves on with
// each change to its students as heard (a row, an answer, a match by
// hand, the school's roster), and AskedOfStudents, worked out once per
// version, has a new answer as soon as it is heard.
func TestVersionCountsTheStudentsChanges(t *testing.T) {
	p := &Part{role: Instructor, roster: map[string]Member{}, matched: map[string]string{}}
	race := Question{Scene: "race", Name: PredictQuestion}
	ann := Member{V: RowVersion, ID: "ann", Name: "ann", Role: Student, Answers: map[string]Answer{}}
	heard := func(m Member) {
		t.Helper()
		before := p.Version()
		p.Heard([]Event{{Kind: KindMember, Member: &m}}, nil)
		if p.Version() == before {
			t.Fatalf("the version stayed %d after %s's row", before, m.Name)
		}
	}
	heard(ann)
	if qs := p.AskedOfStudents(); len(qs) != 0 {
		t.Fatalf("asked before any answer: %+v", qs)
	}
	ann.Answers = map[string]Answer{race.Key(): {Q: race, Chosen: 1, Actual: -1}}
	heard(ann)
	if qs := p.AskedOfStudents(); len(qs) != 1 || qs[0].Answered != 1 || qs[0].Chosen[1] != 1 {
		t.Fatalf("after ann's answer: %+v", qs)
	}
	before := p.Version()
	p.Enrol([]Enrolled{{Line: 2, Name: "Ann", Ref: "sis:1"}})
	if p.Version() == before {
		t.Errorf("the version stayed %d after the school's roster", before)
	}
	before = p.Version()
	p.Heard([]Event{{Kind: KindMatch, Match: &Matched{ID: "ann", Ref: "sis:1"}}}, nil)
	if p.Version() == before {
		t.Errorf("the version stayed %d after a match heard", before)
	}
}
