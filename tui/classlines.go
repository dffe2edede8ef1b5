package tui

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"locksim/class"
	"locksim/play"
)

// students are the class's students, as the class view lists them.
func (a *session) students() []class.Member {
	var out []class.Member
	for _, m := range a.cls.roster {
		if m.Role == class.Student {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(x, y class.Member) int {
		if x.Name != y.Name {
			if x.Name < y.Name {
				return -1
			}
			return 1
		}
		if x.ID < y.ID {
			return -1
		}
		if x.ID > y.ID {
			return 1
		}
		return 0
	})
	return out
}

// projecting reports a projector's session: nothing on it moves the story.
func (a *session) projecting() bool { return a.cls != nil && a.cls.role == class.Projector }

// classLine is the line a class puts in the help line's place, "" for
// none: what a follower is doing and how to leave.
func (a *session) classLine() string {
	c := a.cls
	if c == nil {
		return ""
	}
	st := a.com.Styles
	switch {
	case c.role == class.Projector:
		return st.Dim.Render("class " + c.code + " · projector: following the instructor · q leaves")
	case c.role == class.Instructor && c.hold:
		return st.Accent.Render("class "+c.code+" · the class is held") + st.Dim.Render(" · l the class, H there releases it")
	case c.role == class.Instructor && c.follow:
		return st.Accent.Render("class "+c.code+" · the class is asked to follow") + st.Dim.Render(" · F stops · l the class")
	case c.held() && c.refused && a.pl.Asking:
		return st.Warn.Render("the class is held: you stay on the instructor's place") + st.Dim.Render(" · 1-"+itoa(int64(len(a.pl.Choices())))+" predict")
	case c.held() && c.refused:
		return st.Warn.Render("the class is held: you stay on the instructor's place until they release it")
	case c.held() && a.pl.Asking:
		return st.Accent.Render("the class is held: following the instructor") + st.Dim.Render(" · 1-"+itoa(int64(len(a.pl.Choices())))+" your prediction")
	case c.held():
		// 80 columns hold it whole: until-they-release is the refused
		// key's note
		return st.Accent.Render("the class is held: following the instructor") + st.Dim.Render(" · ? keys · q quit")
	case c.role == class.Student && c.following && a.pl.Asking:
		return st.Accent.Render("following the instructor") + st.Dim.Render(" · 1-"+itoa(int64(len(a.pl.Choices())))+" your prediction · F leaves follow mode")
	case c.role == class.Student && c.following:
		return st.Accent.Render("following the instructor") + st.Dim.Render(" · F leaves follow mode · ? keys · q quit")
	case c.role == class.Student && c.hold && !c.following:
		return st.Accent.Render("the instructor holds the class") + st.Dim.Render(" · F follows")
	case c.role == class.Student && c.asked:
		return st.Accent.Render("the instructor asks the class to follow") + st.Dim.Render(" · F follows")
	}
	return ""
}

// visitLine is the line a visit puts in the help line's place, "" for
// none: whose place is on screen, and that esc goes back to one's own.
func (a *session) visitLine() string {
	if a.labStory {
		return "" // a story of the lab says esc goes back to the lab
	}
	st := a.com.Styles
	var what, more string
	switch a.course.Visiting() {
	case play.VisitCode:
		what, more = "visiting a story code", " · ? keys · q quit"
	case play.VisitRun:
		who := "a student"
		if a.cls != nil && a.cls.shown != "" {
			who = a.cls.shown
		}
		what, more = "showing "+who+"'s run", " · l the class"
	case play.VisitFollow:
		what, more = "visiting the instructor's place", " · F follows again"
	default:
		return ""
	}
	ask := func(predict string) string {
		if a.pl.Asking && !a.course.Present {
			return " · 1-" + itoa(int64(len(a.pl.Choices()))) + predict
		}
		return ""
	}
	back, predict := " · esc goes back to your own place", " your prediction"
	if w := a.com.Width; w > 0 && ansi.StringWidth(what+ask(predict)+back+more) > w {
		back, predict = " · esc back to your place", " predict" // 80 columns hold the short words whole
	}
	return st.Accent.Render(what+ask(predict)) + st.Dim.Render(back+more)
}

// sameSettings compares two settings, a setting left out being its first
// value.
func sameSettings(a, b map[string]int) bool {
	strip := func(m map[string]int) map[string]int {
		out := map[string]int{}
		for k, v := range m {
			if v != 0 {
				out[k] = v
			}
		}
		return out
	}
	return maps.Equal(strip(a), strip(b))
}

func sameJSON(x, y any) bool {
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(y)
	return string(a) == string(b)
}
