package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/play"
	"locksim/views"

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
	labEdit                // the lock's parts and policy, with the last result
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

// Lab is the lab's screen: the levels, and for the level open the editor
// of its lock (acquire, release, extend, as Lua or plain commands), the
// policy around it, the adversary's run with its progress, and the result
// per property with the bound it holds within.
type Lab struct {
	com    *Common
	w, h   int
	mode   labMode
	levels []labLevel
	sel    int // the level selected in the list
	open   int // the level in the editor
	passed map[string]bool
	// live is set when the course runs on a live server: the lab says it
	// runs on an embedded server of its own, and why
	live bool
	// note is a one-time line over the help, until the next key
	note string
	// own is the learner's own lock, the list's last line: read from dir
	// (-lab DIR) and written back there at each run and ctrl+s; "" for no
	// directory, when it lives in the editor only
	own labLock
	dir string
	// base is the open level's lock as it came, whose threat model and
	// bound the editor keeps
	base labLock

	parts  [3]textarea.Model
	langs  [3]labLang
	fields [fieldCount]textinput.Model
	focus  int // 0-2 a part, 3+ a policy field

	// the adversary's run: running while it searches, its progress, the
	// result and a script's error shown in place
	running         bool
	cancel          context.CancelFunc
	updates         chan tea.Msg
	bar             progress.Model
	done, total     int
	report          *labReport
	scriptErr       *labScriptError
	runErr          string
	passedNow       func(id string) // records a level passed in the progress
	gen             int             // numbers runs, so a cancelled run's late messages are dropped
	cancelledBefore bool
}

// labProgress is the adversary's progress, and labOver its end.
type labProgress struct {
	gen         int
	done, total int
}

type labOver struct {
	gen    int
	report labReport
	err    error
}

// newLab is the lab's screen with com's styles and keys; passed are the
// levels the progress says are passed, and record keeps a newly passed
// one. live says the course runs on a live server.
func newLab(com *Common, passed map[string]bool, record func(id string), live bool) *Lab {
	l := &Lab{com: com, levels: labLevels(), passed: passed, passedNow: record, live: live, bar: com.progressBar()}
	if l.passed == nil {
		l.passed = map[string]bool{}
	}
	for i := range l.parts {
		l.parts[i] = l.newArea()
	}
	for i := range l.fields {
		f := textinput.New()
		f.Prompt = ""
		f.CharLimit = 8
		f.Width = 7
		f.TextStyle = com.Styles.Plain
		f.PromptStyle = com.Styles.Plain
		f.PlaceholderStyle = com.Styles.Dim
		f.Cursor.Style = com.Styles.Plain.Reverse(true)
		f.Cursor.TextStyle = com.Styles.Plain
		f.Cursor.SetMode(cursor.CursorStatic)
		l.fields[i] = f
	}
	return l
}

// newArea is one part's editor in the session's styles: line numbers, a
// cursor that does not blink (so two drawings of one state are the same).
func (l *Lab) newArea() textarea.Model {
	st := l.com.Styles
	ta := textarea.New()
	s := st.R.NewStyle
	focused := textarea.Style{Base: s(), CursorLine: s(), CursorLineNumber: st.Key, EndOfBuffer: st.Dim,
		LineNumber: st.Dim, Placeholder: st.Dim, Prompt: st.Accent, Text: st.Plain}
	blurred := focused
	blurred.CursorLineNumber, blurred.Prompt, blurred.Text = st.Dim, st.Dim, st.Dim
	ta.FocusedStyle, ta.BlurredStyle = focused, blurred
	ta.Prompt = "| "
	ta.Placeholder = "(none)"
	ta.CharLimit = 4000
	ta.MaxHeight = 200
	ta.Cursor.Style = st.Plain.Reverse(true)
	ta.Cursor.TextStyle = st.Plain
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.Blur()
	return ta
}

// SetSize sets the size View draws at.
func (l *Lab) SetSize(w, h int) {
	l.w, l.h = w, h
	for i := range l.parts {
		l.parts[i].SetWidth(w)
		l.parts[i].SetHeight(l.editorRows())
	}
	l.bar.Width = max(w-40, 10)
}

// editorRows is how many rows the open part's editor gets: what the
// header, the tabs, the policy, the result and the help leave.
func (l *Lab) editorRows() int {
	return max(l.h-16, 4)
}

// Running reports that the adversary is searching.
func (l *Lab) Running() bool { return l.running }

// Close cancels a search still running.
func (l *Lab) Close() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.running = false
}

// ownLevel is the list's line for the learner's own lock: every
// property, every fault, nothing to pass.
func (l *Lab) ownLevel() labLevel {
	where := "kept in the editor until you leave the lab"
	if l.dir != "" {
		where = "read from and saved to " + l.dir
	}
	return labLevel{ID: "", Title: "your own lock", Goal: "every property, every fault in scope · " + where, Lock: l.own}
}

// level is level i of the list, the learner's own lock after the levels.
func (l *Lab) level(i int) labLevel {
	if i == len(l.levels) {
		return l.ownLevel()
	}
	return l.levels[i]
}

// openLevel puts level i's lock in the editor (i == len(levels): the
// learner's own).
func (l *Lab) openLevel(i int) tea.Cmd {
	l.open, l.mode = i, labEdit
	lk := l.level(i).Lock
	l.base = lk
	for p, part := range lockParts(&lk) {
		l.parts[p].SetValue(part.Src)
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
	l.report, l.scriptErr, l.runErr = nil, nil, ""
	return l.setFocus(1) // the release is where the levels' flaws start
}

// formatMS is a duration as the policy fields show it: 30s, 250ms.
func formatMS(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

// setFocus moves the editing focus to part or field f (wrapping).
func (l *Lab) setFocus(f int) tea.Cmd {
	n := len(l.parts) + fieldCount
	l.focus = (f%n + n) % n
	for i := range l.parts {
		l.parts[i].Blur()
	}
	for i := range l.fields {
		l.fields[i].Blur()
	}
	if l.focus < len(l.parts) {
		return l.parts[l.focus].Focus()
	}
	return l.fields[l.focus-len(l.parts)].Focus()
}

// lock is the lock as the editor holds it; an error names the policy
// field that does not read.
func (l *Lab) lock() (labLock, error) {
	lk := l.base // the threat model, the bound and the properties stay the level's
	for i, part := range lockParts(&lk) {
		*part = labPart{Name: labPartNames[i], Lang: l.langs[i], Src: l.parts[i].Value()}
	}
	var err error
	if lk.Policy.TTL, err = parseField(l.fields[fieldTTL].Value(), "TTL"); err != nil {
		return lk, err
	}
	if lk.Policy.TTL <= 0 {
		return lk, errors.New("the TTL must be more than 0")
	}
	if lk.Policy.Retries, err = strconv.Atoi(strings.TrimSpace(l.fields[fieldRetries].Value())); err != nil || lk.Policy.Retries < 0 {
		return lk, fmt.Errorf("retries: %q is not a count (0, 1, 2…)", l.fields[fieldRetries].Value())
	}
	if lk.Policy.RetryDelay, err = parseField(l.fields[fieldDelay].Value(), "delay"); err != nil {
		return lk, err
	}
	if v := strings.TrimSpace(l.fields[fieldWatchdog].Value()); v != "off" && v != "" {
		if lk.Policy.Watchdog, err = parseField(v, "watchdog"); err != nil {
			return lk, err
		}
	}
	return lk, nil
}

// parseField reads a duration field: 30s, 250ms, 1m; a bare number is
// milliseconds, as the lock's files give the TTL.
func parseField(v, name string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration (30s, 250ms)", name, v)
	}
	return d, nil
}

// save writes the learner's own lock to the lab's directory, and keeps
// it for the list; a level's lock is not saved.
func (l *Lab) save() error {
	if l.open != len(l.levels) {
		return nil
	}
	lk, err := l.lock()
	if err != nil {
		return err
	}
	l.own = lk
	if l.dir == "" {
		return nil
	}
	return labSave(l.dir, lk)
}

// run starts the adversary on the editor's lock in the background; the
// learner's own lock is saved first.
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
	l.Close()
	l.gen++
	gen := l.gen
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel, l.running, l.done, l.total = cancel, true, 0, 0
	l.report, l.scriptErr, l.runErr = nil, nil, ""
	ch := make(chan tea.Msg, 1)
	l.updates = ch
	go func() {
		defer close(ch)
		last := time.Time{}
		rep, err := labSearch(ctx, lk, func(done, total int) {
			if time.Since(last) < 50*time.Millisecond {
				return
			}
			last = time.Now()
			select {
			case ch <- labProgress{gen: gen, done: done, total: total}:
			default: // the screen is behind: it gets the next one
			}
		})
		ch <- labOver{gen: gen, report: rep, err: err}
	}()
	return l.wait()
}

// wait is the next message of the running search.
func (l *Lab) wait() tea.Cmd {
	ch := l.updates
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

// Update handles the search's messages and the lab's keys.
func (l *Lab) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case labProgress:
		if msg.gen != l.gen || !l.running {
			return nil
		}
		l.done, l.total = msg.done, msg.total
		return l.wait()
	case labOver:
		if msg.gen != l.gen || !l.running {
			return nil
		}
		l.running, l.cancel = false, nil
		l.finish(msg.report, msg.err)
		return nil
	case tea.KeyMsg:
		l.note = ""
		if l.mode == labList {
			return l.listKey(msg)
		}
		return l.editKey(msg)
	}
	return nil
}

// finish takes the search's outcome: a report, a script's error (the part
// it is in comes into the editor, the cursor on its line), or another
// error.
func (l *Lab) finish(rep labReport, err error) {
	var se *labScriptError
	switch {
	case errors.As(err, &se):
		l.scriptErr = se
		p := max(slices.Index(labPartNames[:], se.Part), 0)
		l.setFocus(p)
		ta := &l.parts[p]
		ta.CursorStart()
		for ta.Line() > 0 {
			ta.CursorUp()
		}
		for ta.Line() < se.Line-1 && ta.Line() < ta.LineCount()-1 {
			ta.CursorDown()
		}
	case errors.Is(err, context.Canceled):
		l.runErr = "the search was cancelled: nothing is known of the schedules it had not reached"
	case err != nil:
		l.runErr = oneLine(err)
	default:
		l.report = &rep
		lv := l.level(l.open)
		if lv.ID != "" && !lv.Break && !rep.Broken && !l.passed[lv.ID] {
			l.passed[lv.ID] = true
			if l.passedNow != nil {
				l.passedNow(lv.ID)
			}
		}
	}
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

// editKey handles a key in the editor: the lab's own keys first, the rest
// typed into the part or field in focus.
func (l *Lab) editKey(msg tea.KeyMsg) tea.Cmd {
	k := l.com.LabKeys
	switch {
	case l.running && key.Matches(msg, k.Back):
		l.Close()
		l.gen++
		l.runErr = "the search was cancelled: nothing is known of the schedules it had not reached"
		return nil
	case key.Matches(msg, k.Back):
		if err := l.save(); err != nil {
			l.note = "not saved: " + oneLine(err)
		}
		l.mode = labList
		return nil
	case l.running:
		l.note = "the adversary is searching · esc cancels"
		return nil
	case key.Matches(msg, k.Run):
		return l.run()
	case key.Matches(msg, k.Save):
		switch err := l.save(); {
		case err != nil:
			l.note = "not saved: " + oneLine(err)
		case l.dir != "" && l.open == len(l.levels):
			l.note = "saved to " + l.dir
		default:
			l.note = "a level's lock is not saved; -lab DIR keeps your own lock in DIR"
		}
		return nil
	case key.Matches(msg, k.NextPart):
		return l.setFocus(l.focus + 1)
	case key.Matches(msg, k.PrevPart):
		return l.setFocus(l.focus - 1)
	case key.Matches(msg, k.Lang) && l.focus < len(l.parts):
		l.langs[l.focus] = 1 - l.langs[l.focus]
		return nil
	}
	var cmd tea.Cmd
	if l.focus < len(l.parts) {
		l.parts[l.focus], cmd = l.parts[l.focus].Update(msg)
		l.scriptErr = nil // the line it named may have moved
	} else {
		f := l.focus - len(l.parts)
		l.fields[f], cmd = l.fields[f].Update(msg)
	}
	return cmd
}

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
	out := []string{st.Title.Render(" the lab ") + " " + st.Bold.Render("write your own lock, and locksim attacks it")}
	if l.live {
		out = append(out, st.Warn.Render(truncate(labLiveNote, l.w)))
	}
	return out
}

// labLiveNote says why the lab does not use the -redis server.
const labLiveNote = "runs on an embedded server of its own, not on -redis: your script can name any key, " +
	"and a read-only probe cannot prove that its writes stay in locksim's keys"

// levelLine is level lv's line in the list: its mark, its kind, its title.
func (l *Lab) levelLine(lv labLevel) string {
	mark, kind := "·", "fix this lock  "
	if l.passed[lv.ID] {
		mark = "✓"
	}
	switch {
	case lv.Break:
		kind = "break this lock"
	case lv.ID == "":
		mark, kind = " ", "write one      "
	}
	return mark + " " + kind + "  " + lv.Title
}

// listView draws the levels, one line each, and the selected one's goal
// under them; a list longer than the screen scrolls with the selection.
func (l *Lab) listView() string {
	st := l.com.Styles
	rows := l.header()
	rows = append(rows, st.Dim.Render(truncate("break a lock by scheduling its clients and faults yourself; fix one until the adversary finds no break within the bound", l.w)), "")
	n := len(l.levels) + 1
	room := max(l.h-len(rows)-7, 3) // the goal's rule, its 4 lines, a blank and the help
	first := max(0, min(l.sel-room/2, n-room))
	for i := first; i < min(n, first+room); i++ {
		line := "  " + l.levelLine(l.level(i))
		if i == l.sel {
			line = st.Title.Render("> " + l.levelLine(l.level(i)))
		}
		rows = append(rows, truncate(line, l.w))
	}
	for len(rows) < l.h-6 {
		rows = append(rows, "")
	}
	lv := l.level(l.sel)
	rows = append(rows, views.Rule(st, "goal", l.w), st.Wrap(lv.Goal, l.w, 4))
	k := l.com.LabKeys
	help := views.HelpLine([]key.Binding{k.Open, k.Up, k.Back, l.com.Keys.Quit})
	if l.note != "" {
		help = st.Warn.Render(l.note)
	}
	return fitRows(strings.Join(rows, "\n"), l.h-1) + "\n" + truncate(st.Dim.Render(help), l.w)
}

// tabs is the parts' line: each part's name and language, the one in
// focus marked.
func (l *Lab) tabs() string {
	st := l.com.Styles
	var out []string
	for i, name := range labPartNames {
		lang := "commands"
		if l.langs[i] == labLua {
			lang = "Lua"
		}
		if strings.TrimSpace(l.parts[i].Value()) == "" {
			lang = "none"
		}
		t := "[" + name + ": " + lang + "]"
		if i == l.focus {
			t = st.Title.Render(t)
		} else {
			t = st.Dim.Render(t)
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

// policyLine is the policy's fields in a row.
func (l *Lab) policyLine() string {
	st := l.com.Styles
	var out []string
	for i, name := range fieldNames {
		label := st.Dim.Render(name + " ")
		if l.focus == len(l.parts)+i {
			label = st.Key.Render(name + " ")
		}
		out = append(out, label+"["+l.fields[i].View()+"]")
	}
	return strings.Join(out, "  ")
}

// editView draws the open level's lock: the goal, the parts, the editor
// of the one in focus, a script's error under it, the policy, then the
// search's progress or its result.
func (l *Lab) editView() string {
	st := l.com.Styles
	lv := l.level(l.open)
	kind := "fix this lock"
	switch {
	case lv.Break:
		kind = "break this lock"
	case lv.ID == "":
		kind = "write one"
	}
	rows := l.header()
	rows = append(rows, truncate(st.Bold.Render(kind+": "+lv.Title)+st.Dim.Render(" · goal: "+lv.Goal), l.w), l.tabs())
	editor := l.parts[min(l.focus, len(l.parts)-1)].View()
	rows = append(rows, fitRows(editor, l.editorRows()))
	switch se := l.scriptErr; {
	case se != nil:
		rows = append(rows, st.Bad.Render(truncate("✗ "+se.Error(), l.w)))
	default:
		rows = append(rows, "")
	}
	rows = append(rows, truncate(l.policyLine(), l.w), "")
	rows = append(rows, l.resultRows()...)
	k := l.com.LabKeys
	help := views.HelpLine([]key.Binding{k.Run, k.NextPart, k.Lang, k.Back})
	if l.running {
		help = views.HelpLine([]key.Binding{k.Cancel})
	}
	if l.note != "" {
		help = st.Warn.Render(l.note)
	}
	return fitRows(strings.Join(rows, "\n"), l.h-1) + "\n" + truncate(st.Dim.Render(help), l.w)
}

// resultRows are the search's progress while it runs, then its result:
// the bound, and one line per property.
func (l *Lab) resultRows() []string {
	st := l.com.Styles
	switch {
	case l.running:
		label := "the adversary is searching…"
		if l.total > 0 {
			label = fmt.Sprintf("%d of %d schedules explored", l.done, l.total)
		}
		return []string{l.bar.ViewAs(float64(l.done)/float64(max(l.total, 1))) + " " + st.Dim.Render(label)}
	case l.runErr != "":
		return []string{st.Warn.Render(truncate(l.runErr, l.w))}
	case l.report == nil:
		return []string{st.Dim.Render(truncate("the adversary has not run on this lock yet", l.w))}
	}
	rep := l.report
	out := []string{truncate(st.Bold.Render(rep.Bound), l.w)}
	for _, v := range rep.Verdicts {
		line := st.Good.Render("✓ "+fmt.Sprintf("%-20s", v.ID)) + " no break within the bound"
		if v.Broke {
			line = st.Bad.Render("✗ "+fmt.Sprintf("%-20s", v.ID)) + " BROKEN: " + v.Note
		}
		out = append(out, truncate(line, l.w))
	}
	return out
}

// storyMoved is told each move of a lab story: in a level to break by
// hand, the level is passed once the ledger sees its property broken.
func (l *Lab) storyMoved(s *play.Session) {
}

// lockParts are lk's parts in the editor's order: acquire, release,
// extend.
func lockParts(lk *labLock) [3]*labPart {
	return [3]*labPart{&lk.Acquire, &lk.Release, &lk.Extend}
}
