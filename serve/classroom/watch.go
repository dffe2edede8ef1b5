package classroom

import (
	"locksim/class"
	"locksim/serve"
)

// MayWatch lets an instructor's session watch a student's screen when
// the student sits in the class the instructor leads from that session
// (serve.Watcher): never another class's student, a projector, or
// another instructor.
func (c *Classes) MayWatch(teacher, student *serve.Session) bool {
	c.mu.Lock()
	t, s := c.seats[teacher], c.seats[student]
	c.mu.Unlock()
	if t == nil || s == nil || !teacher.Instructor {
		return false
	}
	return t.seat.Member().Role == class.Instructor && s.seat.Member().Role == class.Student &&
		t.seat.Info().Code == s.seat.Info().Code
}

// Watched keeps a watch that has ended in the student's row, for the
// class's report (serve.WatchRecorder); a student who has left the class
// already keeps none.
func (c *Classes) Watched(teacher, student *serve.Session, v serve.Visit) {
	c.mu.Lock()
	s := c.seats[student]
	c.mu.Unlock()
	if s == nil {
		return
	}
	s.seat.Visited(class.Watched{By: v.TeacherName, ByID: teacher.ID, Start: v.Start, For: v.End.Sub(v.Start), Paired: v.Paired, Pairs: v.Pairs})
}

// Projectors are the projector sessions of the class teacher's session
// leads (serve.Room), on this server.
func (c *Classes) Projectors(teacher *serve.Session) []*serve.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.seats[teacher]
	if t == nil || t.seat.Member().Role != class.Instructor {
		return nil
	}
	var out []*serve.Session
	for ses, st := range c.seats {
		if st.seat.Member().Role == class.Projector && st.seat.Info().Code == t.seat.Info().Code {
			out = append(out, ses)
		}
	}
	return out
}

var (
	_ serve.Watcher       = (*Classes)(nil)
	_ serve.WatchRecorder = (*Classes)(nil)
	_ serve.Room          = (*Classes)(nil)
)
