package tui

import (
	"locksim/views"
)

var pollKey = views.Bind("V", "poll", "V")

// newPollPage is the class view's poll whole (V in the class view, which
// it stands in for, as the summary does): the question the instructor's
// story asks with all of its setup, every choice whole with its counts,
// and the lesson's earlier polls, scrolled where a screen is too short
// for them. The class view shows as much of the poll as its rows allow
// and says how many lines it leaves to this page. It draws the desk's
// poll as the class stands now, so it follows the answers as they come,
// at the class view's size.
func newPollPage(d *Desk, back Component) *standinPage {
	return &standinPage{standin: standin{com: d.com, back: back, open: pollKey}, scrolls: true,
		size: func() (int, int) { return d.w, d.h },
		body: func(w int) (string, []string) {
			return truncate(views.OneLine(d.com.Styles.Title, "class "+d.code)+" · the poll whole", w), d.pollLines()
		}}
}

// isPollPage reports the class view's poll page.
func isPollPage(c Component) bool { return standsFor(c, pollKey) }
