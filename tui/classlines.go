package tui

import (
	"encoding/json"
	"maps"

	"github.com/charmbracelet/x/ansi"

	"locksim/class"
	"locksim/play"
	"locksim/views"
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
		return views.OneLine(st.Warn, "class "+code+" · projector: the class is out of touch") + views.OneLine(st.Dim, " · q leaves")
	case p.OutOfTouch() && role == class.Instructor:
		// the whole sentence fits 80 columns: it stays until the store
		// answers, over the step it keeps
		return views.OneLine(st.Warn, class.OutNote)
	case p.OutOfTouch():
		return views.OneLine(st.Warn, class.OutStudentNote)
	case role == class.Projector:
		return views.OneLine(st.Dim, "class "+code+" · projector: following the instructor · q leaves")
	case role == class.Instructor && p.Holding():
		return views.OneLine(st.Accent, "class "+code+" · the class is held") + views.OneLine(st.Dim, " · l the class, H there releases it")
	case role == class.Instructor && p.Asked():
		return views.OneLine(st.Accent, "class "+code+" · the class is asked to follow") + views.OneLine(st.Dim, " · F stops · l the class")
	case p.Held() && p.Refused() && a.pl.Asking:
		return views.OneLine(st.Warn, "the class is held: you stay on the instructor's place") + views.OneLine(st.Dim, " · 1-"+itoa(int64(len(a.pl.Choices())))+" predict")
	case p.Held() && p.Refused():
		return views.OneLine(st.Warn, "the class is held: you stay on the instructor's place until they release it")
	case p.Held() && a.pl.Asking:
		return views.OneLine(st.Accent, "the class is held: following the instructor") + views.OneLine(st.Dim, " · 1-"+itoa(int64(len(a.pl.Choices())))+" your prediction")
	case p.Held():
		// 80 columns hold it whole: until-they-release is the refused
		// key's note
		return views.OneLine(st.Accent, "the class is held: following the instructor") + views.OneLine(st.Dim, " · ? keys · q quit")
	case role == class.Student && p.Following() && a.pl.Asking:
		return views.OneLine(st.Accent, "following the instructor") + views.OneLine(st.Dim, " · 1-"+itoa(int64(len(a.pl.Choices())))+" your prediction · F leaves follow mode")
	case role == class.Student && p.Following():
		return views.OneLine(st.Accent, "following the instructor") + views.OneLine(st.Dim, " · F leaves follow mode · ? keys · q quit")
	case role == class.Student && p.Holding() && !p.Following():
		return views.OneLine(st.Accent, "the instructor holds the class") + views.OneLine(st.Dim, " · F follows")
	case role == class.Student && p.Asked():
		return views.OneLine(st.Accent, "the instructor asks the class to follow") + views.OneLine(st.Dim, " · F follows")
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
	return views.OneLine(st.Accent, what+ask(predict)) + views.OneLine(st.Dim, back+more)
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
