package play

// Nav is where the learner is in the course, as far as moving around it
// goes: the contents or a scene (by index), and what is open on top of the
// scene that esc closes first.
type Nav struct {
	Contents  bool
	Scene     int  // the open (or last open) scene, 0-based
	Scenes    int  // how many scenes the course has
	Replaying bool // a live replay runs, which esc cancels
	Page      bool // the story, help or notes page is open: on top of all
	Selected  bool // an actor is selected, which esc lets go
	Course    bool // there is a contents screen to go back to
	Present   bool // presenter mode: leaving a scene asks first
	Leaving   bool // the presenter was asked whether to leave the scene
	Visiting  bool // the place on screen is a visit (see Visit): esc goes home
	// Lesson is set in a scene of a lesson's playlist (-scenes): NavNext and
	// NavPrev open LessonNext and LessonPrev, the lesson's scenes after and
	// before this one, not the course's; -1 past its last or before its
	// first, where the lesson ends: > and < stay in it (PastLesson)
	Lesson                 bool
	LessonNext, LessonPrev int
}

// Then is what a navigation key asks the app to do besides moving.
type Then int

const (
	Stay         Then = iota // nothing more
	CancelReplay             // stop the running replay
	LetGo                    // drop the selection
	ClosePage                // close the page on top
	ShowContents             // show the contents
	OpenScene                // open Nav.Scene
	AskLeave                 // ask before leaving the scene for the contents
	GoHome                   // leave the visit for the learner's own place (Course.Home)
	PastLesson               // > after a lesson's last scene or < before its first: stay, and say so
)

// NavVerb is a way to move around the course, whatever key or click
// asked for it; the screen's key table maps keys to these.
type NavVerb int

const (
	// NavOther is any other input: it only answers a presenter's question
	// whether to leave (no), and is otherwise not navigation.
	NavOther NavVerb = iota
	// NavBack cancels the innermost thing: a replay, then the page on top,
	// then the selection (lets go), then a visit (back to the learner's
	// own place), then back to the contents.
	NavBack
	// NavNext and NavPrev open the next and the previous scene: the
	// lesson's (see Nav.Lesson; none past its ends), else the course's,
	// wrapping.
	NavNext
	NavPrev
	// NavContents leaves the scene for the contents (a presenter's yes).
	NavContents
	// NavOpen opens scene NavAction.Scene.
	NavOpen
)

// NavAction is one navigation input: a verb and, for NavOpen, the scene's
// course index.
type NavAction struct {
	Verb  NavVerb
	Scene int
}

// NavDo is the navigation input of a verb that takes no scene.
func NavDo(v NavVerb) NavAction { return NavAction{Verb: v} }

// NavOpenAt opens the scene at course index i.
func NavOpenAt(i int) NavAction { return NavAction{Verb: NavOpen, Scene: i} }

// Navigate is the course's navigation as a pure function: an input on a
// state gives the next state and what to do. NavBack cancels the innermost
// thing (a replay, then the page on top, then the selection, then a visit,
// back to the learner's own place, then back to the contents); in
// presenter mode a clicker's esc is easy to press by
// mistake, so leaving the scene asks first, and NavBack again or
// NavContents leaves (any other input stays: Stay, and the caller handles
// it as usual); NavNext and NavPrev move between scenes, wrapping around;
// NavOpen on the contents opens the scene chosen there, and in a scene
// opens that scene.
func Navigate(n Nav, a NavAction) (Nav, Then) {
	if n.Leaving {
		n.Leaving = false
		if a.Verb == NavBack || a.Verb == NavContents {
			n.Contents = true
			return n, ShowContents
		}
		return n, Stay
	}
	switch a.Verb {
	case NavBack:
		switch {
		case n.Contents:
			return n, Stay
		case n.Replaying:
			n.Replaying = false
			return n, CancelReplay
		case n.Page:
			n.Page = false
			return n, ClosePage
		case n.Selected:
			n.Selected = false
			return n, LetGo
		case n.Visiting:
			n.Visiting = false
			return n, GoHome
		case n.Course && n.Present:
			n.Leaving = true
			return n, AskLeave
		case n.Course:
			n.Contents = true
			return n, ShowContents
		}
	case NavContents:
		if n.Course && !n.Contents {
			n.Contents, n.Page, n.Selected = true, false, false
			return n, ShowContents
		}
	case NavNext, NavPrev:
		if n.Contents || n.Scenes == 0 {
			return n, Stay
		}
		d := 1
		if a.Verb == NavPrev {
			d = -1
		}
		to := (n.Scene + d + n.Scenes) % n.Scenes
		if n.Lesson {
			// a lesson (-scenes) is its scenes only: past its ends, stay
			to = n.LessonNext
			if d < 0 {
				to = n.LessonPrev
			}
			if to < 0 {
				return n, PastLesson
			}
		}
		n.Scene = to
		n.Page, n.Selected = false, false
		return n, OpenScene
	case NavOpen:
		if n.Scenes == 0 {
			return n, Stay
		}
		n.Scene = (a.Scene%n.Scenes + n.Scenes) % n.Scenes
		n.Contents, n.Page, n.Selected = false, false, false
		return n, OpenScene
	}
	return n, Stay
}
