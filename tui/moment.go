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
	s := a.pl.Session
	if a.labStory && a.coursePl != nil {
		a.course.KeepLab(s)
		s = a.coursePl.Session
	}
	if err := a.course.SaveMoment(s); err != nil {
		a.pl.SetErr("saving progress: " + err.Error())
	}
}
