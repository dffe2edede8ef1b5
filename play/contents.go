package play

// LabAfter is the scene the lab follows in the contents: the last of the
// single-instance scenes, since the lab's locks are single-instance locks
// and its lessons are theirs.
const LabAfter = "key-naming"

// Entry is one line of the course's contents: a scene of Scenes (by its
// index), or the lab (Lab set, Scene -1). The lab is not a story of the
// registry: it opens its own screen, and the scenes' navigation (next,
// previous, the lesson's playlist) passes it by.
type Entry struct {
	Scene int
	Lab   bool
}

// Contents is the contents in order: every scene, and the lab after
// LabAfter (at the end if the course has no such scene).
func (c *Course) Contents() []Entry {
	out := make([]Entry, 0, len(c.Scenes)+1)
	placed := false
	for i, s := range c.Scenes {
		out = append(out, Entry{Scene: i})
		if s.ID == LabAfter {
			out = append(out, Entry{Scene: -1, Lab: true})
			placed = true
		}
	}
	if !placed {
		out = append(out, Entry{Scene: -1, Lab: true})
	}
	return out
}

// RecordLevel keeps that the lab's level id was passed (see
// progress.Progress.Levels); a level once passed stays passed.
func (c *Course) RecordLevel(id string) {
	if c.Prog.Levels[id] {
		return
	}
	if c.Prog.Levels == nil {
		c.Prog.Levels = map[string]bool{}
	}
	c.Prog.Levels[id] = true
	c.unsaved = true
}
