package play

import (
	"maps"

	"locksim/scenes"
)

// Ending is what a step past the end of a scene leads to (see EndOfStory).
type Ending int

const (
	// StoryEnded: the learner is told the story has ended; nothing opens
	// (learner mode).
	StoryEnded Ending = iota
	// NewStory: the scene's next story (setting combination) was set and
	// its run restarted.
	NewStory
	// NewScene: the lesson's next scene is to open (End.Scene).
	NewScene
	// LessonOver: the lesson has no more stories or scenes.
	LessonOver
)

// End is what EndOfStory did or asks: for NewStory the settings now on
// screen, for NewScene the course index of the scene to open.
type End struct {
	Kind  Ending
	Story scenes.Params
	Scene int
}

// StoryOver reports that s has nothing more to step through: a story
// played to its end, a quiz on its score page, a race that has run. A busy
// session, or one waiting for a prediction, is not over.
func (c *Course) StoryOver(s *Session) bool {
	if s.Busy || s.Asking {
		return false
	}
	return s.kind.over(s)
}

// EndOfStory is a step past the end of s, the open scene. In presenter
// mode it goes on with the lesson, the scene's next story first, so a
// clicker alone walks it: NewStory restarts s with the next story's
// settings (run cmd), NewScene names the scene the caller opens (Open),
// LessonOver says there is nothing more. In learner mode it is StoryEnded.
// Either way a story played to its end is marked done (NoteDone).
func (c *Course) EndOfStory(s *Session) (End, Cmd) {
	c.NoteDone(s)
	if !c.Present {
		return End{Kind: StoryEnded}, nil
	}
	if v := c.NextStory(s); v != nil {
		return End{Kind: NewStory, Story: v}, s.NextStory(v)
	}
	if i := c.NextScene(); i >= 0 {
		return End{Kind: NewScene, Scene: i}, nil
	}
	return End{Kind: LessonOver}, nil
}

// NextStory is the setting combination after the one on s among those its
// scene's lesson walks (scenes.Scene.LessonStories), nil after the last,
// for a scene that is not a story, or when s's settings are none of them.
func (c *Course) NextStory(s *Session) scenes.Params {
	if s.Scene.Kind != scenes.Story {
		return nil
	}
	vs := s.Scene.LessonStories()
	for i, v := range vs[:max(len(vs)-1, 0)] {
		if sameSettings(s.Scene, v, s.Params) {
			return maps.Clone(vs[i+1])
		}
	}
	return nil
}

// sameSettings reports that p and q pick the same value of every knob.
func sameSettings(sc *scenes.Scene, p, q scenes.Params) bool {
	for _, k := range sc.Knobs {
		if sc.Value(p, k.Name) != sc.Value(q, k.Name) {
			return false
		}
	}
	return true
}

// NextScene is the course index of the scene after the open one (At) in
// the lesson's playlist (the whole course without one), -1 after the
// last. From a scene outside the playlist the next is its first.
func (c *Course) NextScene() int {
	list := c.Playlist
	if list == nil {
		for i := range c.Scenes {
			list = append(list, i)
		}
	}
	for j, i := range list {
		if i == c.At {
			if j+1 < len(list) {
				return list[j+1]
			}
			return -1
		}
	}
	if len(list) > 0 {
		return list[0]
	}
	return -1
}

// NextStory sets the session to another story of its scene, settings v,
// and restarts its run from the top: playback stops, the selection goes,
// and the prediction is put again (a new setting is a new question).
func (p *Session) NextStory(v scenes.Params) Cmd {
	p.Params, p.Playing, p.Sel = v, false, -1
	p.Guess, p.Passed, p.Revealed, p.Actual = -1, false, false, -1
	return p.Restart()
}
