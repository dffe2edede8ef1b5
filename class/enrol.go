package class

import (
	"strconv"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Enrolled is one row of the school's roster (-roster FILE; package
// gradebook reads it) as the class ties its students to it: by the row's
// SSH key, else by its name, else by the instructor's hand (Hub.Match).
type Enrolled struct {
	// Ref names the row in the class store's matches by hand: its SIS id,
	// LMS id, login or email, so a match outlives a restart while the
	// file keeps the row's ids (see gradebook.Roster.Enrolled).
	Ref string
	// Name is the row's name as the school writes it; Line its line in
	// the roster file.
	Name string
	Line int
	// KeyID is the class id of the row's SSH key (a student's Member.ID
	// when they join with it), "" for a row without one.
	KeyID string
	// Label is who the row is besides its name, for the instructor to
	// tell two rows of one name apart ("slee2 · S-5"); "" for nothing.
	Label string
}

// Tie is how a student is tied to a roster row.
type Tie string

const (
	// TieKey: the row names the key the student joined with.
	TieKey Tie = "key"
	// TieHand: the instructor matched them in the class view.
	TieHand Tie = "hand"
	// TieName: the name they gave is exactly one row's, a row with no key.
	TieName Tie = "name"
)

// Ties are a class's students tied to a roster's rows (see TieAll).
type Ties struct {
	// ByRow holds each row's students by its index in the rows (a
	// student who joined from two devices can be two).
	ByRow map[int][]Member
	// Row is each tied student's row index, How how they are tied, by
	// Member.ID.
	Row map[string]int
	How map[string]Tie
	// Unmatched are the students of no row, by name.
	Unmatched []Member
}

// TieAll ties the students among ms (instructors and projectors left
// out) to rows: a student whose key is a row's key is that row's; else
// one the instructor matched by hand (Member.Row, a row's Ref) is that
// row's; else one whose name, Unicode NFC and case folded, is exactly one
// row's name, and that row names no key (a row with a key is its key's
// alone, so no one takes it by typing a name). A match by hand to a Ref
// no row has any more (the file changed) counts for nothing.
func TieAll(rows []Enrolled, ms []Member) Ties {
	t := Ties{ByRow: map[int][]Member{}, Row: map[string]int{}, How: map[string]Tie{}}
	byKey, byRef, byName := map[string]int{}, map[string]int{}, map[string][]int{}
	for i, r := range rows {
		if r.KeyID != "" {
			byKey[r.KeyID] = i
		}
		if r.Ref != "" {
			byRef[r.Ref] = i
		}
		byName[FoldName(r.Name)] = append(byName[FoldName(r.Name)], i)
	}
	tie := func(m Member, i int, how Tie) {
		t.ByRow[i] = append(t.ByRow[i], m)
		t.Row[m.ID], t.How[m.ID] = i, how
	}
	for _, m := range ms {
		if m.Role != Student {
			continue
		}
		if i, ok := byKey[m.ID]; ok {
			tie(m, i, TieKey)
			continue
		}
		if i, ok := byRef[m.Row]; ok && m.Row != "" {
			tie(m, i, TieHand)
			continue
		}
		if named := byName[FoldName(m.Name)]; len(named) == 1 && rows[named[0]].KeyID == "" {
			tie(m, named[0], TieName)
			continue
		}
		t.Unmatched = append(t.Unmatched, m)
	}
	return t
}

// FoldName is a name as roster names are compared: Unicode NFC, case
// folded, its runs of spaces one.
func FoldName(name string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(strings.Join(strings.Fields(name), " "))))
}

// Matched is a match by hand: student ID is the roster row Ref ("" for
// none: the match is undone). Hub.Match keeps it and its watchers hear
// it (KindMatch).
type Matched struct {
	ID  string `json:"id"`
	Ref string `json:"ref"`
}

// withMatches puts each row's match by hand in it (Member.Row).
func withMatches(ms []Member, matches map[string]string) {
	for i := range ms {
		ms[i].Row = matches[ms[i].ID]
	}
}

// Enrolment is the class against the school's roster, as the
// instructor's class view shows it: the rows, the rows no student of the
// class is tied to (they have not joined), the students tied to no row,
// and how each student is tied.
type Enrolment struct {
	Rows    []Enrolled
	Missing []Enrolled
	Ties
}

// Enrol gives the instructor's part the school's roster (nil for none):
// the class view lists who has not joined and who matches no row, and
// the instructor matches the latter by hand (Match).
func (p *Part) Enrol(rows []Enrolled) { p.rows = rows }

// Enrolment is the class's students tied to the school's roster as last
// heard (the matches by hand as the class store keeps them, with this
// session's own at once); ok is false with no roster, or for a session
// that is not the instructor's.
func (p *Part) Enrolment() (e Enrolment, ok bool) {
	if p.role != Instructor || len(p.rows) == 0 {
		return Enrolment{}, false
	}
	e.Rows, e.Ties = p.rows, TieAll(p.rows, p.Students())
	for i, r := range p.rows {
		if len(e.ByRow[i]) == 0 {
			e.Missing = append(e.Missing, r)
		}
	}
	return e, true
}

// Matchable reports whether the instructor may match student id by hand:
// one tied to no row, or by hand (to match again, or undo it); a key's or
// a name's tie is the roster's, and note says so.
func (p *Part) Matchable(id string) (note string, ok bool) {
	e, ok := p.Enrolment()
	if !ok {
		return "the server was started with no -roster: there is no row to match", false
	}
	i, tied := e.Row[id]
	switch {
	case !tied || e.How[id] == TieHand:
		return "", true
	case e.How[id] == TieKey:
		return "roster line " + strconv.Itoa(e.Rows[i].Line) + " (" + e.Rows[i].Name + ") names their SSH key: nothing to match", false
	}
	return "their name is roster line " + strconv.Itoa(e.Rows[i].Line) + "'s (" + e.Rows[i].Name + "): nothing to match", false
}

// Match is the instructor's match by hand of student id to the roster row
// ref ("" undoes it): kept in the class store by the seat (every server
// of the class, and the report, see it), and in this part at once. A
// match Matchable refuses, or to a ref no row has, does nothing; note
// says what was done.
func (p *Part) Match(id, ref string) (note string) {
	if why, ok := p.Matchable(id); !ok {
		return why
	}
	m, _ := p.Member(id)
	if ref == "" {
		if p.matched[id] == "" {
			return ""
		}
		p.matched[id] = ""
		p.seat.Match(id, "")
		return m.Name + " matches no roster row again"
	}
	for _, r := range p.rows {
		if r.Ref == ref {
			p.matched[id] = ref
			p.seat.Match(id, ref)
			return m.Name + " is roster line " + strconv.Itoa(r.Line) + " (" + r.Name + ") in the class's grades"
		}
	}
	return ""
}

// Match keeps the instructor's match by hand of student id to roster row
// ref ("" for none) in the class store, from the seat's goroutine: tried
// again every Beat while the store does not answer.
func (s *Seat) Match(id, ref string) {
	s.mu.Lock()
	if s.matches == nil {
		s.matches = map[string]string{}
	}
	s.matches[id] = ref
	s.mu.Unlock()
	s.poke()
}

// flushMatches puts the matches by hand waiting in the seat; those the
// store did not take wait for the next try.
func (s *Seat) flushMatches() error {
	s.mu.Lock()
	due := s.matches
	s.matches = nil
	s.mu.Unlock()
	var err error
	for id, ref := range due {
		if err = s.hub.Match(s.ctx, s.info.Code, id, ref); err != nil {
			break
		}
		delete(due, id)
	}
	if len(due) > 0 {
		s.mu.Lock()
		for id, ref := range s.matches {
			due[id] = ref // a newer match, made meanwhile, wins
		}
		s.matches = due
		s.mu.Unlock()
	}
	return err
}

// MatchEvents are the matches by hand the rows ms hold (Member.Row, as
// Hub.Roster fills it), as the events that tell a part of them: a screen
// hands them to Heard with the roster it starts from.
func MatchEvents(ms []Member) []Event {
	var evs []Event
	for _, m := range ms {
		if m.Row != "" {
			evs = append(evs, Event{Kind: KindMatch, Match: &Matched{ID: m.ID, Ref: m.Row}})
		}
	}
	return evs
}
