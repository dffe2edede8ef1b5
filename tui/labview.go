package tui

import (
	"fmt"
	"slices"
	"strings"

	"locksim/lab"
	"locksim/shown"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// View draws the lab at the size SetSize set.
func (l *Lab) View() string {
	if l.mode == labList {
		return l.listView()
	}
	return l.editView()
}

// header is the lab's title line, with the embedded server's note on a
// live course.
func (l *Lab) header() []string {
	key := "lab header\x00" + itoa(int64(l.w))
	if l.live {
		key += "\x00live"
	}
	rows := l.com.memoRows(key, func() []string {
		st := l.com.Styles
		out := []string{truncate(st.Title.Render(" the lab ")+" "+st.Bold.Render("write your own lock, and locksim attacks it"), l.w)}
		if l.live {
			out = append(out, st.Warn.Render(truncate(labLiveNote, l.w)))
		}
		return out
	})
	return slices.Clip(rows) // the caller's appends copy it
}

// labLiveNote says why the lab does not use the -redis server.
const labLiveNote = "runs on an embedded server of its own, not -redis: your script can name any key, " +
	"and a read-only probe cannot prove its writes stay in locksim's keys"

// levelLine is level lv's line in the list: its mark, its kind, its title.
func (l *Lab) levelLine(lv labLevel) string {
	mark, kind := "·", "fix this lock  "
	if l.passed[lv.ID()] {
		mark = "✓"
	}
	switch {
	case lv.own:
		mark, kind = " ", "write one      "
	case lv.Mode == lab.BreakIt:
		kind = "break this lock"
	}
	return mark + " " + kind + "  " + lv.Title
}

// listView draws the levels, one line each, and the selected one's goal
// under them; a list longer than the screen scrolls with the selection.
func (l *Lab) listView() string {
	st := l.com.Styles
	rows := l.header()
	if l.showHelp {
		rows = append(rows, l.helpRows()...)
	} else {
		rows = joinLines(append(rows, styleLines(st.Dim, l.wrapped("break a lock by making its moves; fix one until the adversary finds no break")), ""))
		goal := l.wrapped(l.level(l.sel).goal(l.dir, l.propsNamed(l.sel)))
		foot := l.footerRows()
		below := strings.Count(goal, "\n") + 1 + 1 // the goal's rule and lines
		n := len(l.levels) + 1
		room := max(l.h-len(rows)-below-foot-1, 3) // a blank over the goal
		first, shown := listWindow(l.sel, n, room)
		if first > 0 {
			rows = append(rows, st.Dim.Render(truncate("  ↑ "+itoa(int64(first))+" more", l.w)))
		}
		for i := first; i < first+shown; i++ {
			line := "  " + l.levelLine(l.level(i))
			if i == l.sel {
				line = st.Title.Render("> " + l.levelLine(l.level(i)))
			}
			rows = append(rows, truncate(line, l.w))
		}
		if rest := n - first - shown; rest > 0 {
			rows = append(rows, st.Dim.Render(truncate("  ↓ "+itoa(int64(rest))+" more", l.w)))
		}
		for len(rows) < l.h-below-foot {
			rows = append(rows, "")
		}
		rows = append(rows, views.Rule(st, "goal", l.w), goal)
	}
	foot := l.footer()
	return fitRows(strings.Join(rows, "\n"), l.h-len(foot)) + "\n" + strings.Join(foot, "\n")
}

// listWindow is the part of a list of n lines that room rows show, the
// selected line sel in it: its first line and how many lines show. A line
// that says how many more lie above, or below, takes a row of room, so a
// hidden line is always counted on screen.
func listWindow(sel, n, room int) (first, shown int) {
	if n <= room {
		return 0, n
	}
	for shown = max(room, 1); ; shown-- {
		first = max(0, min(sel-shown/2, n-shown))
		marks := 0
		if first > 0 {
			marks++
		}
		if first+shown < n {
			marks++
		}
		if shown+marks <= room || shown == 1 {
			return first, shown
		}
	}
}

// tabs is the parts' line: each part's name and language, the one in
// view marked.
func (l *Lab) tabs() string {
	st := l.com.Styles
	var out []string
	for i, name := range labPartNames {
		lang := "commands"
		if l.langs[i] == lab.Lua {
			lang = "Lua"
		}
		if strings.TrimSpace(l.parts[i].Value()) == "" && i != l.focus {
			lang = "none"
		}
		t := "[" + name + ": " + lang + "]"
		if i == l.focus && !l.level(l.open).Break() {
			t = focusMark + t
		}
		if i == l.partInView() {
			t = st.Title.Render(t)
		} else {
			t = st.Dim.Render(t)
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

// partInView is the part whose editor shows: the one in focus, or the
// last one focused while a policy field has the focus.
func (l *Lab) partInView() int {
	if l.focus < len(l.parts) {
		return l.focus
	}
	return len(l.parts) - 1
}

// policyLine is the policy's fields in a row.
func (l *Lab) policyLine() string {
	st := l.com.Styles
	var out []string
	for i, name := range fieldNames {
		label := st.Dim.Render(name + " ")
		if l.focus == len(l.parts)+i && !l.level(l.open).Break() {
			label = st.Key.Render(focusMark + name + " ")
		}
		out = append(out, label+"["+l.fields[i].View()+"]")
	}
	return strings.Join(out, " ")
}

// editView draws the open lock: the level and its goal, the parts, the
// editor of the one in view, a script's error under it, the policy, then
// the level's hints, whether it is passed, the search's progress or its
// result and the lint notes; the keys page or the reference fix in place
// of the lock when asked. No line is cut: what does not fit a row wraps,
// and the editor gives up rows to it (see editorRows).
func (l *Lab) editView() string {
	st := l.com.Styles
	rows := l.header()
	rows = append(rows, l.levelRows()...)
	switch {
	case l.showHelp:
		rows = append(rows, l.helpRows()...)
	case l.showRef:
		rows = append(rows, l.referenceRows(l.h-len(rows)-l.footerRows())...)
	default:
		rows = append(rows, l.tabs())
		rows = append(rows, fitRows(l.parts[l.partInView()].View(), l.editorRows()))
		if se := l.scriptErr; se != nil {
			rows = append(rows, styleLines(st.Bad, l.wrapped("✗ "+se.Error())))
		} else {
			rows = append(rows, styleLines(st.Dim, l.wrapped(l.partHint())))
		}
		rows = append(rows, l.policyLine(), "")
		pre := joinLines(rows)
		rows = append(pre, l.resultWindow(l.h-l.footerRows()-len(pre))...)
	}
	foot := l.footer()
	return fitRows(strings.Join(rows, "\n"), l.h-len(foot)) + "\n" + strings.Join(foot, "\n")
}

// levelRows are the open level's title and goal, then its properties,
// threats and bound, wrapped.
func (l *Lab) levelRows() []string {
	lv := l.level(l.open)
	kind, what := "fix this lock: ", ""
	switch {
	case lv.own:
		kind = ""
	case lv.Break():
		kind, what = "break this lock: ", lv.BreakGoal
	default:
		what = lv.FixGoal
	}
	full := lv.goal(l.dir, l.propsNamed(l.open))
	title := kind + lv.Title
	return l.com.memoRows("lab level\x00"+title+"\x00"+what+"\x00"+full+"\x00"+itoa(int64(l.w)), func() []string {
		return l.drawLevelRows(title, what, full)
	})
}

// drawLevelRows draws levelRows: title and what on the first rows, the
// goal's last line (properties, threats, bound) wrapped under them.
func (l *Lab) drawLevelRows(title, what, full string) []string {
	st := l.com.Styles
	goal := strings.SplitN(full, "\n", 2)
	var out []string
	if what != "" {
		// the title bold, the goal after it dim, wrapped as one text
		lines := strings.Split(l.wrapped(title+" · "+what), "\n")
		first := lines[0]
		if strings.HasPrefix(first, title) {
			first = st.Bold.Render(title) + st.Dim.Render(strings.TrimPrefix(first, title))
		}
		out = append(out, first)
		for _, line := range lines[1:] {
			out = append(out, st.Dim.Render(line))
		}
	} else {
		out = append(out, st.Bold.Render(title))
	}
	return append(out, styleLines(st.Dim, l.wrapped(goal[len(goal)-1])))
}

// helpRows is the keys page, in place of the lock: every key of the page
// open, and how to type a ? into the code.
func (l *Lab) helpRows() []string {
	st := l.com.Styles
	legend := []string{
		"in the editor every key is typed, ? included: ctrl+g opens this page there",
		"results: ✓ no break  ✗ broken (▸ the one ctrl+o opens)  ! could not judge",
		"✓ lesson: your own lock broken only by faults no lease survives",
	}
	return []string{"", views.HelpPage(st, l.KeyMap().FullHelp(), legend, l.w)}
}

// referenceRows is the reference fix beside the learner's lock, as
// unified diffs of the parts that differ, in at most n rows.
func (l *Lab) referenceRows(n int) []string {
	st := l.com.Styles
	lv := l.level(l.open)
	out := []string{views.Rule(st, "your lock (−) beside the reference fix (+)", l.w)}
	lk, err := l.lock()
	if err != nil {
		return append(out, st.Warn.Render(oneLine(err)))
	}
	lines := strings.Split(strings.TrimRight(lab.ReferenceDiff(lv.Level.ID, &lk), "\n"), "\n")
	room := max(n-2, 1)
	more := 0
	if len(lines) > room {
		lines, more = lines[:room-1], len(lines)-(room-1)
	}
	for _, line := range lines {
		style := st.Plain
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			style = st.Bold
		case strings.HasPrefix(line, "@@"):
			style = st.Dim
		case strings.HasPrefix(line, "+"):
			style = st.Good
		case strings.HasPrefix(line, "-"):
			style = st.Bad
		}
		out = append(out, style.Render(truncate(shown.Text(line), l.w))) // the learner's bytes, shown
	}
	if more > 0 {
		out = append(out, st.Dim.Render(itoa(int64(more))+" more lines of the diff: a taller terminal shows them"))
	}
	return out
}

// footerRows is len(footer()), without drawing the help line: the note's
// rows and the help line's.
func (l *Lab) footerRows() int {
	if l.note == "" {
		return 1
	}
	return strings.Count(l.wrapped(l.note), "\n") + 2
}

// footer is the page's last rows: the one-time note, wrapped, over the
// keys that fit one row, the keys page's key always among them (a note
// never hides how to reach the keys page).
func (l *Lab) footer() []string {
	st := l.com.Styles
	var out []string
	if l.note != "" {
		out = strings.Split(styleLines(st.Warn, l.wrapped(l.note)), "\n")
	}
	if l.showHelp || l.showRef {
		return append(out, st.Dim.Render("any key: back"))
	}
	// the help line by the keys' help it names and the width
	short := l.KeyMap().ShortHelp()
	key := "lab help\x00" + itoa(int64(l.w))
	for _, b := range short {
		key += fmt.Sprintf("\x00%v\x00%s\x00%s", b.Enabled(), b.Help().Key, b.Help().Desc)
	}
	line := l.com.memoRows(key, func() []string {
		return []string{st.Dim.Render(views.HelpLine(fitKeys(short, l.w)))}
	})
	return append(out, line...)
}

// fitKeys is bindings with as many left out, from the end, as makes their
// help line fit w columns; the last binding (the keys page's) stays.
func fitKeys(bs []key.Binding, w int) []key.Binding {
	if len(bs) == 0 {
		return bs
	}
	last := bs[len(bs)-1]
	head := slices.Clone(bs[:len(bs)-1])
	for len(head) > 0 && ansi.StringWidth(views.HelpLine(append(slices.Clone(head), last))) > w {
		head = head[:len(head)-1]
	}
	return append(head, last)
}

// wrapped is wrapWords of text at the lab's width, drawn once for the
// frames and layouts that draw the same text again (see Common.memoRows).
func (l *Lab) wrapped(text string) string {
	return l.com.memoRows("lab wrap\x00"+itoa(int64(l.w))+"\x00"+text, func() []string {
		return []string{wrapWords(text, l.w)}
	})[0]
}

// partHint is the line under the editor when no error is there: how the
// part in view is called and what its reply means.
func (l *Lab) partHint() string {
	if f := l.focus - len(l.parts); f >= 0 && !l.level(l.open).Break() {
		return l.fieldHint(f)
	}
	p := l.partInView()
	args := "KEYS[1] the lock key, ARGV[1] your token, ARGV[2] the TTL in ms"
	if l.langs[p] == lab.Commands {
		args = "a command a line with {key} {token} {ttl}; if nil:, if token:, if 1: guard a line"
	}
	reply := "1 done, 0 or -1 not"
	if p == 0 {
		reply = "OK or a number: granted (a number is your fencing token)"
	}
	hint := labPartNames[p] + ": " + args + " · reply " + reply
	if f := l.files[p]; f.controls > 0 {
		_, kept := fileText(l.parts[p].Value(), f.signs)
		hint = signsNote(labPartNames[p], f.controls, kept) + " · " + hint
	}
	return hint
}

// resultWindow is the result's lines (resultRows) in room rows: all of
// them when they fit; else the first (verdictHead: whose break it is, the
// lock's own or a lesson) stays, the rest shows from the learner's scroll (Scroll)
// and its last row says how many lines are above and below, and the key.
func (l *Lab) resultWindow(room int) []string {
	rows := l.resultRows()
	lines := joinLines(rows)
	l.resMax = 0
	head := 1
	if l.report != nil && !l.running && l.runErr == "" && len(rows) > 0 {
		head = len(joinLines(rows[:1])) // verdictHead, wrapped
	}
	if room < head+2 || len(lines) <= room {
		return lines
	}
	rest := lines[head:]
	win := room - head - 1
	l.resMax = len(rest) - win
	l.resTop = min(max(l.resTop, 0), l.resMax)
	out := append(slices.Clone(lines[:head]), rest[l.resTop:l.resTop+win]...)
	above, below := l.resTop, l.resMax-l.resTop
	var where []string
	if below > 0 {
		where = append(where, "↓ "+itoa(int64(below))+" more "+plural(below, "line", "lines")+" below")
	}
	if above > 0 {
		where = append(where, "↑ "+itoa(int64(above))+" above")
	}
	return append(out, l.com.Styles.Dim.Render(strings.Join(where, ", ")+" · ctrl+↓/↑ scroll the result"))
}

// verdictHead is the result in one line: the lock's own breaks, or the
// breaks that are only the course's lesson (on the learner's own lock,
// as -grade reads it), or none.
func (l *Lab) verdictHead(rep *lab.Report) string {
	st := l.com.Styles
	own := l.level(l.open).own
	var mine, lessons, unjudged []lab.Property
	for _, v := range rep.Judgements {
		switch {
		case v.Status == lab.Fail && v.Lesson && own:
			lessons = append(lessons, v.Property)
		case v.Status == lab.Fail:
			mine = append(mine, v.Property)
		case v.Status == lab.Error:
			unjudged = append(unjudged, v.Property)
		}
	}
	switch {
	case len(mine) > 0 && own:
		return styleLines(st.Bad, l.wrapped("✗ your lock's own break: "+joinIDs(mine)+" (a bug, not a lesson)"))
	case len(mine) > 0:
		return styleLines(st.Bad, l.wrapped("✗ broken within the level's bound: "+joinIDs(mine)))
	case !rep.Grants:
		return styleLines(st.Bad, l.wrapped("✗ the lock does not grant when free"))
	case len(unjudged) > 0:
		return styleLines(st.Warn, l.wrapped("! could not judge: "+joinIDs(unjudged)))
	case len(lessons) > 0:
		return styleLines(st.Good, l.wrapped("✓ no break of your lock's own; "+joinIDs(lessons)+": only the lesson"))
	}
	return styleLines(st.Good, l.wrapped("✓ no break within the bound"))
}

// hiddenHead stands for the report while a break's question is open:
// how many breaks there are, and how to see the rest.
func (l *Lab) hiddenHead() string {
	n, open := len(l.failures()), l.openBreaks()
	if n == 1 {
		return "? the adversary found a break: ctrl+o plays it, and asks you about one of its moves before it shows; " +
			"which property broke, and how, shows here once you have answered"
	}
	return "? the adversary found " + itoa(int64(n)) + " breaks: ctrl+o plays break " + itoa(int64(min(l.pick, n-1)+1)) + " (pgdn another), each asking you about one of its moves " +
		"before it shows; which properties broke, and how, shows here once you have answered each (" + itoa(int64(open)) + " to go)"
}

// resultRows are the level's hints and whether it is passed, then the
// search's progress while it runs, or its result: the bound, one line per
// property, the picked break in one sentence, the course's lesson if the
// threat model alone breaks mutual exclusion; then the lint notes.
func (l *Lab) resultRows() []string {
	st := l.com.Styles
	out := l.hintRows()
	switch {
	case l.running && l.prog.Waiting > 0:
		// served: the server runs a few searches at once, and this one
		// waits in line for a slot
		wait := "waiting for one of the server's " + itoa(int64(l.prog.Slots)) + " search slots: place " +
			itoa(int64(l.prog.Waiting)) + " in the queue; the search starts when a slot is free (esc cancels)"
		return append(out, styleLines(st.Warn, l.wrapped(wait)))
	case l.running:
		label := lab.Thousands(l.prog.Explored) + " schedules explored, " + lab.Thousands(l.prog.Broke) + " broke"
		out = append(out, l.bar.ViewAs(min(max(l.prog.Done, 0), 1))+" "+st.Dim.Render(label))
		if l.com.SearchLimits != "" {
			out = append(out, styleLines(st.Dim, l.wrapped(l.com.SearchLimits)))
		}
		return out
	case l.runErr != "":
		return append(out, styleLines(st.Warn, l.wrapped(l.runErr)))
	case l.report == nil:
		return append(out, st.Dim.Render(l.wrapped("the adversary has not run on this lock yet (ctrl+r)")))
	}
	rep := l.report
	if d := l.reportShown(); !rep.Refused && !d.State {
		// each break's story asks which property the move that breaks it
		// breaks: the report would answer that (play.DiscloseLabReport),
		// and so would its summary: "28 explored, 28 broke" is a lock
		// that breaks even with nobody in its way, which only
		// deadlock-freedom's break does
		out = append([]string{styleLines(st.Warn, l.wrapped(l.hiddenHead()))}, out...)
		for _, n := range l.notes {
			out = append(out, styleLines(st.Warn, l.wrapped("note "+n.String())))
		}
		return out
	}
	if !rep.Refused {
		// whose break it is comes first: the line a short screen keeps
		out = append([]string{l.verdictHead(rep)}, out...)
	}
	out = append(out, styleLines(st.Bold, l.wrapped(rep.Summary())))
	if rep.Refused {
		return out
	}
	var picked *lab.Break
	if fs := l.failures(); len(fs) > 0 {
		picked = fs[min(l.pick, len(fs)-1)].Break
	}
	const indent = 2 + 19 + 1
	for _, v := range rep.Judgements {
		id := fmt.Sprintf("%-19s", v.Property)
		if picked != nil && v.Break == picked {
			id = fmt.Sprintf("%-19s", "▸"+string(v.Property))
		}
		switch {
		case v.Status == lab.Pass:
			out = append(out, st.Good.Render("✓ "+id)+" no break within the bound")
		case v.Status == lab.Fail && v.Lesson && l.level(l.open).own:
			// as -grade reads your own lock: only faults no lease survives
			// break it, which is the course's lesson, not a bug of the lock
			// (a level's rule counts it, and there it stays a ✗)
			msg := "lesson: only " + faultList(v.Break.FaultMoves()) + " breaks it, which no lease survives; not a bug of your lock"
			out = append(out, indentRest(st.Good.Render("✓ "+id)+" ", styleLines(st.Warn, wrapWords(msg, l.w-indent)), indent)...)
		case v.Status == lab.Fail:
			msg := v.Message
			if b := v.Break; b != nil {
				n := len(b.FaultMoves())
				msg = "broken in " + itoa(int64(len(b.Moves))) + " " + plural(len(b.Moves), "move", "moves") + ", " +
					itoa(int64(n)) + " " + plural(n, "fault", "faults")
			}
			out = append(out, indentRest(st.Bad.Render("✗ "+id)+" ", wrapWords(msg, l.w-indent), indent)...)
		default:
			out = append(out, indentRest(st.Warn.Render("! "+id)+" ", wrapWords(v.Message, l.w-indent), indent)...)
		}
	}
	if picked != nil {
		out = append(out, l.wrapped("▸ "+picked.Sentence()))
	}
	if !rep.Grants {
		why := "the lock refuses a client on a free server: it never lets anyone in"
		if rep.NoGrant != "" {
			why = "the lock does not grant when free: " + rep.NoGrant
		}
		out = append(out, styleLines(st.Bad, l.wrapped("✗ "+why)))
	}
	if lesson := rep.Lesson; lesson != "" {
		if l.h < 32 {
			// a short screen keeps the lesson's first sentence, whole; the
			// rest is the story's and the grade's to tell
			if i := strings.Index(lesson, ". "); i > 0 {
				lesson = lesson[:i+1]
			}
		}
		out = append(out, styleLines(st.Warn, l.wrapped(lesson)))
	}
	for _, n := range l.notes {
		out = append(out, styleLines(st.Warn, l.wrapped("note "+n.String())))
	}
	return out
}

// hintRows are the open level's hints shown so far, and a line saying it
// is passed.
func (l *Lab) hintRows() []string {
	st := l.com.Styles
	lv := l.level(l.open)
	if lv.own {
		return nil
	}
	var out []string
	hs := lab.Hints(lv.Level.ID, lv.Mode)
	for i := range min(l.hints, len(hs)) {
		out = append(out, styleLines(st.Accent, l.wrapped("hint "+itoa(int64(i+1))+" of "+itoa(int64(len(hs)))+": "+hs[i])))
	}
	if l.passed[lv.ID()] {
		done := "✓ level passed: you broke its lock"
		switch {
		case lv.Mode == lab.FixIt && l.report == nil:
			// passed in the progress; the lock in the editor is not run yet
			done = "✓ level passed before · ctrl+x puts the reference fix beside yours"
		case lv.Mode == lab.FixIt && !lv.Passed(lab.FixIt, l.report):
			// the level stays passed in the progress, but this version of
			// the lock is judged above: the line must not vouch for it
			done = "✓ level passed before, though not by this version of the lock (its result is above) · ctrl+x puts the reference fix beside yours"
		case lv.Mode == lab.FixIt:
			done = "✓ level passed: the adversary finds no break of " + joinIDs(lv.Properties) +
				" within the bound, and the lock grants · ctrl+x puts the reference fix beside yours"
		}
		out = append(out, styleLines(st.Good, l.wrapped(done)))
	}
	return out
}
