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
