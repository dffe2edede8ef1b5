package tui

import (
	"fmt"

	"locksim/views"
)

// classKeysKey opens the class view's own keys page (a scene's ? page
// lists the scene's keys, not these).
var classKeysKey = views.Bind("?", "keys", "?")

// newClassKeysPage is the class view's keys page (? in the class view):
// every key of the class view with a line each, and the keys a watch of
// a student's screen takes. It stands in for the class view, as the
// summary does, and fits 80x24 whole.
func newClassKeysPage(a *session, back Component) *standinPage {
	return &standinPage{standin: standin{com: a.com, back: back, open: classKeysKey}, size: sessionSize(a.com),
		body: func(w int) (string, []string) {
			st := a.com.Styles
			var lines []string
			for _, kl := range classKeyLines() {
				lines = append(lines, truncate(views.OneLine(st.Bold, fmt.Sprintf("%-7s", kl[0]))+" "+kl[1], w))
			}
			lines = append(lines, "", truncate("The scene's own keys are on its ? page, from the scene (l).", w))
			return views.Rule(st, "class view keys", w), lines
		}}
}

// classKeyLines are the class view's keys, a line each: the key and what
// it does. A key the class cannot use here says when it works (the tab
// link without -web, the school roster without -roster).
func classKeyLines() [][2]string {
	return [][2]string{
		{"↑ ↓", "pick a student on the roster"},
		{"[ ]", "pick a page of the roster up or down"},
		{"enter", "show the picked student's run (esc: back to your own place)"},
		{"W", "watch the picked student's screen live (over SSH or in a tab)"},
		{"  P", "while watching: ask the student to pair (type on their screen)"},
		{"  R", "while watching: ask to show their screen to the room (again: off)"},
		{"  esc", "while watching: back to your own screen"},
		{"F", "ask the class to follow your place (again: stop asking)"},
		{"H", "hold the class: followers stay on your place (again: release it)"},
		{"S", "the summary: each student's progress, the class's answers"},
		{"V", "the poll whole: the question's setup, every choice, the counts"},
		{"m", "the school roster against the class (with -roster)"},
		{"I", "a one-time link to this view in a browser tab (with -web)"},
		{"→ ←", "step the scene you lead, beside the class view"},
		{"l", "back to the scene (or the contents)"},
		{"?", "this page (? or esc: back to the class view)"},
		{"q", "quit"},
	}
}

// isClassKeys reports the class view's keys page.
func isClassKeys(c Component) bool { return standsFor(c, classKeysKey) }
