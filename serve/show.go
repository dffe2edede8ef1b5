package serve

import (
	"fmt"
	"strings"
)

// Room is a Class that knows its projectors: the sessions that show the
// room the class an instructor's session leads. With it, an instructor
// who watches a student may, with the student's yes, show the student's
// screen on them (R), for a debrief.
type Room interface {
	Projectors(teacher *Session) []*Session
}

// RoomHold is a screen (a projector's course) that says when the room's
// own screen stands at a question not yet answered: a student's screen
// shown to the room is held then, as the disclosure rule holds the
// projector's own (it may show that student's answer, and their run's
// reply).
type RoomHold interface {
	RoomQuestionOpen() bool
}

// askShow asks the student to show their screen to the room; asked
// again while it is shown, it takes it off.
func (w *watch) askShow() {
	w.mu.Lock()
	var off []*watch
	switch {
	case w.ended != "" || w.pair != pairOff:
	case w.show == pairOff:
		w.show, w.refused = pairAsked, false
	case w.show == pairOn:
		off, w.shows, w.show = w.shows, nil, pairOff
	}
	w.mu.Unlock()
	for _, c := range off {
		c.end("")
	}
	w.nudgeStudent()
	w.nudgeTeacher()
}

// startShow has every projector of the instructor's class watch w's
// student: the room's watches, read-only, ended with w's or by R.
func (s *Server) startShow(w *watch) {
	room, ok := s.cfg.Class.(Room)
	if !ok {
		return
	}
	var shows []*watch
	for _, p := range room.Projectors(w.teacher) {
		if p == w.student || p.fr == nil {
			continue
		}
		c := &watch{srv: s, teacher: p, student: w.student, tName: "the projector", sName: w.sName, started: s.clock.Now(), room: true,
			toTeacher: make(chan struct{}, 1), toStudent: make(chan struct{}, 1), done: make(chan struct{})}
		s.room.add(c)
		w.student.fr.tap(c)
		go c.run()
		shows = append(shows, c)
	}
	w.mu.Lock()
	live := w.ended == "" && w.show == pairOn
	if live {
		w.shows = append(w.shows, shows...)
	}
	w.mu.Unlock()
	for _, c := range shows {
		if !live {
			c.end("")
		}
		c.nudgeTeacher()
	}
	s.cfg.Log.Printf("session %s shows session %s on %d projectors", w.teacher.ID, w.student.ID, len(shows))
}

// roomView is a projector's screen while it shows a student's: held, as
// its own screen (own), while the room's question is open.
func (m *screen) roomView(w *watch, own func() string) string {
	if h, ok := m.inner.(RoomHold); ok && h.RoomQuestionOpen() {
		v := own()
		line := fmt.Sprintf("%s's screen waits: the room's question is open", w.sName)
		first, rest, _ := strings.Cut(v, "\n")
		return m.overTitle(first, line) + "\n" + rest
	}
	head := m.st.Accent.Render(fmt.Sprintf("%s's screen, shown with their yes", w.sName))
	return head + "\n" + strings.Join(w.body(m.w, max(m.h-1, 0)), "\n")
}
