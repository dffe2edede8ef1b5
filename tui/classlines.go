package tui

import (
	"encoding/json"
	"maps"

	"github.com/charmbracelet/x/ansi"

	"locksim/class"
	"locksim/play"
)

// students are the class's students, as the class view lists them.
func (a *session) students() []class.Member {
	return a.cls.part.Students()
}

// projecting reports a projector's session: nothing on it moves the story.
func (a *session) projecting() bool { return a.cls != nil && a.cls.part.Role() == class.Projector }

// classLine is the line a class puts in the help line's place, "" for
// none: what a follower is doing and how to leave.
func (a *session) classLine() string {
	c := a.cls
	if c == nil {
		return ""
	}
	st, p := a.com.Styles, c.part
	code, role := p.Code(), p.Role()
	switch {
	case p.OutOfTouch() && role == class.Projector:
		return st.Warn.Render("class "+code+" · projector: the class is out of touch") + st.Dim.Render(" · q leaves")
	case p.OutOfTouch() && role == class.Instructor:
		// the whole sentence fits 80 columns: it stays until the store
		// answers, over the step it keeps
		return st.Warn.Render(class.OutNote)
	case p.OutOfTouch():
		return st.Warn.Render(class.OutStudentNote)
	case role == class.Projector:
		return st.Dim.Render("class " + code + " · projector: following the instructor · q leaves")
	case role == class.Instructor && p.Holding():
		return st.Accent.Render("class "+code+" · the class is held") + st.Dim.Render(" · l the class, H there releases it")
	case role == class.Instructor && p.Asked():
		return st.Accent.Render("class "+code+" · the class is asked to follow") + st.Dim.Render(" · F stops · l the class")
	case p.Held() && p.Refused() && a.pl.Asking:
		return st.Warn.Render("the class is held: you stay on the instructor's place") + st.Dim.Render(" · 1-"+itoa(int64(len(a.pl.Choices())))+" predict")
	case p.Held() && p.Refused():
		return st.Warn.Render("the class is held: you stay on the instructor's place until they release it")
	case p.Held() && a.pl.Asking:
		return st.Accent.Render("the class is held: following the instructor") + st.Dim.Render(" · 1-"+itoa(int64(len(a.pl.Choices())))+" your prediction")
	case p.Held():
		// 80 columns hold it whole: until-they-release is the refused
		// key's note
		return st.Accent.Render("the class is held: following the instructor") + st.Dim.Render(" · ? keys · q quit")
	case role == class.Student && p.Following() && a.pl.Asking:
		return st.Accent.Render("following the instructor") + st.Dim.Render(" · 1-"+itoa(int64(len(a.pl.Choices())))+" your prediction · F leaves follow mode")
	case role == class.Student && p.Following():
		return st.Accent.Render("following the instructor") + st.Dim.Render(" · F leaves follow mode · ? keys · q quit")
	case role == class.Student && p.Holding() && !p.Following():
		return st.Accent.Render("the instructor holds the class") + st.Dim.Render(" · F follows")
	case role == class.Student && p.Asked():
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
