package tui

import (
	"fmt"
	"strings"

	"locksim/lab"
	"locksim/views"

	"github.com/charmbracelet/lipgloss"
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
	st := l.com.Styles
	out := []string{truncate(st.Title.Render(" the lab ")+" "+st.Bold.Render("write your own lock, and locksim attacks it"), l.w)}
	if l.live {
		out = append(out, st.Warn.Render(truncate(labLiveNote, l.w)))
	}
	return out
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
	rows = append(rows, st.Dim.Render(truncate("break a lock by scheduling its clients and faults yourself; fix one until the adversary finds no break", l.w)), "")
	n := len(l.levels) + 1
	goalRows := 4
	room := max(l.h-len(rows)-goalRows-3, 3) // the goal's rule and lines, a blank, the help
	first := max(0, min(l.sel-room/2, n-room))
	for i := first; i < min(n, first+room); i++ {
		line := "  " + l.levelLine(l.level(i))
		if i == l.sel {
			line = st.Title.Render("> " + l.levelLine(l.level(i)))
		}
		rows = append(rows, truncate(line, l.w))
	}
	for len(rows) < l.h-goalRows-2 {
		rows = append(rows, "")
	}
	rows = append(rows, views.Rule(st, "goal", l.w), st.Wrap(l.level(l.sel).goal(l.dir), l.w, goalRows))
	help := views.HelpLine(l.KeyMap().ShortHelp())
	if l.note != "" {
		help = st.Warn.Render(l.note)
	}
	return fitRows(strings.Join(rows, "\n"), l.h-1) + "\n" + truncate(st.Dim.Render(help), l.w)
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
			label = st.Key.Render(name + " ")
		}
		out = append(out, label+"["+l.fields[i].View()+"]")
	}
	return strings.Join(out, " ")
}

// editView draws the open lock: the goal, the parts, the editor of the
// one in view, a script's error under it, the policy, then the search's
// progress or its result.
func (l *Lab) editView() string {
	st := l.com.Styles
	lv := l.level(l.open)
	kind := "fix this lock: "
	switch {
	case lv.own:
		kind = ""
	case lv.Break():
		kind = "break this lock: "
	}
	rows := l.header()
	goal := strings.SplitN(lv.goal(l.dir), "\n", 2)
	title := st.Bold.Render(kind + lv.Title)
	switch {
	case lv.Break():
		title += st.Dim.Render(" · " + lv.BreakGoal)
	case !lv.own:
		title += st.Dim.Render(" · " + lv.FixGoal)
	}
	rows = append(rows, truncate(title, l.w), styleLines(st.Dim, st.Wrap(goal[len(goal)-1], l.w, 2)))
	rows = append(rows, l.tabs())
	rows = append(rows, fitRows(l.parts[l.partInView()].View(), l.editorRows()))
	if se := l.scriptErr; se != nil {
		rows = append(rows, st.Bad.Render(truncate("✗ "+se.Error(), l.w)))
	} else {
		rows = append(rows, st.Dim.Render(truncate(l.partHint(), l.w)))
	}
	rows = append(rows, truncate(l.policyLine(), l.w), "")
	rows = append(rows, l.resultRows()...)
	help := views.HelpLine(l.KeyMap().ShortHelp())
	if l.note != "" {
		help = st.Warn.Render(l.note)
	}
	return fitRows(strings.Join(rows, "\n"), l.h-1) + "\n" + truncate(st.Dim.Render(help), l.w)
}

// partHint is the line under the editor when no error is there: how the
// part in view is called and what its reply means.
func (l *Lab) partHint() string {
	p := l.partInView()
	args := "KEYS[1] the lock key, ARGV[1] your token, ARGV[2] the TTL in ms"
	if l.langs[p] == lab.Commands {
		args = "one command a line with {key} {token} {ttl}; \"if nil:\", \"if token:\", \"if 1:\" guard a line"
	}
	reply := "1 done, 0 or -1 not"
	if p == 0 {
		reply = "OK or a number: granted (a number is your fencing token)"
	}
	return labPartNames[p] + ": " + args + " · reply " + reply
}

// resultRows are the search's progress while it runs, then its result:
// the bound, one line per property, and the course's lesson if the threat
// model alone breaks mutual exclusion.
func (l *Lab) resultRows() []string {
	st := l.com.Styles
	switch {
	case l.running:
		label := lab.Thousands(l.prog.Explored) + " schedules explored, " + lab.Thousands(l.prog.Broke) + " broke"
		return []string{l.bar.ViewAs(min(max(l.prog.Done, 0), 1)) + " " + st.Dim.Render(label)}
	case l.runErr != "":
		return []string{st.Warn.Render(truncate(l.runErr, l.w))}
	case l.report == nil:
		return []string{st.Dim.Render(truncate("the adversary has not run on this lock yet (ctrl+r)", l.w))}
	}
	rep := l.report
	out := []string{styleLines(st.Bold, strings.TrimRight(st.Wrap(rep.Summary(), l.w, 2), "\n"))}
	if rep.Refused {
		return out
	}
	picked := ""
	if fs := l.failures(); len(fs) > 0 {
		picked = string(fs[min(l.pick, len(fs)-1)].Property)
	}
	for _, v := range rep.Judgements {
		id := fmt.Sprintf("%-19s", v.Property)
		if string(v.Property) == picked {
			id = fmt.Sprintf("%-19s", "▸"+string(v.Property))
		}
		var mark string
		msg := v.Message
		switch v.Status {
		case lab.Pass:
			mark, msg = st.Good.Render("✓ "+id), "no break within the bound"
		case lab.Fail:
			mark = st.Bad.Render("✗ " + id)
		default:
			mark = st.Warn.Render("! " + id)
		}
		indent := 2 + 19 + 1
		if !l.tall() || v.Status == lab.Pass {
			out = append(out, truncate(mark+" "+msg, l.w))
			continue
		}
		lines := strings.Split(st.Wrap(msg, l.w-indent, 2), "\n")
		out = append(out, mark+" "+lines[0])
		if len(lines) > 1 && lines[1] != "" {
			out = append(out, strings.Repeat(" ", indent)+lines[1])
		}
	}
	if !rep.Grants {
		out = append(out, st.Bad.Render(truncate("✗ the lock refuses a client on a free server: it never lets anyone in", l.w)))
	}
	if rep.Lesson != "" {
		out = append(out, styleLines(st.Warn, st.Wrap(rep.Lesson, l.w, 2)))
	}
	return out
}

// styleLines renders each line of text with style s on its own, so no
// line is padded to the widest.
func styleLines(s lipgloss.Style, text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = s.Render(line)
	}
	return strings.Join(lines, "\n")
}
