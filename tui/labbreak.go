package tui

import (
	"encoding/json"
	"reflect"

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

// placeKey names a lab story's place: its lock, schedule and property.
func placeKey(lp *play.LabPlace) string {
	b, _ := json.Marshal(lp) // plain fields: it cannot fail
	return string(b)
}

// breakKey names break v of the open level as far as its question goes:
// the story it opens (the same break found again by a later run has the
// same key), or, for a break only the lesson's faults make, its property
// alone: no lease survives those faults, so its question is the same
// whatever lock is run.
func (l *Lab) breakKey(v lab.Judgement) string {
	if v.Lesson {
		return "lesson:" + l.level(l.open).ID() + ":" + string(v.Property)
	}
	return placeKey(play.LabBreak(v.Break, l.level(l.open).ID()))
}

// storyAnswered keeps story s's break answered once its question is no
// longer open to the learner, picks a break still to answer, and lays
// the page out again.
func (l *Lab) storyAnswered(s *play.Session) {
	lp := s.LabPlace()
	if lp == nil || len(lp.Moves) == 0 || play.LabQuestionOpen(s) {
		return
	}
	key := placeKey(lp)
	fs := l.failures()
	// the last answer shows the report, which takes rows of its own
	// (layout): the editor gives them back
	open := l.openBreaks()
	defer func() {
		if l.openBreaks() != open {
			l.layout()
		}
	}()
	for _, v := range fs {
		if placeKey(play.LabBreak(v.Break, l.level(l.open).ID())) == key {
			l.answered[l.breakKey(v)] = true
		}
	}
	// ctrl+o next opens a break still to answer
	for i := range fs {
		if at := (l.pick + i) % len(fs); !l.answered[l.breakKey(fs[at])] {
			l.pick = at
			break
		}
	}
}

// firstPick is the break ▸ marks first in a new report: one whose
// question is still to answer (the same lock run again finds the breaks
// already answered), the lock's own before a lesson's.
func (l *Lab) firstPick() int {
	own := l.level(l.open).own
	fs := l.failures()
	for _, open := range []bool{true, false} {
		for i, v := range fs {
			if !(v.Lesson && own) && (!open || !l.answered[l.breakKey(v)]) {
				return i
			}
		}
		for i, v := range fs {
			if open && !l.answered[l.breakKey(v)] {
				return i
			}
		}
	}
	return 0
}

// reportShown is what the page may show of the report: the core's rule,
// given how many of its breaks' questions are still open.
func (l *Lab) reportShown() play.Disclosure {
	return play.DiscloseLabReport(l.openBreaks(), l.predict, play.Learner)
}

// openBreaks counts the report's breaks whose story's question the
// learner has not answered; a story that asks nothing (lab.Judgement.Asks)
// keeps nothing back.
func (l *Lab) openBreaks() int {
	open := 0
	for _, v := range l.failures() {
		if v.Asks && !l.answered[l.breakKey(v)] {
			open++
		}
	}
	return open
}

// keptRun is a level's latest report and the lock it judged.
type keptRun struct {
	lock   lab.Lock
	report *lab.Report
	notes  []lab.Note
}

// restoreKept shows the open level's latest report again, while the lock
// in the editor is the one it judged.
func (l *Lab) restoreKept() {
	k, ok := l.kept[l.level(l.open).ID()]
	if !ok {
		return
	}
	if now, err := l.lock(); err == nil && reflect.DeepEqual(now, k.lock) {
		l.report, l.notes = k.report, k.notes
		l.pick = l.firstPick()
	}
}

// propsNamed reports whether level i's goal may name the properties it
// judges: the core's rule, play.LabPropertiesNamed (a level to fix not
// before its run, none while a break of its report has its question
// open).
func (l *Lab) propsNamed(i int) bool {
	lv := l.level(i)
	ran, open := false, 0
	if i == l.open && l.report != nil {
		ran, open = true, l.openBreaks()
	}
	return play.LabPropertiesNamed(!lv.own && lv.Mode == lab.FixIt, ran, open, l.predict, play.Learner)
}
