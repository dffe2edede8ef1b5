package tui

import (
	"locksim/lab"
	"locksim/play"

	tea "github.com/charmbracelet/bubbletea"
)

// hint shows the open level's next staged hint; on a level to fix that
// is passed, its reference fix beside the learner's lock instead.
func (l *Lab) hint() {
	lv := l.level(l.open)
	switch {
	case lv.own:
		l.note = "your own lock has no hints: each level has its own (esc, then a level)"
		return
	case lv.Mode == lab.FixIt && l.passed[lv.ID()]:
		if lk, err := l.lock(); err == nil && lab.ReferenceDiff(lv.Level.ID, &lk) == "" {
			l.note = "same as the reference fix: your lock differs from it only in quotes, comments, spacing and line breaks"
			return
		}
		l.showRef = true
		return
	}
	n := len(lab.Hints(lv.Level.ID, lv.Mode))
	switch {
	case n == 0:
		l.note = "this level has no hints"
	case l.hints >= n:
		l.note = "that was the last hint: the level's goal, at the top, says what is left"
	default:
		l.hints++
	}
}

// failures are the report's judgements that broke, with their breaks.
func (l *Lab) failures() []lab.Judgement {
	if l.report == nil {
		return nil
	}
	var out []lab.Judgement
	for _, v := range l.report.Judgements {
		if v.Status == lab.Fail && v.Break != nil {
			out = append(out, v)
		}
	}
	return out
}

// openBreak asks for the picked break as a story.
func (l *Lab) openBreak() tea.Cmd {
	fs := l.failures()
	if len(fs) == 0 {
		l.note = "no break to open: the adversary has found none (ctrl+r runs it)"
		return nil
	}
	place := play.LabBreak(fs[min(l.pick, len(fs)-1)].Break, l.level(l.open).ID())
	return func() tea.Msg { return labStory{place: place} }
}

// lockParts are lk's parts in the editor's order: acquire, release,
// extend.
func lockParts(lk *lab.Lock) [3]*lab.Part {
	return [3]*lab.Part{&lk.Acquire, &lk.Release, &lk.Extend}
}
