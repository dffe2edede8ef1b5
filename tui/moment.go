package tui

import (
	"maps"

	"locksim/play"
	"locksim/scenes/progress"
)

// Moment is one point of the course: scene, settings, seed and step. It is
// the value resume (the progress file), -scene/-step/-set and -seed all
// land in; see progress.Moment.
type Moment = progress.Moment

// Moment is where the open scene stands now, settings and seed included.
func (a *session) Moment() Moment {
	return Moment{Scene: a.pl.Scene.ID, Settings: maps.Clone(a.pl.Params), Seed: a.pl.Seed, Step: a.pl.Snap.Pos}
}

// Position is where the open scene stands now, the learner's own moves and
// prediction included; see play.Position.
func (a *session) Position() play.Position { return a.pl.Position() }

// SaveProgress records the learner's own place (the moment on screen:
// scene, settings, seed, step; during a visit, the place it left), for
// "continue where you left off"; call it when the program ends.
func (a *session) SaveProgress() {
	if a.pl == nil {
		return
	}
	// a story of the lab is saved as it stands too, as the lab's place: its
	// position carries its lock and schedule, and opening the lab next
	// time offers it back; the course's place stays the course's session
	// under it, the scene the contents offer as last time's
	if a.labStory && a.coursePl != nil {
		a.course.KeepLab(a.pl.Session)
	}
	if err := a.course.SaveMoment(a.courseSession()); err != nil {
		a.pl.SetErr("saving progress: " + err.Error())
	}
}

// courseSession is the course's session: the one on screen, or under a
// story of the lab the one it stands over; nil before any.
func (a *session) courseSession() *play.Session {
	switch {
	case a.labStory && a.coursePl != nil:
		return a.coursePl.Session
	case a.pl != nil:
		return a.pl.Session
	}
	return nil
}
