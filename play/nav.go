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
)

// Navigate is the course's navigation as a pure function: a key on a state
// gives the next state and what to do. esc cancels the innermost thing (a
// replay, then the page on top, then the selection, then back to the
// contents); in presenter mode a clicker's esc is easy to press by
// mistake, so leaving the scene asks first, and esc again or y leaves (any
// other key stays: Stay, and the caller handles that key as usual);
// < and > move between scenes, wrapping around; enter on the contents
// opens the scene chosen there.
func Navigate(n Nav, key string) (Nav, Then) {
	if n.Leaving {
		n.Leaving = false
		if key == "esc" || key == "y" {
			n.Contents = true
			return n, ShowContents
		}
		return n, Stay
	}
	switch key {
	case "esc":
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
		case n.Course && n.Present:
			n.Leaving = true
			return n, AskLeave
		case n.Course:
			n.Contents = true
			return n, ShowContents
		}
	case "<", ">":
		if n.Contents || n.Scenes == 0 {
			return n, Stay
		}
		d := 1
		if key == "<" {
			d = -1
		}
		n.Scene = (n.Scene + d + n.Scenes) % n.Scenes
		n.Page, n.Selected = false, false
		return n, OpenScene
	case "enter":
		if n.Contents {
			n.Contents = false
			return n, OpenScene
		}
	}
	return n, Stay
}
