package class

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"locksim/shown"
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

// NoRow is the Ref of the instructor's match by hand to no row: it unties
// a student their name alone would tie (one who typed a classmate's
// name), so the row is left to its student. No row's Ref is NoRow (a
// gradebook Ref is "kind:id").
const NoRow = "none"

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
// out) to rows: a student whose key is a row's key is that row's (a key
// is proof: nothing overrides it); else one the instructor matched by
// hand (Member.Row, a row's Ref) is that row's, and one matched to NoRow
// is of no row, whatever their name; else one whose name, Unicode NFC and
// case folded, is exactly one row's name, and that row names no key (a
// row with a key is its key's alone, so no one takes it by typing a
// name). A match by hand to a Ref no row has any more (the file changed)
// counts for nothing.
func TieAll(rows []Enrolled, ms []Member) Ties {
	return tieAll(rows, ms, &folder{})
}

// tieAll is TieAll folding names with f.
func tieAll(rows []Enrolled, ms []Member, f *folder) Ties {
	t := Ties{ByRow: make(map[int][]Member, len(rows)), Row: make(map[string]int, len(ms)), How: make(map[string]Tie, len(ms))}
	byKey, byRef, byName := map[string]int{}, make(map[string]int, len(rows)), make(map[string][]int, len(rows))
	for i, r := range rows {
		if r.KeyID != "" {
			byKey[r.KeyID] = i
		}
		if r.Ref != "" {
			byRef[r.Ref] = i
		}
		n := f.fold(r.Name)
		byName[n] = append(byName[n], i)
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
		if m.Row == NoRow {
			t.Unmatched = append(t.Unmatched, m)
			continue
		}
		if named := byName[f.fold(m.Name)]; len(named) == 1 && rows[named[0]].KeyID == "" {
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
	var f folder
	return f.fold(name)
}

// folder folds names (FoldName) and, with memo, keeps each name's fold:
// an instructor's part folds the same names at every change of the class.
type folder struct {
	memo map[string]string
}

func (f *folder) fold(name string) string {
	if n, ok := f.memo[name]; ok {
		return n
	}
	n := f.foldNew(name)
	if f.memo != nil {
		f.memo[name] = n
	}
	return n
}

func (f *folder) foldNew(name string) string {
	name = strings.Join(strings.Fields(name), " ")
	ascii := true
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(name) // NFC, and case folding, of ASCII
	}
	return norm.NFC.String(foldCase(norm.NFC.String(name)))
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
func (p *Part) Enrol(rows []Enrolled) {
	// a row's name and label are drawn as they are shown (shown.Line)
	p.rows = slices.Clone(rows)
	p.changed()
	for i := range p.rows {
		p.rows[i].Name, p.rows[i].Label = shown.Line(p.rows[i].Name), shown.Line(p.rows[i].Label)
	}
}

// Enrolled reports an instructor's part with the school's roster.
func (p *Part) Enrolled() bool { return p.role == Instructor && len(p.rows) > 0 }

// Enrolment is the class's students tied to the school's roster as last
// heard (the matches by hand as the class store keeps them, with this
// session's own at once); ok is false with no roster, or for a session
// that is not the instructor's. It is worked out again only after the
// class changed, and shared: its maps and slices are not to be changed.
func (p *Part) Enrolment() (e Enrolment, ok bool) {
	if !p.Enrolled() {
		return Enrolment{}, false
	}
	if p.enrolment != nil {
		return *p.enrolment, true
	}
	if p.folds == nil {
		p.folds = &folder{memo: map[string]string{}}
	}
	e.Rows, e.Ties = p.rows, tieAll(p.rows, p.Students(), p.folds)
	for i, r := range p.rows {
		if len(e.ByRow[i]) == 0 {
			e.Missing = append(e.Missing, r)
		}
	}
	p.enrolment = &e
	return e, true
}

// Matchable reports whether the instructor may match student id by hand:
// any student but one tied by their key, which is the roster's (a key is
// proof), and note says so. A student tied by name can be moved, or
// matched to no row (NoRow): the name may be a classmate's.
func (p *Part) Matchable(id string) (note string, ok bool) {
	e, ok := p.Enrolment()
	if !ok {
		return "the server was started with no -roster: there is no row to match", false
	}
	if i, tied := e.Row[id]; tied && e.How[id] == TieKey {
		return "roster line " + strconv.Itoa(e.Rows[i].Line) + " (" + e.Rows[i].Name + ") names their SSH key: nothing to match", false
	}
	return "", true
}

// Match is the instructor's match by hand of student id to the roster row
// ref ("" undoes it; NoRow ties them to no row, even their name's, and
// is kept as "" when their name ties them to none): kept in the class
// store by the seat (every server of the class, and the report, see it),
// and in this part at once. A match Matchable refuses, or to a ref no row
// has, does nothing; note says what was done.
func (p *Part) Match(id, ref string) (note string) {
	if why, ok := p.Matchable(id); !ok {
		return why
	}
	m, ok := p.Member(id)
	if !ok || m.Role != Student {
		return "" // only a student of the class has a row
	}
	m.Row = ""
	i, named := tieAll(p.rows, []Member{m}, &folder{}).Row[id] // with no match by hand
	if ref == NoRow {
		switch {
		case !named:
			ref = "" // undoing the match by hand is enough, and keeps no entry
		case p.matched[id] == NoRow:
			return ""
		default:
			p.matched[id] = NoRow
			p.changed()
			p.seat.Match(id, NoRow)
			return m.Name + " matches no roster row, not line " + strconv.Itoa(p.rows[i].Line) + " (" + p.rows[i].Name + ") by name"
		}
	}
	if ref == "" {
		if p.matched[id] == "" {
			return ""
		}
		p.matched[id] = ""
		p.changed()
		p.seat.Match(id, "")
		if named {
			return m.Name + " is roster line " + strconv.Itoa(p.rows[i].Line) + " (" + p.rows[i].Name + ") by name again"
		}
		return m.Name + " matches no roster row again"
	}
	for _, r := range p.rows {
		if r.Ref == ref {
			p.matched[id] = ref
			p.changed()
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
