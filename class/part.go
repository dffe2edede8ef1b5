package class

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/shown"
)

// Part is one session's part in a class: the class's protocol, with no
// drawing. A screen (or a test) hands it what happens, the class's
// events (Heard), the learner's keys as operations (Follow, AskFollow,
// Hold, Release, MoveAway, Reveal, StepPast) and the session's place after
// every change (Report, which for the instructor is the leader's step),
// and does what the Effect an operation returns asks. Every class state a
// session has is here; the screen keeps only what it draws. A Part is
// used from one goroutine (the session's), as its screen is.
type Part struct {
	seat *Seat
	role Role
	code string
	now  func() time.Time

	// lead is the class's place as last heard; asked is set while the
	// instructor asks the class to follow (as a student last heard)
	lead  *Lead
	asked bool
	// following: a student replays to the instructor's place (a projector
	// always does)
	following bool
	// follow and hold: the instructor's ask to follow and hold, to put; a
	// student's hold as last heard (held only while asked to follow)
	follow, hold bool
	// away is set while the instructor's session has stopped beating
	away bool
	// out is set while the class store is unreachable to the seat (see
	// Store); kept while a step the instructor took then waits in the
	// seat, to be told if it loses to a newer move when the store returns
	out, kept bool
	// refused is set when a held student's key was refused, until the
	// next key
	refused bool
	roster  map[string]Member
	// rows are the school's roster (Enrol), matched the students matched
	// to its rows by hand as last heard (Hub.Match), by member id
	rows    []Enrolled
	matched map[string]string
	// enrolment is the last Enrolment, nil once the class changed; folds
	// the names it folded
	enrolment *Enrolment
	folds     *folder
	// students is Students' last answer, sorted, nil once the roster or
	// a match changed: the screen asks for it at every key
	students []Member
	// version counts those changes (Version); asked is AskedOfStudents'
	// last answer, worked out at version askedAt
	version, askedAt uint64
	askedOf          []Asked
	// wanted is a place to go once the screen's running move is done
	wanted *Go
	// reported and led are the row and the place last handed to the seat
	reported, led string
	// warned is the step at which the instructor was told how many have
	// answered, and that count: a second step there, with no new answer
	// since, runs the move (see Reveal)
	warned, warnedCount int
	// place names the instructor's place as Since last saw it (scene,
	// settings, step), placeSince when it got there; classPlace the
	// class's place as last heard or put with its time (Lead.At),
	// classSince that time
	place, classPlace      string
	placeSince, classSince time.Time
}

// Go is a place the session's screen is to go to, as a visit of kind
// Visit (see play.Course.Visit): the class's place for a follower
// (play.VisitFollow), a projector (play.VisitProject) or the instructor
// (play.NotVisiting), or a student's run the instructor shows
// (play.VisitRun).
type Go struct {
	Pos   play.Position
	Visit play.Visit
}

// Effect is what an operation asks of the session's screen; its zero
// value asks nothing.
type Effect struct {
	// Note is a one-time note for the screen to show; "" for none.
	Note string
	// Go is a place to go to; nil for none.
	Go *Go
	// Followed is set when the student started following: their run
	// waits at the question for the instructor's move. Unfollowed is set
	// when they stopped: their run leads itself again.
	Followed, Unfollowed bool
	// Contents asks the instructor's session to go to the course's
	// contents: another session of theirs is there (Lead.Contents), and
	// one leader per class means this one is too.
	Contents bool
}

// Still is the note of a step a student's own run may not take past the
// class's open question (see StepPast).
const Still = "the class is still answering this question · the move runs when the instructor reveals it"

// HeldNote is what a held follower is told of a key that would leave the
// instructor's place.
const HeldNote = "the class is held: you stay on the instructor's place until they release it"

// UnknownLeadNote is what a session is told when the class's place is
// one this locksim cannot open (play.Position.Check): a newer locksim's
// form or scene, or a lead of a form it does not know. It stays where it
// is; the next place it can open moves it as before.
const UnknownLeadNote = "the instructor's place is not one this locksim opens · you stay here"

// ContentsNote is what a student's F is told while the instructor is on
// the contents (Lead.Contents): they follow, and there is no scene to
// go to until the instructor opens one.
const ContentsNote = "following the instructor · their next scene opens here"

// Join sits m in the class with code (see Sit) and is its part.
func Join(ctx context.Context, hub Hub, code string, m Member, now func() time.Time) (*Part, error) {
	seat, err := Sit(ctx, hub, code, m, now)
	if err != nil {
		return nil, err
	}
	return NewPart(seat, now), nil
}

// NewPart is the part of the session seat sits for; now tells the time
// (nil for time.Now).
func NewPart(seat *Seat, now func() time.Time) *Part {
	if now == nil {
		now = time.Now
	}
	m := seat.Member()
	return &Part{seat: seat, role: m.Role, code: seat.Info().Code, now: now, roster: map[string]Member{}, matched: map[string]string{}, following: m.Role == Projector}
}

// Seat is the part's seat.
func (p *Part) Seat() *Seat { return p.seat }

// Role is the session's role.
func (p *Part) Role() Role { return p.role }

// Code is the class's code.
func (p *Part) Code() string { return p.code }

// Now is the class's time.
func (p *Part) Now() time.Time { return p.now() }

// Lead is the class's place as last heard; nil before the first.
func (p *Part) Lead() *Lead { return p.lead }

// Following reports a student (or projector) replaying to the class's place.
func (p *Part) Following() bool { return p.following }

// Asked reports, for a student, that the instructor asks the class to
// follow; for the instructor, that they ask it.
func (p *Part) Asked() bool {
	if p.role == Instructor {
		return p.follow
	}
	return p.asked
}

// Holding reports, for the instructor, that they hold the class; for a
// student, that the class is held as last heard.
func (p *Part) Holding() bool { return p.hold }

// Away reports that the instructor's session has stopped beating.
func (p *Part) Away() bool { return p.away }

// OutOfTouch reports that the class store is unreachable to the
// session's seat: the instructor's step, and answers, wait in it.
func (p *Part) OutOfTouch() bool { return p.out }

// Refused reports that the student's last key was refused by the hold.
func (p *Part) Refused() bool { return p.refused }

// Held reports a student held on the instructor's place: the class is
// held, the student follows, and the instructor is there.
func (p *Part) Held() bool {
	return p.role == Student && p.following && p.hold && !p.away
}

// Member is the roster's row of id, as last heard.
func (p *Part) Member(id string) (Member, bool) {
	m, ok := p.roster[id]
	return m, ok
}

// Students are the class's students as last heard, by name.
func (p *Part) Students() []Member {
	if p.students == nil {
		for _, m := range p.roster {
			if m.Role == Student {
				m.Row = p.matched[m.ID]
				p.students = append(p.students, m)
			}
		}
		sortRoster(p.students)
	}
	return slices.Clone(p.students)
}

// Resume is where a student who followed on another server (or before a
// restart) stood in the class's story, to be put back there following
// again (then Resumed); ok is false when they did not follow (or are not
// a student). ran is whether their run had made the move their answer
// waits for.
func (p *Part) Resume() (pos play.Position, ran, ok bool) {
	before, had := p.seat.Before()
	if !had || p.role != Student || !before.Following || before.OnContents || before.Pos.Scene == "" {
		return play.Position{}, false, false
	}
	return before.Pos, before.Revealed, true
}

// Resumed says the student is back at the place Resume gave, following.
func (p *Part) Resumed() { p.following = p.role == Student }

// Key says the learner pressed a key: the roster's time since the last
// key, and a refused key's note lasts until the next.
func (p *Part) Key() {
	if p.role != Projector {
		p.seat.Key()
	}
	p.refused = false
}

// Heard takes the class's events, and news of the instructor's presence
// (away nil for none): the roster's rows, and the class's place, which a
// follower goes to, a student is told of when the instructor asks the
// class to follow or holds it, and every session of the instructor
// redraws from (one leader per class), saying so when its own move lost
// the race to it.
func (p *Part) Heard(evs []Event, away *bool) Effect {
	if away != nil {
		p.away = *away
	}
	var out Effect
	for _, e := range evs {
		switch {
		case e.Kind == KindMember && e.Member != nil:
			// the one place a row's name enters what the screens draw:
			// a control or a bidi override in it is shown, not obeyed
			m := *e.Member
			m.Name = shown.Line(m.Name)
			p.roster[m.ID] = m
			p.changed()
		case e.Kind == KindMatch && e.Match != nil:
			p.matched[e.Match.ID] = e.Match.Ref
			p.changed()
		case e.Kind == KindStore && e.Store != nil:
			if note := p.heardStore(*e.Store); note != "" && out.Note == "" {
				out.Note = note
			}
		case e.Kind == KindLead && e.Lead != nil:
			if p.lead != nil && p.lead.Seq > e.Lead.Seq {
				continue
			}
			ef := p.heardLead(*e.Lead, e.Lost)
			if ef.Note == "" {
				ef.Note = out.Note
			}
			ef.Unfollowed = ef.Unfollowed || out.Unfollowed
			out = ef
		}
	}
	return out
}

// OutNote is what the instructor is told when the class store stops
// answering; OutStudentNote what a student is.
const (
	OutNote        = "the class store is unreachable; your step is kept and sent when it returns"
	OutStudentNote = "the class is out of touch · your answers are kept and sent when it returns"
	// BackNote is what everyone is told when it answers again.
	BackNote = "the class is back in touch"
	// KeptLostNote is what the instructor is told when the step kept
	// during an outage lost to a newer move from another of their
	// sessions (see Seat.Lead): it is dropped.
	KeptLostNote = "the step kept while the class store was unreachable lost to a newer move from another session of yours · this is the class's place now"
)

// heardStore takes the class store's state as the seat found it, and is
// the note to show ("" for none).
func (p *Part) heardStore(st Store) string {
	if st.Down == p.out {
		return ""
	}
	p.out = st.Down
	switch {
	case p.role == Projector:
		return ""
	case st.Down && p.role == Instructor:
		return OutNote
	case st.Down:
		return OutStudentNote
	}
	return BackNote
}

func (p *Part) heardLead(l Lead, lost bool) Effect {
	seen := p.lead != nil
	p.lead = &l
	if !l.At.IsZero() {
		p.classPlace, p.classSince = placeKey(l.Pos), l.At
	}
	switch p.role {
	case Instructor:
		kept := p.kept
		if l.By == p.seat.ID() && !lost {
			p.kept = false
			return Effect{} // this session's own move, back from the class
		}
		if lost {
			p.kept = false
		}
		p.follow, p.hold = l.Follow, l.Hold
		if data, err := json.Marshal(Lead{Pos: l.Pos, Follow: l.Follow, Hold: l.Hold, Contents: l.Contents}); err == nil {
			p.led = string(data)
		}
		var ef Effect
		switch {
		case lost && kept:
			ef.Note = KeptLostNote
		case lost && seen:
			ef.Note = "your move lost the race: another session of yours moved the class first · this is the class's place now"
		}
		if l.Contents {
			ef.Contents = true // no scene: never the one under the contents
		} else {
			ef.Go = &Go{Pos: l.Pos, Visit: play.NotVisiting}
		}
		return ef
	case Projector:
		if l.Contents {
			return Effect{} // the last scene led stays on the wall
		}
		return Effect{Go: &Go{Pos: l.Pos, Visit: play.VisitProject}}
	}
	var ef Effect
	held := l.Hold && l.Follow
	switch {
	case held && !p.hold && !p.following:
		ef.Note = "the instructor holds the class · F follows, until they release it"
	case l.Follow && !p.asked && !p.following:
		ef.Note = "the instructor asks the class to follow · F follows"
	case !l.Follow && p.following:
		ef = p.unfollow("the instructor stopped leading · esc goes back to your own place")
	case held && !p.hold && p.following:
		// no note: it would stand in the verdict's and the ⚠'s place
		// until the next key; the class's line says the class is held
	case !held && p.hold && p.following:
		ef.Note = "the instructor released the class · F leaves follow mode"
	}
	p.asked, p.hold = l.Follow, held
	if p.following && !l.Contents {
		// on the contents the instructor leads no scene: a follower stays
		// at the last place led until they open one
		ef.Go = &Go{Pos: l.Pos, Visit: play.VisitFollow}
	}
	return ef
}

// Follow is a student's F: they follow the instructor (to their place at
// once) or leave follow mode; a held follower's is refused.
func (p *Part) Follow() Effect {
	switch {
	case p.role != Student:
		return Effect{}
	case p.Held():
		p.refused = true
		return Effect{}
	case p.following:
		return p.unfollow("you left follow mode: this is still the instructor's place · esc goes back to your own · F follows again")
	case p.lead == nil:
		return Effect{Note: "the instructor has not opened a scene yet"}
	case p.lead.Contents:
		// a follower waits where they are: the instructor's next scene
		// comes to them with the place that leads it (Heard)
		p.following = true
		return Effect{Followed: true, Note: ContentsNote}
	}
	p.following = true
	return Effect{Followed: true, Go: &Go{Pos: p.lead.Pos, Visit: play.VisitFollow}}
}

// Leave takes a student out of follow mode with note.
func (p *Part) Leave(note string) Effect { return p.unfollow(note) }

func (p *Part) unfollow(note string) Effect {
	p.following, p.wanted = false, nil
	return Effect{Note: note, Unfollowed: true}
}

// AskFollow is the instructor's F: they ask the class to follow, or stop
// asking (which releases a hold).
func (p *Part) AskFollow() Effect {
	if p.role != Instructor {
		return Effect{}
	}
	p.follow = !p.follow
	if p.follow {
		return Effect{Note: "the class is asked to follow: students who accept see your scene and step"}
	}
	p.hold = false // a class not asked to follow is held by nothing
	return Effect{Note: "the class is no longer asked to follow"}
}

// Hold is the instructor's H while the class is not held: they hold it
// (asking it to follow, if it was not); Release lets it go.
func (p *Part) Hold() Effect {
	if p.role != Instructor {
		return Effect{}
	}
	p.hold, p.follow = true, true
	return Effect{Note: "the class is held: followers stay on your place until H in the class view releases it"}
}

// Release is the instructor's H while the class is held.
func (p *Part) Release() Effect {
	if p.role != Instructor {
		return Effect{}
	}
	p.hold = false
	return Effect{Note: "the class is released: followers may leave follow mode again"}
}

// MoveAway is a key that would take the session's story away from the
// instructor's place (a step, a setting, an own move, another scene):
// refused for a held follower (Refused says so until the next key) and,
// with a note saying how to leave, for a follower; a projector's keys
// move nothing. ok is true when the key may go on.
func (p *Part) MoveAway() (note string, ok bool) {
	switch {
	case p.role == Projector:
		return "", false
	case p.Held():
		p.refused = true
		return "", false
	case p.following:
		return "you are following the instructor · F leaves follow mode", false
	}
	return "", true
}

// openQuestion is the question the class's poll has open (the
// instructor stands at it, its move not run) and its step; ok is false
// for none, or while the instructor is away.
func (p *Part) openQuestion() (q Question, at int, ok bool) {
	if p.lead == nil || p.away || !p.lead.Follow || p.lead.Contents {
		return Question{}, 0, false // a poll is the class's while it is led
	}
	l := p.lead.Pos
	q, ok = QuestionOf(l)
	if !ok {
		return Question{}, 0, false
	}
	sc := scenes.Find(l.Scene)
	at = play.QuestionAt(sc, scenes.Params(l.Settings), l.Own)
	if at < 0 || l.Step != at || sc.FiresAtOnce() && l.Race != nil {
		return Question{}, 0, false
	}
	return q, at, true
}

// PollHolds is the class's rule for a student out of follow mode at an
// open poll: they may explore, but while the class's poll on a question
// is open (the instructor, there, has not run its move) and their own
// run, at own, stands at that same question (scene, story, settings), it
// asks them like everyone, and the move past it waits until the
// instructor reveals; their answer is then an answer of the poll, not a
// blind one. It reports that own is held so.
func (p *Part) PollHolds(own play.Position) bool {
	if p.role != Student || p.following {
		return false
	}
	q, _, ok := p.openQuestion()
	if !ok {
		return false
	}
	mine, ok := QuestionOf(own)
	if !ok || mine.Key() != q.Key() {
		return false
	}
	sc := scenes.Find(own.Scene)
	return own.Step == play.QuestionAt(sc, scenes.Params(own.Settings), own.Own)
}

// StepPast is a student's key that would run their own run's next move
// from own: refused with Still while PollHolds(own). ok is true when the
// step may go on.
func (p *Part) StepPast(own play.Position) (note string, ok bool) {
	if p.PollHolds(own) {
		return Still, false
	}
	return "", true
}

// Reveal is the instructor's step at lead, a position at its story's
// open question (asking set while the screen asks it there): while
// students of the story have not answered, the first step runs nothing
// and its note says how many have; a second step there, with no answer
// since, runs the move (ok). A clicker's quick presses would run it
// before anyone could answer.
func (p *Part) Reveal(lead play.Position, asking bool) (note string, ok bool) {
	if p.role != Instructor || !asking {
		return "", true
	}
	at := lead.Step + 1 // 0 is never a question's step: warned's zero value is "not yet"
	poll, found := p.Poll(lead)
	if !found || poll.Of == 0 || poll.Answered >= poll.Of || p.warned == at && p.warnedCount == poll.Answered {
		return "", true
	}
	p.warned, p.warnedCount = at, poll.Answered
	return fmt.Sprintf("%d of %d have answered · → again to step", poll.Answered, poll.Of), false
}

// Poll is the class's poll at lead (the instructor's place; see Tally),
// over the students as last heard: what the instructor asks the room and
// how it has answered. ok is false where lead asks no question.
func (p *Part) Poll(lead play.Position) (Poll, bool) {
	return Tally(lead, p.Students(), p.now())
}

// Since is when the class came to the instructor's place lead (scene,
// settings and step): the class store's time (Lead.At) when the class's
// place as last heard or put is lead, else when this part first saw it, by the
// class's clock: an open question's age, which a second session of the
// instructor's (another server, a reconnect) must not start again. The
// instructor's session asks it at every change.
func (p *Part) Since(lead play.Position) time.Time {
	key := placeKey(lead)
	if key != p.place {
		p.place, p.placeSince = key, p.now()
	}
	if p.classPlace == key {
		return p.classSince
	}
	return p.placeSince
}

// placeKey names pos's place as Since compares them: its scene, settings
// and step.
func placeKey(pos play.Position) string {
	data, _ := json.Marshal(struct {
		Scene    string
		Settings map[string]int
		Step     int
	}{pos.Scene, nonZero(pos.Settings), pos.Step})
	return string(data)
}

// Report hands the class the session's row as it stands after a change
// (its place, what its run answered, its progress; Following is the
// part's): put when it changed, an answer in it blind unless the student
// follows or their poll holds them (PollHolds). For the instructor it is
// also the leader's step: the class's place, if it changed, is moved by
// a compare-and-set on the version this session last saw (see
// Seat.Lead); on the contents (row.OnContents) that place is no scene
// (Lead.Contents).
func (p *Part) Report(row Member) {
	row.Following = p.following
	if data, err := json.Marshal(row); err == nil && string(data) != p.reported {
		p.reported = string(data)
		p.seat.ReportAs(row, !p.following && !p.PollHolds(row.Pos))
	}
	if p.role != Instructor {
		return
	}
	l := Lead{Pos: row.Pos, Follow: p.follow, Hold: p.hold && p.follow}
	if row.OnContents {
		// the scene under the contents is nobody's place: leading it
		// would pull followers, and the instructor's other sessions, into
		// a scene no one opened
		l.Pos, l.Contents = play.Position{}, true
	}
	if data, err := json.Marshal(l); err == nil && string(data) != p.led {
		p.led = string(data)
		if p.lead != nil {
			l.Version = p.lead.Version
		}
		l.At = p.Since(row.Pos) // after the compare: a time alone is no move
		p.classPlace, p.classSince = placeKey(l.Pos), l.At
		p.kept = p.kept || p.out
		p.seat.Lead(l)
	}
}
