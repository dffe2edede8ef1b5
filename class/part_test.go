package class

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/sim/simtest"

	"github.com/alicebob/miniredis/v2"
)

// eachStore runs f on the class's three stores, an instructor's hub and
// a students' hub that share a class: memory, disk (-serve-dir), Redis
// (two clients of one miniredis; in the slow tier of one redis-server).
func eachStore(t *testing.T, f func(t *testing.T, a, b Hub)) {
	t.Run("memory", func(t *testing.T) {
		h := NewMemory(nil)
		f(t, h, h)
	})
	t.Run("disk", func(t *testing.T) {
		h, err := OpenDir(t.TempDir(), 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		f(t, h, h)
	})
	redisPair := func(t *testing.T, url string) { f(t, redisHubNow(t, url), redisHubNow(t, url)) }
	t.Run("miniredis", func(t *testing.T) {
		simtest.QuickOnly(t)
		redisPair(t, "redis://"+miniredis.RunT(t).Addr())
	})
	t.Run("redis-server", func(t *testing.T) {
		redisPair(t, simtest.StartRedis(t))
	})
}

func redisHubNow(t *testing.T, url string) *Redis {
	t.Helper()
	h, err := NewRedis(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// session is one session of a class with no screen: its part, its watch
// of the class, and its own run's place as a screen would hold it.
type session struct {
	t    *testing.T
	name string
	p    *Part
	w    *Watch
	seed uint64
	pos  play.Position
	// actual and revealed: what its own run answered once it made the move
	actual   int
	revealed bool
	notes    []string
	// contents is set while the session is on the course's contents
	// (pos is then the scene under them); gone counts the places an
	// effect took it to
	contents bool
	gone     int
	// beats beats its seat (joinBeating), nil for a seat on a ticker
	beats chan time.Time
}

// tick beats the session's seat once: it returns as the seat's loop takes
// the beat, so a tick after a change the loop was making comes after it.
func (s *session) tick() {
	s.t.Helper()
	select {
	case s.beats <- time.Now():
	case <-within(s.t).Done():
		s.t.Fatalf("%s's seat took no beat", s.name)
	}
}

func joinAs(t *testing.T, hub Hub, code string, role Role, id, name string, seed uint64) *session {
	t.Helper()
	return joinBeats(t, hub, code, role, id, name, seed, nil)
}

// joinBeating is joinAs with a seat that beats only when the test says
// (session.tick): a test of what a beat does waits for no ticker.
func joinBeating(t *testing.T, hub Hub, code string, role Role, id, name string, seed uint64) *session {
	t.Helper()
	return joinBeats(t, hub, code, role, id, name, seed, make(chan time.Time))
}

func joinBeats(t *testing.T, hub Hub, code string, role Role, id, name string, seed uint64, beats chan time.Time) *session {
	t.Helper()
	seat, err := sit(context.Background(), hub, code, Member{ID: id, Name: name, Role: role, OnContents: true}, nil, beats)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPart(seat, nil)
	w, err := p.Seat().Watch()
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, name: name, p: p, w: w, seed: seed, actual: -1, beats: beats}
	t.Cleanup(s.leave)
	roster, err := p.Seat().Roster(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for i := range roster {
		evs = append(evs, Event{Kind: KindMember, Member: &roster[i]})
	}
	evs = append(evs, MatchEvents(roster)...)
	s.do(p.Heard(evs, nil))
	return s
}

func (s *session) leave() {
	s.w.Close()
	s.p.Seat().Leave(context.Background())
}

// do is what a screen does of an effect: the note, the place.
func (s *session) do(ef Effect) {
	if ef.Note != "" {
		s.notes = append(s.notes, ef.Note)
	}
	if ef.Contents {
		s.contents = true
		s.report()
	}
	if ef.Go != nil {
		s.gone++
		s.goTo(Visit(s.pos, ef.Go.Pos, ef.Go.Visit, s.seed))
	}
}

// goTo puts the session's run at pos: a run that made its question's move
// answers (choice 1, 0-based, in every run of this test).
func (s *session) goTo(pos play.Position) {
	if pos.Scene != s.pos.Scene || !sameSettings(pos.Settings, s.pos.Settings) {
		s.revealed, s.actual = false, -1
	}
	s.pos, s.contents = pos, false
	if at := questionStep(pos); at >= 0 && pos.Step > at && pos.Prediction != nil {
		s.revealed, s.actual = true, 1
	}
	s.report()
}

func (s *session) report() {
	s.p.Report(Member{Pos: s.pos, Actual: s.actual, Revealed: s.revealed, OnContents: s.contents})
}

// answer is the learner's prediction at their run's question.
func (s *session) answer(chosen int) {
	s.pos.Prediction = &play.Prediction{Chosen: chosen}
	s.report()
}

// hear hands the part the class's events until ok holds of it.
func (s *session) hear(what string, ok func(*session) bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for !ok(s) {
		evs, err := s.w.Next(ctx)
		if err != nil {
			s.t.Fatalf("%s waiting for %s: %v", s.name, what, err)
		}
		s.do(s.p.Heard(evs, nil))
	}
}

func questionStep(pos play.Position) int {
	sc := scenes.Find(pos.Scene)
	if sc == nil {
		return -1
	}
	return play.QuestionAt(sc, scenes.Params(pos.Settings), pos.Own)
}

func leadAtStep(n int) func(*session) bool {
	return func(s *session) bool { return s.p.Lead() != nil && s.p.Lead().Pos.Step == n }
}

// answered is a check that n students' rows hold an answer to q.
func answered(q Question, n int) func(*session) bool {
	return func(s *session) bool {
		got := 0
		for _, m := range s.p.Students() {
			if _, ok := m.Answers[q.Key()]; ok {
				got++
			}
		}
		return got >= n
	}
}

// TestClassWithNoScreen drives an instructor and ten students through
// gc-pause's first question on each store, with no screen: follow, the
// poll, a student out of follow held at the open question, the reveal,
// a hold, leaving and rejoining, and a second session of the instructor.
func TestClassWithNoScreen(t *testing.T) {
	eachStore(t, classWithNoScreen)
}

func classWithNoScreen(t *testing.T, a, b Hub) {
	ctx := context.Background()
	info, err := a.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	code := info.Code
	teacher := joinAs(t, a, code, Instructor, "teacher", "teacher", 1)
	teacher.goTo(play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1})
	teacher.do(teacher.p.AskFollow())
	teacher.report()
	var studs []*session
	for i := range 10 {
		studs = append(studs, joinAs(t, b, code, Student, fmt.Sprintf("k-%02d", i), fmt.Sprintf("s%02d", i), uint64(10+i)))
	}
	// follow: asked, each follows to the instructor's place in a sandbox
	for _, s := range studs {
		s.hear("the ask to follow", func(s *session) bool { return s.p.Asked() })
		if len(s.notes) == 0 || s.notes[len(s.notes)-1] != "the instructor asks the class to follow · F follows" {
			t.Fatalf("%s was told %q", s.name, s.notes)
		}
		s.do(s.p.Follow())
		if !s.p.Following() || s.pos.Scene != "gc-pause" || s.pos.Seed != s.seed {
			t.Fatalf("%s does not follow in a sandbox of their own: %+v", s.name, s.pos)
		}
	}
	at := questionStep(teacher.pos)
	q, _ := QuestionOf(teacher.pos)
	// the poll opens: the instructor steps to the question
	pos := teacher.pos
	pos.Step = at
	teacher.goTo(pos)
	for i, s := range studs {
		s.hear("the question", leadAtStep(at))
		if s.pos.Step != at {
			t.Fatalf("%s is at step %d, want %d", s.name, s.pos.Step, at)
		}
		if i < 9 {
			s.answer(i % 2)
		}
	}
	// the last student leaves follow mode and explores: back a step, then
	// their own run comes to the class's open question: it holds them
	last := studs[9]
	last.do(last.p.Follow())
	if last.p.Following() {
		t.Fatal("F did not leave follow mode")
	}
	own := last.pos
	own.Step = at - 1
	last.goTo(own)
	if _, ok := last.p.StepPast(last.pos); !ok {
		t.Fatal("a step before the question was held")
	}
	own.Step = at
	last.goTo(own)
	if note, ok := last.p.StepPast(last.pos); ok || note != Still {
		t.Fatalf("the step past the class's open question: %q, %v", note, ok)
	}
	// the instructor's first step with one answer missing runs nothing
	// and the last student's row at the question too: the poll counts
	// them only once it is there (it comes after the nine answers)
	teacher.hear("nine answers, and the last student at the question", func(s *session) bool {
		m, ok := s.p.Member(last.p.Seat().Member().ID)
		return answered(q, 9)(s) && ok && m.Pos.Step == at
	})
	if note, ok := teacher.p.Reveal(teacher.pos, true); ok || note != "9 of 10 have answered · → again to step" {
		t.Fatalf("the instructor's first step: %q, %v", note, ok)
	}
	last.answer(2)
	teacher.hear("ten answers", answered(q, 10))
	if _, ok := teacher.p.Reveal(teacher.pos, true); !ok {
		t.Fatal("with every answer in, the step does not run the move")
	}
	poll, _ := Tally(teacher.pos, teacher.p.Students(), time.Now())
	if poll.Answered != 10 || poll.Blind != 0 || poll.Guesses[0] != 5 || poll.Guesses[1] != 4 || poll.Guesses[2] != 1 {
		t.Fatalf("the poll at the question: %+v", poll)
	}
	// the reveal: the move runs in every follower's own run; the explorer
	// may step on now
	pos.Step = at + 1
	teacher.goTo(pos)
	for _, s := range studs[:9] {
		s.hear("the move", leadAtStep(at+1))
		if !s.revealed {
			t.Fatalf("%s's run did not make the move", s.name)
		}
	}
	last.hear("the move", leadAtStep(at+1))
	if _, ok := last.p.StepPast(last.pos); !ok {
		t.Fatal("the explorer is still held once the instructor revealed")
	}
	own.Step, own.Prediction = at+1, last.pos.Prediction
	last.goTo(own)
	teacher.hear("ten runs", func(s *session) bool {
		n := 0
		for _, m := range s.p.Students() {
			if a := m.Answers[q.Key()]; a.Ran {
				n++
			}
		}
		return n == 10
	})
	if a := teacher.p.roster["k-09"].Answers[q.Key()]; a.Blind || a.Chosen != 2 || !a.Ran {
		t.Fatalf("the explorer's answer should count as an answer of the poll, not a blind one: %+v", a)
	}

	// hold: a follower's key that would leave is refused
	teacher.do(teacher.p.Hold())
	teacher.report()
	s0 := studs[0]
	s0.hear("the hold", func(s *session) bool { return s.p.Held() })
	if _, ok := s0.p.MoveAway(); ok || !s0.p.Refused() {
		t.Fatal("a held follower's step was not refused")
	}
	s0.p.Key()
	if s0.do(s0.p.Follow()); !s0.p.Following() || !s0.p.Refused() {
		t.Fatal("a held follower left follow mode")
	}
	if _, ok := last.p.MoveAway(); !ok {
		t.Fatal("a student out of follow is held by the class's hold")
	}
	// presence: while the instructor is away the hold binds no one
	away, here := true, false
	s0.p.Heard(nil, &away)
	if s0.do(s0.p.Follow()); s0.p.Held() || s0.p.Following() {
		t.Fatal("a follower is held while the instructor is away")
	}
	s0.do(s0.p.Follow())
	s0.p.Heard(nil, &here)
	if !s0.p.Held() {
		t.Fatal("the hold does not bind again when the instructor is back")
	}
	teacher.do(teacher.p.Release())
	teacher.report()
	s0.hear("the release", func(s *session) bool { return !s.p.Held() })
	if s0.notes[len(s0.notes)-1] != "the instructor released the class · F leaves follow mode" {
		t.Fatalf("the release's note: %q", s0.notes)
	}

	// leave and rejoin: back following at the class's place, answers kept
	s3 := studs[3]
	s3.leave()
	teacher.hear("s03 offline", func(s *session) bool { m, _ := s.p.Member("k-03"); return !m.Online })
	back := joinAs(t, b, code, Student, "k-03", "s03", 13)
	rpos, _, ok := back.p.Resume()
	if !ok || rpos.Step != at+1 {
		t.Fatalf("the rejoining follower's place: %+v, %v", rpos, ok)
	}
	back.p.Resumed()
	back.pos = rpos
	back.hear("the class's place", func(s *session) bool { return s.p.Lead() != nil })
	if m, _ := back.p.Member("k-03"); m.Answers[q.Key()].Chosen != 1 || !back.p.Following() {
		t.Fatalf("the rejoined student's row: %+v, following %v", m, back.p.Following())
	}

	// a second session of the instructor: one leader; its move reaches the
	// first session and the class
	second := joinAs(t, a, code, Instructor, "teacher", "teacher", 1)
	second.hear("the class's place", leadAtStep(at+1))
	if second.pos.Step != at+1 || !second.p.Asked() {
		t.Fatalf("the second session's place: %+v, asking to follow %v", second.pos, second.p.Asked())
	}
	p2 := second.pos
	p2.Step = at + 2
	second.goTo(p2)
	teacher.hear("the second session's move", leadAtStep(at+2))
	if teacher.pos.Step != at+2 {
		t.Fatalf("the first session did not redraw from the class's place: %+v", teacher.pos)
	}
	back.hear("the second session's move", leadAtStep(at+2))
	// both move from the same version: one of them loses, and says so
	p3 := teacher.pos
	p3.Step = at + 3
	p4 := second.pos
	p4.Step = 1
	v := teacher.p.Lead().Version
	teacher.goTo(p3)
	second.goTo(p4)
	lostNotes := func(s *session) int {
		n := 0
		for _, note := range s.notes {
			if strings.HasPrefix(note, "your move lost the race") {
				n++
			}
		}
		return n
	}
	for _, s := range []*session{teacher, second} {
		// the winner hears its own move; the loser the winner's, and that
		// it lost
		s.hear("the race's outcome", func(s *session) bool {
			l := s.p.Lead()
			return l != nil && l.Version > v && (l.By == s.p.Seat().ID() || lostNotes(s) > 0)
		})
	}
	lost := lostNotes(teacher) + lostNotes(second)
	if l, _, _ := a.LeadOf(ctx, code); lost != 1 || (l.Pos.Step != at+3 && l.Pos.Step != 1) {
		t.Fatalf("of two moves at once one wins and the other says it lost: %d lost, place %+v", lost, l.Pos)
	}
}
