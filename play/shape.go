package play

import (
	"slices"
	"strings"

	"locksim/content"
)

// Part is one part of the course as its contents group it: a title, the
// time a first walk through it takes (minutes, a range where it varies),
// and its scenes by id; the lab is a part of its own (Lab set, no scenes).
type Part struct {
	Title   string
	Minutes string
	Scenes  []string
	Lab     bool
}

// Parts are the course's parts in the order of its contents: every scene
// of the registry in one part, and the lab after LabAfter. The times are
// estimates for a first walk, questions and hints included, measured by
// tui's TestPartTimesMeasured: the words each story as written gives to
// read at 180 a minute, 10 s a step, a minute a question (20 s a quiz's
// situation), rounded up to 5 minutes.
func Parts() []Part {
	return []Part{
		{Title: "one lock, one server", Minutes: "30", Scenes: []string{"race", "options", "crash-gap", "claim-lease", "release"}},
		{Title: "when time goes wrong", Minutes: "35", Scenes: []string{"gc-pause", "fencing", "timeout", "extend", "lost-reply"}},
		{Title: "locks in practice", Minutes: "15", Scenes: []string{"reentrant", "key-naming"}},
		{Title: "the lab", Minutes: "30-60", Lab: true},
		{Title: "many servers", Minutes: "10", Scenes: []string{"redlock"}},
		{Title: "choosing", Minutes: "5", Scenes: []string{"choose"}},
	}
}

// PartOf is the index in Parts of the part scene id belongs to, -1 for
// none.
func PartOf(id string) int {
	for i, p := range Parts() {
		for _, s := range p.Scenes {
			if s == id {
				return i
			}
		}
	}
	return -1
}

// Played is how far the learner is through the course: the scenes of this
// course played to the end (or a quiz answered through), of all of them.
func (c *Course) Played() (done, of int) {
	for _, s := range c.Scenes {
		if c.Prog.Done[s.ID] {
			done++
		}
	}
	return done, len(c.Scenes)
}

// Reference is one source a scene cites: its title and its address.
type Reference struct {
	Title, URL string
}

// SceneEnding is what a scene says once its story has been played through: the
// recap, what lock libraries do there, its references, and which scene
// comes next ("" after the last).
type SceneEnding struct {
	Recap, Library string
	References     []Reference
	Next           string
	// LessonOver is set at the last scene of a lesson (-scenes): Next is
	// empty, and the course goes on after it, but the lesson does not
	LessonOver bool
}

// SceneEnding is s's scene's ending, once the learner may read it: the story
// played through (StoryOver) and no question of it open for role (see
// Disclose). ok is false before that: the recap answers the question.
func (c *Course) SceneEnding(s *Session, role Role) (e SceneEnding, ok bool) {
	if !c.StoryOver(s) || !s.Disclose(role).Answer {
		return SceneEnding{}, false
	}
	e = SceneEnding{Recap: s.Text.Get("recap"), Library: s.Text.Get("library"), References: References(s.Text)}
	if !s.Text.Has("library") {
		e.Library = ""
	}
	if i := c.Index(s.Scene.ID); i >= 0 && i == c.At && slices.Contains(c.Playlist, i) {
		// a lesson's scene (-scenes): the lesson's next, as >; none after
		// its last
		if j := c.NextScene(); j >= 0 {
			e.Next = c.Scenes[j].ID
		} else {
			e.LessonOver = true
		}
	} else if i >= 0 && i+1 < len(c.Scenes) {
		e.Next = c.Scenes[i+1].ID
	}
	return e, true
}

// References are the references section of a scene's text, one per line
// ("title: URL"); a line with no URL is a reference by title alone.
func References(t content.Text) []Reference {
	if !t.Has("references") {
		return nil
	}
	var out []Reference
	for _, line := range strings.Split(t.Get("references"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		r := Reference{Title: line}
		if i := strings.LastIndex(line, ": http"); i >= 0 {
			r.Title, r.URL = line[:i], line[i+2:]
		}
		out = append(out, r)
	}
	return out
}

// Term is one word of the glossary and what it means.
type Term struct {
	Word, Meaning string
	// Held: the meaning waits for the answer to the open question
	// (GlossaryFor).
	Held bool
}

// Glossary are the words the screens use, defined, in the order of the
// course text (content/text/glossary.txt); an error when it does not read.
func Glossary() ([]Term, error) {
	names, t, err := content.Ordered(content.Glossary)
	if err != nil {
		return nil, err
	}
	var out []Term
	for _, name := range names {
		out = append(out, Term{Word: name, Meaning: strings.Join(strings.Fields(t.Get(name)), " ")})
	}
	return out, nil
}
