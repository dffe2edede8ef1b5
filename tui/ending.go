package tui

import (
	"fmt"
	"strings"

	"locksim/play"
	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// endingPage is the scene's ending (a, and at the end of a story): what
// it taught, what lock libraries do there, its references and what comes
// next, or after the course's last scene what the learner predicted
// right and where to go from here. It scrolls. It shows only what
// play.Course.SceneEnding gives, which asks the disclosure rule: a key
// that takes the scene back before its end (← or home) closes it.
type endingPage struct {
	over
	e    play.SceneEnding
	page viewport.Model
}

// newEnding is the ending page of the scene on screen, nil while the
// scene may not show its ending (its story not over, or its question
// open for this screen's reader) and under a story of the lab.
func (a *session) newEnding() *endingPage {
	if a.labStory {
		return nil
	}
	e, ok := a.course.SceneEnding(a.pl.Session, a.pl.role)
	if !ok {
		return nil
	}
	p := &endingPage{over: over{a}, e: e}
	p.SetSize(a.com.Width, a.com.Height)
	return p
}

// SetSize draws the ending again w columns wide, in the rows the scene's
// header, the rule, the page's hint and the help line leave.
func (p *endingPage) SetSize(w, h int) {
	p.page = viewport.New(w, max(h-4, 1))
	p.page.SetContent(p.a.endingText(p.e, w))
}

// endingText is ending e drawn w columns wide: the recap, the libraries,
// the references (a hyperlink each, its URL printed too), then the next
// scene or the course's summary.
func (a *session) endingText(e play.SceneEnding, w int) string {
	st := a.com.Styles
	var b strings.Builder
	para := func(head, text string) {
		if text == "" {
			return
		}
		b.WriteString(views.OneLine(st.Bold, head) + "\n")
		for i, p := range paragraphs(text) {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(st.Wrap(p, w, views.Rows(p, max(w, 1))) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(a.endingNext(e, w) + "\n\n")
	para("what "+a.pl.Scene.ID+" showed", e.Recap)
	para("what lock libraries do", e.Library)
	if len(e.References) > 0 {
		b.WriteString(views.OneLine(st.Bold, "references") + "\n")
		for _, r := range e.References {
			b.WriteString(st.Wrap(r.Title, w, views.Rows(r.Title, max(w, 1))) + "\n")
			if r.URL != "" {
				for _, part := range chunks(r.URL, max(w-4, 8)) {
					b.WriteString("    " + a.link(r.URL, part) + "\n")
				}
			}
		}
		b.WriteString("\n")
	}
	if e.Next == "" && !e.LessonOver {
		para("the course", a.courseSummary())
	}
	return strings.TrimRight(b.String(), "\n")
}

// endingNext is the ending's first lines: the next scene and its key, or
// the end of the course; then the other ways on from the end of the
// story (another setting, a replay), as the status line says them.
func (a *session) endingNext(e play.SceneEnding, w int) string {
	st := a.com.Styles
	next := "the last scene of the course · esc goes back to the scene, esc again to the contents and the lab"
	if e.LessonOver {
		next = "the last scene of the lesson · esc goes back to the scene, esc again to the contents"
	}
	if e.Next != "" {
		_, title := scenes.Heading(e.Next)
		next = "next: " + e.Next + " · " + title + " (" + a.com.Keys.SceneNext.Help().Key + ")"
	}
	out := views.OneLine(st.Accent, st.Wrap(next, w, views.Rows(next, max(w, 1))))
	var others []string
	for _, way := range strings.Split(a.whatNext(), " · ") {
		// the next scene, or the course's end, said above
		if way != "" && !strings.HasPrefix(way, "> next:") && !strings.HasPrefix(way, "the course is over") && !strings.HasPrefix(way, "the lesson is over") && way != "esc the contents" {
			others = append(others, way)
		}
	}
	if more := strings.Join(others, " · "); more != "" {
		out += "\n" + views.OneLine(st.Dim, st.Wrap(more, w, views.Rows(more, max(w, 1))))
	}
	return out
}

// courseSummary is what the last scene's ending says of the whole course:
// the predictions right of those made, the scenes played, and where to
// go on (the lab, the questions on paper).
func (a *session) courseSummary() string {
	prog := a.course.Prog
	right := 0
	for _, ans := range prog.Answers {
		if ans.Right {
			right++
		}
	}
	done, of := a.course.Played()
	s := fmt.Sprintf("You predicted %d of %d right, and played %d of the %d scenes to their end.", right, len(prog.Answers), done, of)
	if len(prog.Answers) == 0 {
		s = fmt.Sprintf("You made no prediction on the way, and played %d of the %d scenes to their end.", done, of)
	}
	return s + "\n\nThe lab is next: in the contents (esc), write a lock of your own and let an adversary look for the schedule that breaks it." +
		"\n\nThe questions, on paper or for a screen reader: locksim -plain -questions."
}

// link is text as a terminal hyperlink to url (OSC 8), or text alone on
// a renderer that draws no colour (an ASCII profile: a golden file, a
// transcript), where the escape would be noise.
func (a *session) link(url, text string) string {
	if a.com.Styles.R == nil || a.com.Styles.R.ColorProfile() == termenv.Ascii {
		return text
	}
	return ansi.SetHyperlink(url) + text + ansi.ResetHyperlink()
}

// paragraphs are text's paragraphs, each on one line: the course text
// breaks its lines where it likes, a blank line between paragraphs.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// chunks is s cut every n runes: a URL longer than the screen, on lines
// of its own rather than cut off.
func chunks(s string, n int) []string {
	r := []rune(s)
	var out []string
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return append(out, string(r))
}

func (p *endingPage) Update(msg tea.Msg) (Component, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	a := p.a
	switch {
	case key.Matches(k, a.com.Keys.Ending):
		return nil, nil // the status line under it still says how to go on
	case k.Type == tea.KeyUp || k.Type == tea.KeyDown || k.Type == tea.KeyPgUp || k.Type == tea.KeyPgDown ||
		key.Matches(k, a.com.Keys.Step) && a.storyOver():
		// a step at the end would open this page again: it reads on
		a.pl.SetFlash("")
		if k.Type == tea.KeyUp || k.Type == tea.KeyPgUp {
			p.page.HalfPageUp()
		} else {
			p.page.HalfPageDown()
		}
		return p, nil
	}
	c, cmd := p.key(p, k)
	if c == Component(p) {
		if _, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); !ok {
			return nil, cmd // the scene went back before its end
		}
	}
	return c, cmd
}

func (p *endingPage) View() string {
	hint := "a or esc closes this page"
	if !p.page.AtTop() || !p.page.AtBottom() {
		hint = fmt.Sprintf("↑/↓ scroll (%d%%) · %s", int(p.page.ScrollPercent()*100), hint)
	}
	return p.a.overView("the end of "+p.a.pl.Scene.ID, p.page.View()+"\n"+views.OneLine(p.a.com.Styles.Dim, hint))
}

// endLine is the line a race that has run shows under its scoreboard:
// the race has no step past its end, so this is where it says how to go
// on. "" while the race runs, asks, or under a story of the lab.
func (a *session) endLine() string {
	if a.labStory || a.pl.Stepped() || !a.storyOver() {
		return ""
	}
	if _, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); !ok {
		return ""
	}
	return "the race has run · a what it taught · " + a.whatNext()
}

// storyEnd is the timeline's last word at a story's end: that → opens the
// scene's ending, what it taught with its references, where there is one
// (a learner's story of a scene; a presenter's → opens the next story,
// and a story of the lab has no ending).
func (a *session) storyEnd() string {
	if a.course.Present || a.labStory {
		return "end of story"
	}
	if _, ok := a.course.SceneEnding(a.pl.Session, a.pl.role); !ok {
		return "end of story"
	}
	return "end of story · → what it taught"
}
