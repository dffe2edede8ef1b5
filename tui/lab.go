package tui

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"locksim/lab"
	"locksim/play"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// labMode is which page of the lab is on screen.
type labMode int

const (
	labList labMode = iota // the levels
	labEdit                // one lock: its parts, its policy, the last result
)

// The policy's fields, after the three parts in the editor's focus order.
const (
	fieldTTL = iota
	fieldRetries
	fieldDelay
	fieldWatchdog
	fieldCount
)

var fieldNames = [fieldCount]string{"TTL", "retries", "delay", "watchdog"}

// watchdogNote is what the watchdog's field does in this lab.
const watchdogNote = "the watchdog is kept with the lock, but the search runs no timers: a lock with an extend renews once, before its write"

// Lab is the lab's screen: the levels, and for the one open its lock (an
// acquire, a release and an extend, each Lua or plain commands), the
// policy around it, the adversary's run with its progress, the result per
// property with the bound it holds within, and a script's error in place.
// A story of the lab (a break the adversary found, a lock to break by
// hand) is asked of the app (labStory), which plays it in the player.
type Lab struct {
	com    *Common
	w, h   int
	mode   labMode
	levels []labLevel
	sel    int // the line selected in the list (len(levels): the learner's own lock)
	open   int // the line in the editor
	passed map[string]bool
	record func(id string) // keeps a level passed in the course's progress
	// live is set when the course runs on a live server: the lab says it
	// runs on an embedded server of its own, and why
	live bool
	// note is a one-time line over the help, until the next key
	note string
	// own is the learner's own lock, read from dir (-lab DIR) and saved
	// there at each run and ctrl+s; with no directory it lives in the
	// editor until locksim ends
	own lab.Lock
	dir string
	// keep is where the session keeps the learner's lock between visits to
	// the lab; back the page esc on the levels goes back to (the contents;
	// nil: the page under the lab)
	keep *lab.Lock
	back *Contents
	// base is the open line's lock as it came: its threat model, bound
	// and properties stay, whatever the editor changes
	base lab.Lock

	parts [3]textarea.Model
	langs [3]lab.Lang
	// files are the parts as they came, before the editor (its text is
	// editorText's): each one's source, the editor's text of it, its
	// control characters' signs and how many it has
	files  [3]partFile
	fields [fieldCount]textinput.Model
	focus  int // 0-2 a part, 3+ a policy field

	// the adversary's run: running while it searches, its progress, the
	// report, a script's error shown in place, or another error
	running   bool
	search    *play.Search // the core runs it; nil before the first
	bar       progress.Model
	prog      lab.Progress
	report    *lab.Report
	scriptErr *lab.ScriptError
	runErr    string
	// pick is the broken property whose break ctrl+o opens, an index in
	// the report's failures
	pick int
	// notes are the lint notes on the lock the adversary last ran on
	// (lab.Lint): dead code the search cannot see
	notes []lab.Note
	// hints is how many of the open level's staged hints are on screen;
	// showRef puts the reference fix beside the learner's lock, as a
	// diff, in place of the editor (a passed level's hint key);
	// showHelp puts the keys page in place of the page
	hints    int
	showRef  bool
	showHelp bool
	// predict is set when the course asks its questions (off with
	// -no-quiz); answered holds the breaks (breakKey) whose story's
	// question the learner has answered: until each break of the report
	// has been, the report stays hidden (play.DiscloseLabReport)
	predict  bool
	answered map[string]bool
	// resTop is how far the learner scrolled the result, in lines, when
	// it is longer than the rows under the editor; resMax the farthest it
	// goes (0: it fits), as the page last drew it
	resTop, resMax int
	// ranOn is the lock the latest search runs on; kept holds each
	// level's latest report (by labLevel.ID) with that lock, shown again
	// when the level is reopened on the same lock
	ranOn lab.Lock
	kept  map[string]keptRun
}

// labStory asks the app to play a story of the lab in the player.
type labStory struct{ place *play.LabPlace }

// newLab is the lab's screen with com's styles and keys; passed are the
// levels the progress says are passed, and record keeps a newly passed
// one. keep holds the learner's own lock (read at start, written when the
// lab is left) and dir is where it is kept on disk ("" for none); live
// says the course runs on a live server; back is the page esc goes back
// to (see Lab.back).
func newLab(com *Common, passed map[string]bool, record func(id string), keep *lab.Lock, dir string, live bool, back *Contents) *Lab {
	l := &Lab{com: com, levels: labLevels(), passed: map[string]bool{}, record: record, own: *keep, keep: keep, dir: dir, live: live,
		bar: com.progressBar(), back: back, answered: map[string]bool{}, kept: map[string]keptRun{}}
	for id, ok := range passed {
		l.passed[id] = ok
	}
	for i := range l.parts {
		l.parts[i] = l.newArea(i)
	}
	for i := range l.fields {
		f := textinput.New()
		f.Prompt = ""
		f.CharLimit = 8
		f.Width = 6
		f.TextStyle, f.PromptStyle, f.PlaceholderStyle = com.Styles.Plain, com.Styles.Plain, com.Styles.Dim
		f.Cursor.Style, f.Cursor.TextStyle = com.Styles.Plain.Reverse(true), com.Styles.Plain
		f.Cursor.SetMode(cursor.CursorStatic)
		l.fields[i] = f
	}
	return l
}

// SetSize sets the size View draws at.
func (l *Lab) SetSize(w, h int) {
	l.w, l.h = w, h
	for i := range l.parts {
		l.parts[i].SetWidth(w)
	}
	l.layout()
	l.bar.Width = max(min(w-44, 40), 10)
}

// minEditorRows is the fewest rows the editor is given, whatever the
// rest of the page asks for: the rows under it that do not fit then go,
// from the bottom.
const minEditorRows = 4

// layout gives the editor the rows the rest of the lock's page leaves
// (the level and its goal, the tabs, the line under the editor, the
// policy, the hints and the result, the footer), each wrapped to the
// width: the page's text is never cut, the editor shrinks instead.
func (l *Lab) layout() {
	rows := minEditorRows
	if l.mode == labEdit && l.h > 0 {
		under := l.partHint()
		if l.scriptErr != nil {
			under = "✗ " + l.scriptErr.Error()
		}
		used := len(l.header()) + len(joinLines(l.levelRows())) + 1 + // the tabs
			strings.Count(l.wrapped(under), "\n") + 1 + 2 + // the policy and a blank
			len(joinLines(l.resultRows())) + l.footerRows()
		rows = max(l.h-used, minEditorRows)
	}
	for i := range l.parts {
		l.parts[i].SetHeight(rows)
	}
}

// editorRows is how many rows the part in view gets (see layout).
func (l *Lab) editorRows() int { return l.parts[0].Height() }

// Running reports that the adversary is searching.
func (l *Lab) Running() bool { return l.running }

// Close cancels a search still running; its late messages are dropped.
func (l *Lab) Close() {
	if l.search != nil {
		l.search.Stop()
		l.search = nil // its late messages name it: they are dropped
	}
	l.running = false
}

// level is line i of the list, the learner's own lock after the levels.
func (l *Lab) level(i int) labLevel {
	if i >= len(l.levels) {
		return labLevel{Level: lab.Level{Title: "your own lock", Lock: l.own}, Mode: lab.FixIt, own: true}
	}
	return l.levels[i]
}

// openLevel puts line i's lock in the editor.
func (l *Lab) openLevel(i int) tea.Cmd {
	l.open, l.mode = i, labEdit
	lk := l.level(i).Lock
	l.base = lk
	for p, part := range lockParts(&lk) {
		l.loadPart(p, part.Src)
		// line 1, column 0: CursorUp lands on the last row of a line
		// that wraps, so the column is set once on line 1
		for l.parts[p].Line() > 0 {
			l.parts[p].CursorUp()
		}
		l.parts[p].CursorStart()
		l.langs[p] = part.Lang
	}
	pol := lk.Policy
	l.fields[fieldTTL].SetValue(formatMS(pol.TTL))
	l.fields[fieldRetries].SetValue(strconv.Itoa(pol.Retries))
	l.fields[fieldDelay].SetValue(formatMS(pol.RetryDelay))
	l.fields[fieldWatchdog].SetValue("off")
	if pol.Watchdog > 0 {
		l.fields[fieldWatchdog].SetValue(formatMS(pol.Watchdog))
	}
	l.report, l.scriptErr, l.runErr, l.notes = nil, nil, "", nil
	l.noteControls()
	l.restoreKept()
	l.hints, l.showRef = 0, false
	// a level opens on the part it is about; the learner's own lock on
	// the release, where most flaws are and where a new lock is empty
	focus := 1
	if lv := l.level(i); !lv.own {
		focus = max(slices.Index(labPartNames[:], lab.FocusPart(lv.Level.ID)), 0)
	}
	l.layout()
	return l.setFocus(focus)
}

// setFocus moves the focus to part or field f (wrapping). In a level to
// break the lock is shown, not edited: nothing takes the keys.
func (l *Lab) setFocus(f int) tea.Cmd {
	n := len(l.parts) + fieldCount
	l.focus = (f%n + n) % n
	for i := range l.parts {
		l.parts[i].Blur()
	}
	for i := range l.fields {
		l.fields[i].Blur()
	}
	if l.level(l.open).Break() {
		return nil
	}
	if l.focus < len(l.parts) {
		return l.parts[l.focus].Focus()
	}
	if l.focus-len(l.parts) == fieldWatchdog {
		// said where it is set, not only in the lab guide
		l.note = watchdogNote
	}
	return l.fields[l.focus-len(l.parts)].Focus()
}

// run asks the core to start the adversary on the editor's lock in the
// background (play.CheckLock); the learner's own lock is saved first.
func (l *Lab) run() tea.Cmd {
	lk, err := l.lock()
	if err != nil {
		l.runErr = err.Error()
		return nil
	}
	if err := l.save(); err != nil {
		l.runErr = "saving the lock: " + oneLine(err)
		return nil
	}
	if lk.Acquire.Empty() || lk.Release.Empty() {
		l.runErr = "the lock needs an acquire and a release before the adversary can run it"
		return nil
	}
	if lv := l.level(l.open); !lv.own {
		// as -grade -level: a part the level's lock does not have would
		// change what its rule judges
		if err := lv.Level.CheckParts(&lk); err != nil {
			l.runErr = err.Error()
			return nil
		}
	}
	l.Close()
	search, start := play.CheckLockBy(l.com.Search, lk)
	l.search, l.running, l.prog, l.ranOn = search, true, lab.Progress{Max: lk.Policy.Bound.MaxSchedules}, lk
	l.report, l.scriptErr, l.runErr = nil, nil, ""
	l.resTop = 0
	l.notes = lab.Lint(&lk)
	return teaCmd(start)
}

// Init starts nothing: a search starts with its key.
func (l *Lab) Init() tea.Cmd { return nil }

// Update handles the search's messages and the lab's keys. On the levels,
// q quits and esc leaves the lab for the page it stood in for (the
// contents), keeping the learner's lock in the session (see newLab).
func (l *Lab) Update(msg tea.Msg) (Component, tea.Cmd) {
	defer l.layout() // what changed may take more rows, or fewer
	switch msg := msg.(type) {
	case play.SearchProgress:
		if msg.S != l.search {
			return l, nil
		}
		l.prog = msg.P
		return l, teaCmd(msg.Next)
	case play.SearchOver:
		if msg.S != l.search {
			return l, nil
		}
		l.running, l.search = false, nil
		l.finish(msg.Report, msg.Err)
		return l, nil
	case tea.KeyMsg:
		l.note = ""
		switch {
		case l.showHelp || l.showRef:
			// a page in place of the lab's: any key takes it away, and does
			// nothing else
			l.showHelp, l.showRef = false, false
			return l, nil
		case l.mode == labList && key.Matches(msg, l.com.LabKeys.Keys):
			l.showHelp = true
			return l, nil
		case l.mode == labList && msg.String() == "q":
			return l, quit
		case l.mode == labList && key.Matches(msg, l.com.LabKeys.Back):
			*l.keep = l.own
			if l.back == nil {
				return nil, nil
			}
			l.back.refreshMenu()
			l.back.selectLab()
			return l.back, nil
		case l.mode == labList:
			return l, l.listKey(msg)
		}
		return l, l.editKey(msg)
	}
	return l, nil
}

// close stops a search still running (see Close).
func (l *Lab) close() { l.Close() }

// finish takes the search's outcome: a report, a script's error (its
// part comes into view, the cursor on its line), or another error. A
// level to fix is passed when the report passes it.
func (l *Lab) finish(rep *lab.Report, err error) {
	var se *lab.ScriptError
	switch {
	case errors.As(err, &se):
		l.scriptErr = se
		p := max(slices.Index(labPartNames[:], se.Part), 0)
		l.setFocus(p)
		ta := &l.parts[p]
		for ta.Line() > 0 {
			ta.CursorUp()
		}
		for ta.Line() < se.Line-1 && ta.Line() < ta.LineCount()-1 {
			ta.CursorDown()
		}
	case err != nil:
		l.runErr = oneLine(err)
	default:
		l.report = rep
		lv := l.level(l.open)
		l.pick = l.firstPick()
		l.kept[lv.ID()] = keptRun{lock: l.ranOn, report: rep, notes: l.notes}
		if !lv.own && lv.Mode == lab.FixIt && lv.Passed(lab.FixIt, rep) {
			l.pass(lv)
		}
	}
}

// pass marks level lv passed, here and in the progress.
func (l *Lab) pass(lv labLevel) {
	if l.passed[lv.ID()] {
		return
	}
	l.passed[lv.ID()] = true
	if l.record != nil {
		l.record(lv.ID())
	}
}

// storyMoved is told each move of a lab story with its session: in a
// level to break, the level is passed once the ledger shows one of its
// properties broken. It returns the line to say, "" for none.
func (l *Lab) storyMoved(s *play.Session) string {
	l.storyAnswered(s)
	lp := s.LabPlace()
	if lp == nil || !strings.HasPrefix(lp.Level, "break:") || len(lp.Moves) > 0 {
		return ""
	}
	i := slices.IndexFunc(l.levels, func(lv labLevel) bool { return lv.ID() == lp.Level })
	if i < 0 {
		return ""
	}
	lv := l.levels[i]
	for _, p := range lab.BrokenWithin(s.Ledger, lv.Lock.Policy.TTL) {
		if slices.Contains(lv.Properties, p) {
			first := !l.passed[lv.ID()]
			l.pass(lv)
			if first {
				return "you broke " + string(p) + ": level passed · esc goes back to the lab"
			}
			return ""
		}
	}
	return ""
}

// listKey handles a key on the levels list.
func (l *Lab) listKey(msg tea.KeyMsg) tea.Cmd {
	k := l.com.LabKeys
	switch {
	case key.Matches(msg, k.Up):
		l.sel = max(l.sel-1, 0)
	case key.Matches(msg, k.Down):
		l.sel = min(l.sel+1, len(l.levels))
	case key.Matches(msg, k.Open):
		return l.openLevel(l.sel)
	}
	return nil
}

// editKey handles a key on a lock's page: the lab's own keys first, the
// rest typed into the part or field in focus.
func (l *Lab) editKey(msg tea.KeyMsg) tea.Cmd {
	k := l.com.LabKeys
	lv := l.level(l.open)
	switch {
	case key.Matches(msg, k.Help), lv.Break() && key.Matches(msg, k.Keys),
		l.focus >= len(l.parts) && msg.String() == "?": // no policy field takes a ?
		l.showHelp = true
		return nil
	case l.running && key.Matches(msg, k.Cancel):
		l.Close()
		l.runErr = "search cancelled: nothing is said of the schedules it had not reached"
		return nil
	case l.running:
		l.note = "the adversary is searching · esc cancels"
		return nil
	case key.Matches(msg, k.Back):
		if err := l.save(); err != nil {
			l.note = "not saved: " + oneLine(err)
		}
		l.mode = labList
		return nil
	case key.Matches(msg, k.Run):
		return l.run()
	case key.Matches(msg, k.Hint):
		l.hint()
		return nil
	case key.Matches(msg, k.Story):
		return l.openBreak()
	case key.Matches(msg, k.Scroll):
		if msg.Type == tea.KeyCtrlUp {
			l.resTop = max(l.resTop-1, 0)
		} else {
			l.resTop = min(l.resTop+1, l.resMax)
		}
		return nil
	case key.Matches(msg, k.Pick) && len(l.failures()) > 1:
		n := len(l.failures())
		l.pick = (l.pick + n + map[bool]int{true: -1, false: 1}[msg.Type == tea.KeyPgUp]) % n
		return nil
	case lv.Break() && key.Matches(msg, k.Hand):
		place := play.LabHand(&l.base, l.base.Policy.Bound.Clients, lv.ID())
		return func() tea.Msg { return labStory{place: place} }
	case key.Matches(msg, k.NextPart):
		return l.setFocus(l.focus + 1)
	case key.Matches(msg, k.PrevPart):
		return l.setFocus(l.focus - 1)
	case lv.Break():
		l.note = "this lock is to break, not to edit: enter plays it, and its level to fix lets you change it"
		return nil
	case key.Matches(msg, k.Lang) && l.focus < len(l.parts):
		l.langs[l.focus] = 1 - l.langs[l.focus]
		return nil
	case key.Matches(msg, k.Save):
		switch err := l.save(); {
		case err != nil:
			l.note = "not saved: " + oneLine(err)
		case l.dir != "" && lv.own:
			l.note = "saved to " + l.dir
		case lv.own:
			l.note = "kept until locksim ends: -lab DIR keeps your lock in files"
		default:
			l.note = "a level's lock is not saved; your own lock is (-lab DIR)"
		}
		return nil
	}
	var cmd tea.Cmd
	if l.focus < len(l.parts) && msg.String() == "?" {
		// a ? belongs in a comment or a string of the code: typed, with a
		// word on where the keys page is, for a learner who asked for it
		l.note = "? typed into " + labPartNames[l.focus] + " · ctrl+g opens the keys page"
	}
	if l.focus < len(l.parts) {
		if msg.Type == tea.KeyRunes {
			msg.Runes = typedRunes(msg.Runes) // see signOf
		}
		before := l.parts[l.focus].Value()
		l.parts[l.focus], cmd = l.parts[l.focus].Update(msg)
		if l.parts[l.focus].Value() != before {
			l.scriptErr = nil // the line it named may have moved
		}
	} else {
		f := l.focus - len(l.parts)
		before := l.fields[f]
		l.fields[f], cmd = l.fields[f].Update(msg)
		if v := l.fields[f].Value(); len(v) > len(before.Value()) && !fieldTakes(f, v) {
			l.fields[f], cmd = before, nil // code typed here (a deletion stays): see fieldTakes
			l.note = l.refusedInField(f, msg.String())
		}
	}
	return cmd
}
