package serve

import (
	"slices"
	"strings"

	"locksim/tui"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// watchScreen is what a session's screen keeps of watches: the one it
// draws (an instructor's), the line its own screen shows while watched
// (a student's), and a note for the next key.
type watchScreen struct {
	// watching is the watch this session draws in place of its own
	// screen; nil for none
	watching *watch
	// line is the student's line while watched or paired, "" for none;
	// above is set when it takes a row of its own above the course (a
	// terminal taller than the course needs), else it stands on the
	// course's title row
	line  string
	above bool
	// note is said on the last row until the next key (why a watch ended
	// or could not start)
	note string
}

// watchUpdate handles the messages of watches before the screen's own
// handling: it reports whether msg was taken.
func (m *screen) watchUpdate(msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case tui.WatchMsg:
		if old := m.ws.watching; old != nil {
			old.end("") // one watch at a time
		}
		w, why := m.srv.startWatch(m.ses, msg.ID, msg.Name)
		m.ws.watching, m.ws.note = w, why
		return true, nil
	case watchNews:
		if msg.w.room && m.ws.watching == nil && msg.w.teacher == m.ses && msg.w.endedWhy() == "" {
			m.ws.watching = msg.w // a show of a student's screen on this projector
		}
		if msg.w != m.ws.watching {
			return true, nil // an older watch's last news
		}
		if why := msg.w.endedWhy(); why != "" {
			m.ws.watching = nil
			if why != "-" && !msg.w.room {
				m.ws.note = why
			}
		}
		return true, nil
	case watchersChanged:
		return true, m.seenChanged()
	case pairKey:
		if msg.w.state() != pairOn || msg.key.Type == tea.KeyCtrlC || msg.key.Type == tea.KeyCtrlZ {
			return true, nil // a key from a pair that has ended; never a quit
		}
		if msg.w.typedBy(msg.w.tName) {
			m.setSeenLine()
		}
		m.lim.key()
		var cmd tea.Cmd
		m.inner, cmd = m.inner.Update(msg.key)
		return true, noQuit(cmd)
	case tea.WindowSizeMsg:
		if m.ws.line == "" {
			return false, nil
		}
		m.w, m.h = msg.Width, msg.Height
		return true, m.sizeInner()
	case tea.MouseMsg:
		return m.ws.watching != nil, nil // the watched screen is not the watcher's to click
	case tea.KeyMsg:
		if m.ws.note != "" {
			m.ws.note = ""
		}
		if w := m.ws.watching; w != nil && !w.room {
			m.lim.key()
			m.warn = ""
			m.watcherKey(w, msg)
			return true, nil
		}
		if w := m.ws.watching; w != nil {
			return false, nil // a projector's own keys: q leaves, the rest move nothing
		}
		return m.watchedKey(msg)
	}
	return false, nil
}

// watcherKey is a key of the instructor's while watching: esc leaves and
// P asks to pair; while paired every key goes to the student's program
// but EndKey, which ends the pair. Other keys do nothing: the screen
// watched is read-only.
func (m *screen) watcherKey(w *watch, k tea.KeyMsg) {
	if w.room {
		return // a projector's keys move nothing
	}
	if w.state() == pairOn {
		if k.String() == EndKey {
			w.endPair()
			return
		}
		w.send(k)
		return
	}
	switch {
	case k.Type == tea.KeyEscape || k.Type == tea.KeyCtrlC:
		w.end("")
		m.ws.watching = nil
	case k.Type == tea.KeyRunes && !k.Paste && slices.Contains(k.Runes, 'P'):
		// keys typed quickly come as one message of several runes
		w.askPair()
	case k.Type == tea.KeyRunes && !k.Paste && slices.Contains(k.Runes, 'R'):
		w.askShow()
	}
}

// watchedKey is a key of a watched student's own: EndKey ends every watch
// of their screen; Y or N answers an ask to pair (and goes no further, so
// it answers no question of the course), when typed alone (a message of
// several runes is typing, which goes to the course); while paired, it
// is noted as the student's before the course takes it.
func (m *screen) watchedKey(k tea.KeyMsg) (bool, tea.Cmd) {
	ws := m.srv.room.watchesOf(m.ses)
	if len(ws) == 0 {
		return false, nil
	}
	if k.String() == EndKey {
		for _, w := range ws {
			w.end(w.sName + " ended the watch")
		}
		return true, m.seenChanged()
	}
	for _, w := range ws {
		if w.asking() && (k.String() == "Y" || k.String() == "N") {
			w.answer(k.String() == "Y")
			return true, m.seenChanged()
		}
	}
	changed := false
	for _, w := range ws {
		if w.typedBy(w.sName) {
			changed = true
		}
	}
	if changed {
		m.setSeenLine()
	}
	return false, nil
}

// seenChanged sets the student's line from the watches of their screen,
// and lays the course out again when the line comes or goes.
func (m *screen) seenChanged() tea.Cmd {
	had := m.ws.line != ""
	m.setSeenLine()
	if had == (m.ws.line != "") {
		return nil
	}
	return m.sizeInner()
}

// setSeenLine is the student's line as the watches of their screen stand.
func (m *screen) setSeenLine() {
	m.ws.line = seenLine(m.srv.room.watchesOf(m.ses))
}

// sizeInner tells the course its size: a row less while the student's
// line takes one of its own.
func (m *screen) sizeInner() tea.Cmd {
	h := m.h
	m.ws.above = m.ws.line != "" && m.h > tui.MinHeight
	if m.ws.above {
		h--
	}
	if m.naming != nil {
		return nil
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(tea.WindowSizeMsg{Width: m.w, Height: h})
	return cmd
}

// seenLine is what a student's screen says of the watches of it: an ask
// to pair first, then a pair, then who watches; "" for none.
func seenLine(ws []*watch) string {
	var names []string
	for _, w := range ws {
		w.mu.Lock()
		pair, typed, tName, show := w.pair, w.typed, w.tName, w.show
		w.mu.Unlock()
		// an ask's keys come first: a line cut short keeps them
		if show == pairAsked {
			return "Y or N: may " + tName + " show your screen to the room?"
		}
		switch pair {
		case pairAsked:
			return "Y or N: may " + tName + " type on your screen with you?"
		case pairOn:
			line := "paired with " + tName
			if typed != "" {
				line += " · " + typed + " typed last"
			}
			return line + " · " + EndKey + " ends it"
		}
		names = append(names, tName)
	}
	if len(names) == 0 {
		return ""
	}
	return "watched by " + strings.Join(names, ", ") + " · " + EndKey + " ends it"
}

// watchView is the screen while a watch or a note is on it, and whether
// there is one: the watcher's header and the student's screen; or v with
// the student's line; or v with the note on its last row.
func (m *screen) watchView(v func() string) (string, bool) {
	if w := m.ws.watching; w != nil && w.room {
		return m.roomView(w, v), true
	}
	if w := m.ws.watching; w != nil {
		head := m.st.Accent.Render(ansi.Truncate(w.header(m.w, m.h), m.w, "…"))
		return head + "\n" + strings.Join(w.body(m.w, max(m.h-1, 0)), "\n"), true
	}
	if m.ws.line == "" && m.ws.note == "" {
		return "", false
	}
	out := v()
	if l := m.ws.line; l != "" {
		if m.ws.above {
			out = m.st.Warn.Render(ansi.Truncate(l, max(m.w, 1), "…")) + "\n" + out
		} else {
			rows := strings.Split(out, "\n")
			i := m.spareRow(rows, l)
			rows[i] = m.overTitle(rows[i], l)
			out = strings.Join(rows, "\n")
		}
	}
	if n := m.ws.note; n != "" {
		lines := strings.Split(out, "\n")
		lines[len(lines)-1] = m.st.Warn.Render(ansi.Truncate(n, max(m.w, 1), "…"))
		out = strings.Join(lines, "\n")
	}
	return out, true
}

// spareRow is the row of the course's screen (rows) the student's line
// stands on when the terminal has no row to spare (exactly
// tui.MinHeight): the topmost row below the title whose right end, as
// wide as the line and a space, is bare, and which is a rule (── log ──)
// or blank, so that the line covers neither the title row (the scene's
// title, its mode and seed), a question's choices, nor the keys that
// answer one (the last row). Only a screen with no such row has it on
// the title row's right end.
func (m *screen) spareRow(rows []string, line string) int {
	lw := m.lineWidth(line)
	for i := 1; i < len(rows)-1; i++ {
		plain := ansi.Strip(rows[i])
		trimmed := strings.TrimSpace(plain)
		if trimmed != "" && !strings.HasPrefix(trimmed, "─") {
			continue
		}
		end := ansi.TruncateLeft(plain, max(m.w-lw-1, 0), "")
		if strings.Trim(end, " ─") == "" {
			return i
		}
	}
	return 0
}

// lineWidth is how many columns the student's line takes at the right
// end of a row.
func (m *screen) lineWidth(line string) int {
	return min(ansi.StringWidth(line), max(m.w-titleKept-1, 1))
}

// overTitle is the row of the course's screen with line over its right
// end (see spareRow). The row keeps at least its first titleKept
// columns.
func (m *screen) overTitle(row, line string) string {
	lw := m.lineWidth(line)
	left := ansi.Truncate(row, max(m.w-lw-1, 0), "")
	pad := strings.Repeat(" ", max(m.w-lw-ansi.StringWidth(left), 0))
	return left + pad + m.st.Warn.Render(ansi.Truncate(line, lw, "…"))
}

// titleKept is how much of the top row a student's line leaves.
const titleKept = 24

// noQuit is cmd with any quit it returns dropped: the instructor's keys
// never end the student's session.
func noQuit(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case tea.QuitMsg:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = noQuit(c)
			}
			return out
		default:
			return msg
		}
	}
}
