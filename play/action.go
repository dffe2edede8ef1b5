// Package play is locksim's core: one learner's place in the course with no
// drawing. It names what a learner can do (Action), where a learner stands
// (Position), the course's navigation, and where progress is kept (Store).
// A Position becomes a session through one door, Open, which resolves its
// kind once (a story, a race, a quiz; a recorded trial and a lab story are
// stories whose scene the position carries); the course's ways in (by
// index, at a place, a visit, home) all go through it. Each kind is a type
// of its own (storyKind, raceKind, quizKind) behind one small interface,
// kind (accepts, script, fires, apply, place, goTo, over); outside this package a session is asked, never sorted by kind:
// Accepts (the verbs it takes now), Act (one of them), Disclose (what may
// be shown, for a role), QuestionAt and Choices (what it asks), Position
// (where it stands), GoTo (where a leader moved in the same story), and
// Show (the page that draws it: a quiz's, or a story's).
// It holds the disclosure rule (Disclose, Session.Disclose): for a place
// and a role, what may be shown while a question is open or ahead; every
// page, role and output asks it rather than keeping a rule of its own.
// It never imports the screen (tui), views, lipgloss or Bubble Tea.
package play

import "strconv"

// Verb is one thing a learner can do in a scene.
type Verb int

const (
	Step     Verb = iota + 1 // the next move of the story (the next situation in a quiz)
	Back                     // one move back (a live story replays from the start)
	Play                     // play or pause the story
	Home                     // the story from the top, as written
	Replay                   // the race again, with the next seed
	Faster                   // a shorter pause between moves while playing
	Slower                   // a longer pause between moves while playing
	Knob                     // the scene's setting N to its next value
	Defaults                 // every setting back to its default
	Select                   // actor N (0-based), or answer N while a prediction is asked
	Next                     // the next actor
	Prev                     // the previous actor
	Crash                    // crash the selected actor
	Pause                    // pause the selected actor, or wake it
	Wait                     // let the scene's wait of story time pass
	Move                     // step the selected actor
	Node                     // pick node N (0-based) of a distributed story
	Stop                     // stop the picked node, or restart it empty
	Cut                      // cut the selected client off the picked node, or heal it
	Slow                     // slow the picked node, or undo it
	Jump                     // jump the picked node's clock past the TTL
	Hang                     // hang the picked node, or wake it
	Answer                   // answer N to a quiz's situation (a scenes.Class)
	Hint                     // the next hint
	Seek                     // go to step N of the story
)

var verbNames = [...]string{"", "step", "back", "play", "home", "replay", "faster", "slower", "knob", "defaults",
	"select", "next", "prev", "crash", "pause", "wait", "move", "node", "stop", "cut", "slow", "jump", "hang",
	"answer", "hint", "seek"}

// String is the verb's name: "step", "knob", "answer".
func (v Verb) String() string {
	if v <= 0 || int(v) >= len(verbNames) {
		return "verb(" + strconv.Itoa(int(v)) + ")"
	}
	return verbNames[v]
}

// Action is one thing a learner does: a verb and, for Knob, Select, Node,
// Answer and Seek, its number N (0-based; a step for Seek).
type Action struct {
	Verb Verb
	N    int
}

// Do is the action v with no number.
func Do(v Verb) Action { return Action{Verb: v} }

// DoN is the action v on number n.
func DoN(v Verb, n int) Action { return Action{Verb: v, N: n} }

// String is the action as "knob 2" or "step".
func (a Action) String() string {
	switch a.Verb {
	case Knob, Select, Node, Answer, Seek:
		return a.Verb.String() + " " + strconv.Itoa(a.N)
	}
	return a.Verb.String()
}

// Moves reports a learner's own move: one the schedule did not have, which
// a Position keeps as data.
func (v Verb) Moves() bool {
	switch v {
	case Crash, Pause, Wait, Move, Stop, Cut, Slow, Jump, Hang:
		return true
	}
	return false
}

// OnNode reports a verb that acts on the picked node of a distributed story.
func (v Verb) OnNode() bool {
	switch v {
	case Stop, Cut, Slow, Jump, Hang:
		return true
	}
	return false
}
