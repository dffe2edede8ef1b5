package views

import (
	"fmt"
	"regexp"
	"strings"

	"locksim/scenes/say"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Tone colours a card, a log line or a verdict; the scenes say which.
type Tone = say.Tone

const (
	Plain = say.Plain
	Good  = say.Good
	Bad   = say.Bad
	Warn  = say.Warn
	Dim   = say.Dim
)

func (st Styles) tone(t Tone) lipgloss.Style {
	switch t {
	case Good:
		return st.Good
	case Bad:
		return st.Bad
	case Warn:
		return st.Warn
	case Dim:
		return st.Dim
	}
	return st.Plain
}

// Card is one actor's box, as the scenes fill it in.
type Card = say.Card

// CardHeight is the rows a row of cards takes (border, two lines, border).
const CardHeight = 4

// Cards draws cards side by side across width; sel (or -1) is drawn
// thick-bordered. Each card gets width/len(cards) columns.
func Cards(st Styles, cards []Card, sel, width int) string {
	if len(cards) == 0 || width <= 0 {
		return ""
	}
	cw := width / len(cards)
	boxes := make([]string, len(cards))
	for i, c := range cards {
		boxes[i] = cardBox(st, c, i == sel, cw)
	}
	return JoinTop(boxes...)
}

// cardBox is one card of Cards, cw columns wide, thick-bordered if sel.
func cardBox(st Styles, c Card, sel bool, cw int) string {
	style := st.Card
	if sel {
		style = st.CardSel
	}
	inner := max(cw-4, 1)
	lines := []string{OneLine(st.Bold, ansi.Truncate(c.Name, inner, "…"))}
	for j := 0; j < 2; j++ {
		l := ""
		if j < len(c.Lines) {
			l = c.Lines[j]
		}
		if j == 1 {
			lines = append(lines, OneLine(st.tone(c.Tone), ansi.Truncate(l, inner, "…")))
		} else {
			lines = append(lines, ansi.Truncate(l, inner, "…"))
		}
	}
	// name rides in the top border row's place to keep cards four rows tall
	body := lines[1] + "\n" + lines[2]
	box := style.Width(inner + 2).Render(body)
	return putTitle(box, " "+lines[0]+" ")
}

// putTitle writes title over the top border of box, after its corner.
func putTitle(box, title string) string {
	lines := strings.Split(box, "\n")
	if len(lines) == 0 {
		return box
	}
	top := lines[0]
	w := Width(top)
	tw := Width(title)
	if tw+3 > w {
		return box
	}
	lines[0] = ansi.Truncate(top, 2, "") + title + ansi.TruncateLeft(top, 2+tw, "")
	return strings.Join(lines, "\n")
}

// Zone is a rectangle of the screen that answers the mouse, recorded
// where it was drawn (as bubblezone does), so a click is resolved against
// what is on screen, not a second guess at the layout.
type Zone struct {
	Index          int
	X0, Y0, X1, Y1 int // inclusive top left, exclusive bottom right
}

// In reports whether the cell x, y falls in the zone.
func (z Zone) In(x, y int) bool { return x >= z.X0 && x < z.X1 && y >= z.Y0 && y < z.Y1 }

// CardZones are the zones of the boxes Cards drew at row y: the width of
// each box as rendered, side by side.
func CardZones(drawn string, n, y int) []Zone {
	if n == 0 || drawn == "" {
		return nil
	}
	first := strings.Split(drawn, "\n")[0]
	w := Width(first) / n
	zones := make([]Zone, n)
	for i := range zones {
		zones[i] = Zone{Index: i, X0: i * w, Y0: y, X1: (i + 1) * w, Y1: y + CardHeight}
	}
	return zones
}

// ZoneAt is the index of the zone the cell x, y falls in, -1 for none.
func ZoneAt(zones []Zone, x, y int) int {
	for _, z := range zones {
		if z.In(x, y) {
			return z.Index
		}
	}
	return -1
}

// LogLine is one entry of the command log, already in display form.
type LogLine struct {
	At    string // "+30.000s"
	Actor string
	Text  string // the command as sent, or a note in brackets
	Reply string
	Tone  Tone // the reply's tone
	Hi    bool // belongs to the selected actor
	Dim   bool // bookkeeping, not the story (the clock held on a live server)
	// Cont is a row that carries on the line above it: its reply, too long
	// to share a row with the command (see Unfold)
	Cont bool
	// Whole: the command must read whole (its reply carries a label of
	// it, such as its durations in story time), so a reply that would cut
	// it gets rows of its own however short (see Unfold)
	Whole bool
}

// logHead is a log line's time and actor, as Log draws them.
func logHead(l LogLine) string { return fmt.Sprintf(" %-9s %s> ", l.At, l.Actor) }

// Unfold is lines as Log draws them width columns wide: a line whose long
// reply would be cut beside its command, or cut the command, gives the
// reply rows of its own under it (Cont rows, wrapped), so an error reply
// ("NOSCRIPT No matching script. Please use EVAL.", a node that did not
// answer) reads whole at 80 columns.
func Unfold(st Styles, lines []LogLine, width int) []LogLine {
	out := make([]LogLine, 0, len(lines))
	for _, l := range lines {
		// a long reply (a note, an error) that would cut its command or be
		// cut; a short one ("OK") stays beside a command cut in the middle
		rw := Width("  " + l.Reply)
		if l.Reply == "" || l.Cont || rw <= 40 && !l.Whole || Width(logHead(l)+l.Text)+rw <= width {
			out = append(out, l)
			continue
		}
		// rows of its own, wrapped (a node's long "no reply" note)
		reply := l.Reply
		l.Reply = ""
		out = append(out, l)
		for _, r := range strings.Split(st.Wrap(reply, max(width-4, 1), 3), "\n") {
			if r == "" {
				continue
			}
			cont := l
			cont.Cont, cont.At, cont.Actor, cont.Text, cont.Reply = true, "", "", "", r
			out = append(out, cont)
		}
	}
	return out
}

// Log draws height rows of lines, one per line, cut to width: the newest,
// or back scrolled lines from the newest. When any line is highlighted the
// others are dimmed.
func Log(st Styles, lines []LogLine, width, height, back int) string {
	return logRows(st, lines, width, height, back, func(l LogLine, anyHi bool) string {
		return logRow(st, l, width, anyHi)
	})
}

// logRows is Log with each row drawn by row.
func logRows(st Styles, lines []LogLine, width, height, back int, row func(l LogLine, anyHi bool) string) string {
	if height <= 0 {
		return ""
	}
	anyHi := false
	for _, l := range lines {
		anyHi = anyHi || l.Hi
	}
	end := len(lines) - max(0, min(back, len(lines)-height))
	lines = lines[max(0, end-height):end]
	out := make([]string, 0, height)
	for _, l := range lines {
		out = append(out, row(l, anyHi))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// logRow is one row of Log, width columns at most; anyHi says a worker
// is picked (the others' rows are dim).
func logRow(st Styles, l LogLine, width int, anyHi bool) string {
	if l.Cont {
		// the reply of the line above, indented under it
		reply := ansi.Truncate(l.Reply, max(width-4, 1), "…")
		row := "    " + OneLine(st.tone(l.Tone), reply)
		if anyHi && !l.Hi || l.Dim {
			row = OneLine(st.Dim, ansi.Strip(row))
		}
		return row
	}
	mark := " "
	if l.Hi {
		mark = "▸" // says "selected" in words-free form even without colour
	}
	head := fmt.Sprintf("%s%-9s %s> ", mark, l.At, l.Actor)
	reply := ""
	if l.Reply != "" {
		reply = "  " + l.Reply
	}
	text := l.Text
	// a long reply gives way before the command does (at least 28
	// columns of it stay readable), down to 40 columns of reply, which
	// hold an error reply whole
	keep, rw := min(Width(text), 28), Width(reply)
	if Width(head)+keep+rw > width {
		reply = ansi.Truncate(reply, max(width-Width(head)-keep, min(rw, 40)), "…")
	}
	room := width - Width(head) - Width(reply)
	if room < 8 {
		room = 8
	}
	text = cutMiddle(text, room)
	pad := strings.Repeat(" ", max(0, room-Width(text)))
	switch {
	case anyHi && !l.Hi, l.Dim:
		return OneLine(st.Dim, ansi.Truncate(head+text+pad+reply, width, "…"))
	default:
		h := head
		if l.Hi {
			h = OneLine(st.Accent, head)
		}
		return h + text + pad + OneLine(st.tone(l.Tone), ansi.Truncate(reply, max(0, width-Width(head+text+pad)), "…"))
	}
}

// Rule draws a labelled horizontal rule across width.
func Rule(st Styles, label string, width int) string {
	// a label longer than the rule is cut in the middle, keeping its end
	// (the log's scroll hint): a log beside the readout is narrow
	l := "── " + label + " "
	if Width(l) > width {
		l = cutMiddle(l, max(width, 1))
	}
	return OneLine(st.Rule, l+strings.Repeat("─", max(0, width-Width(l))))
}

// Wrap wraps text to width (at least 1) and keeps at most rows lines
// (none when rows < 1).
func (st Styles) Wrap(text string, width, rows int) string {
	if rows < 1 {
		return ""
	}
	width = max(width, 1)
	// as st.Plain.Width(width).Render wraps, without its padding (wrap.go)
	lines := strings.Split(unjoin(wrapRows(Join(text), width)), "\n")
	if len(lines) > rows {
		lines = lines[:rows]
		lines[rows-1] = ansi.Truncate(strings.TrimRight(lines[rows-1], " "), width-1, "") + "…"
	}
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) < rows {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// wrapRows is wrap, but a row is never left empty before a character
// wider than width that starts a line of text: the wrapper breaks before
// it though the row is empty ("漢" at width 1 was "\n漢"), which only a
// width of 1 meets (no character is wider than 2).
func wrapRows(text string, width int) string {
	if width > 1 {
		return wrap(text, width)
	}
	paras := strings.Split(text, "\n")
	for i, p := range paras {
		w := wrap(p, width)
		if first, rest, ok := strings.Cut(w, "\n"); ok && strings.TrimSpace(ansi.Strip(first)) == "" {
			w = rest
		}
		paras[i] = w
	}
	return strings.Join(paras, "\n")
}

// unbroken finds what a line must not break inside: a negative number
// (the wrapper breaks after any '-', which would leave "-" at the end of
// a row and "1" on the next) and an expiry option with its number.
// unbroken is what Join joins, as a regexp: its spec, which Join scans
// for by hand (TestMayJoin reads it).
var unbroken = regexp.MustCompile(`(^|[\s(])-([0-9])|\b(PX|EX|PXAT|EXAT) ([0-9])`)

// Join is text with what must stay on one row joined: '-' before a
// digit as U+2011 (a hyphen the wrapper does not break after), the space
// between PX and its number as U+00A0. unjoin undoes it after the wrap.
// It is the regexp (^|[\s(])-([0-9])|\b(PX|EX|PXAT|EXAT) ([0-9]) with each
// match's '-' or space replaced, scanned by hand: the regexp was a
// fortieth of the tui's tests under -race.
func Join(text string) string {
	if !mayJoin(text) {
		return text // the regexp on every wrapped text was a tenth of drawing a screen under -race
	}
	var b strings.Builder
	done := 0 // text[:done] is written
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '-' && i == 0 && len(text) > 1 && isDigit(text[1]):
			b.WriteString("\u2011")
			done, i = 1, 2
		case (c == '(' || isSpace(c)) && i+2 < len(text) && text[i+1] == '-' && isDigit(text[i+2]):
			b.WriteString(text[done : i+1])
			b.WriteString("\u2011")
			done, i = i+2, i+3
		case (c == 'P' || c == 'E') && (i == 0 || !isWord(text[i-1])):
			n := optionLen(text[i:])
			if n == 0 {
				i++
				continue
			}
			b.WriteString(text[done : i+n-1])
			b.WriteString("\u00a0")
			done, i = i+n, i+n+1
		default:
			i++
		}
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

// optionLen is the length of "PX ", "EX ", "PXAT " or "EXAT " at the start
// of s when a digit follows it, else 0.
func optionLen(s string) int {
	for _, o := range []string{"PX ", "EX ", "PXAT ", "EXAT "} {
		if strings.HasPrefix(s, o) && len(s) > len(o) && isDigit(s[len(o)]) {
			return len(o)
		}
	}
	return 0
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isSpace is regexp's \s: space, \t, \n, \f, \r.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isWord is regexp's \w: an ASCII letter, digit or underscore.
func isWord(c byte) bool {
	return c == '_' || isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// mayJoin reports whether unbroken may match text: a match holds a '-'
// before a digit, or "X " or "AT " (PX, EX, PXAT, EXAT and a space).
func mayJoin(text string) bool {
	if strings.Contains(text, "X ") || strings.Contains(text, "AT ") {
		return true
	}
	for i := strings.IndexByte(text, '-'); i >= 0 && i+1 < len(text); {
		if c := text[i+1]; c >= '0' && c <= '9' {
			return true
		}
		j := strings.IndexByte(text[i+1:], '-')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// joined are the characters Join puts in, and unjoined undoes them.
const joined = "\u2011\u00a0"

// unjoined is shared: a strings.Replacer is safe for use by several
// goroutines at once.
var unjoined = strings.NewReplacer("\u2011", "-", "\u00a0", " ")

func unjoin(text string) string {
	if !strings.ContainsAny(text, joined) {
		return text
	}
	return unjoined.Replace(text)
}

// Prop is what a scene has shown of one lock property.
type Prop = say.Prop

const (
	Untested = say.Untested
	Held     = say.Held
	Broken   = say.Broken
	Absent   = say.Absent
)

// Scoreboard draws the three properties with what the scene has shown of each.
func Scoreboard(st Styles, props [3]Prop, width int) string {
	parts := make([]string, 3)
	for i, p := range props {
		switch p {
		case Held:
			parts[i] = OneLine(st.Good, "✓ "+say.PropNames()[i]+" held")
		case Broken:
			parts[i] = OneLine(st.Bad, "✗ "+say.PropNames()[i]+" BROKEN")
		case Absent:
			parts[i] = OneLine(st.Warn, "– "+say.PropNames()[i]+" absent")
		default:
			parts[i] = OneLine(st.Dim, "○ "+say.PropNames()[i]) // not tested yet: the help page says so
		}
	}
	return ansi.Truncate(strings.Join(parts, "  "), width, "…")
}

// Mark is one move on the timeline: its glyph says what kind of move it is.
type Mark struct {
	Glyph string // "●" a step, "~" time passing, "✗" a crash, "‖" a pause, "›" a wake-up
	Label string
	// More stands, last, for the moves the timeline may not draw yet (an
	// open question's future): drawn "⋯", and the count reads "8/?" (not
	// "…", which marks a line cut short).
	More bool
}

// MoreMark is the mark that stands for the moves not drawn.
func MoreMark() Mark { return Mark{Glyph: "⋯", More: true} }

// Timeline draws the schedule, one glyph per move with a bar at the current
// position (applied moves bright, the rest dim), then the position, the
// clock and the next move's label.
func Timeline(st Styles, marks []Mark, pos int, now, state string, width int) string {
	return TimelineTo(st, marks, pos, now, "end of story", state, width)
}

// TimelineTo is Timeline with its own words for the end, where a story
// with no schedule of its own (the learner makes every move) has none:
// with no move yet it says only the clock and end.
func TimelineTo(st Styles, marks []Mark, pos int, now, end, state string, width int) string {
	if len(marks) == 0 {
		return ansi.Truncate(fmt.Sprintf("%s t=%s  %s%s", OneLine(st.Bold, "│"), now, end, state), width, "…")
	}
	total := fmt.Sprint(len(marks))
	if marks[len(marks)-1].More {
		total = "?"
	}
	var b strings.Builder
	for i, m := range marks {
		if i == pos && !m.More {
			b.WriteString(OneLine(st.Bold, "│"))
		}
		if i < pos {
			b.WriteString(OneLine(st.Accent, m.Glyph))
		} else {
			b.WriteString(OneLine(st.Dim, m.Glyph))
		}
	}
	if pos >= len(marks) {
		b.WriteString(OneLine(st.Bold, "│"))
	}
	next := end
	if pos < len(marks) && !marks[pos].More {
		next = "next: " + marks[pos].Label
	}
	line := fmt.Sprintf("%s %d/%s  t=%s  %s%s", b.String(), pos, total, now, next, state)
	return ansi.Truncate(line, width, "…")
}

// cutMiddle shortens s to w columns by dropping whole words from its
// middle, marked by a "…" word of its own: a command's tail (the token,
// PX 30000, the fencing token) matters as much as its head, and no word is
// left cut in two ("EVALSHA ‹claim› … 3600000", not "‹claim…00"). When its
// first and last words alone do not fit, it cuts inside them as before.
func cutMiddle(s string, w int) string { return CutMiddle(s, w) }

// CutMiddle is cutMiddle for the screen's other lines: a key's value (a
// hash's fields) shortened so that its name and its PTTL stay whole.
func CutMiddle(s string, w int) string {
	n := Width(s)
	if n <= w {
		return s
	}
	words := strings.Split(s, " ")
	if len(words) >= 3 {
		// the first and the last word, the second (a key, a script's name)
		// when it fits, then words taken in turn from the tail and the head
		width := func(head, tail []string) int {
			return Width(strings.Join(head, " ") + " … " + strings.Join(tail, " "))
		}
		head, tail := words[:1], words[len(words)-1:]
		if width(head, tail) <= w {
			i, j := 1, len(words)-2
			if width(words[:2], tail) <= w && len(words) > 3 {
				head, i = words[:2], 2
			}
			for fromTail := true; i <= j; fromTail = !fromTail {
				switch {
				case fromTail && width(head, words[j:]) <= w:
					tail = words[j:]
					j--
				case !fromTail && width(words[:i+1], tail) <= w:
					head = words[:i+1]
					i++
				case width(head, words[j:]) > w && width(words[:i+1], tail) > w:
					i = j + 1 // neither side has room for another word
				}
			}
			// a parenthesis is not cut open: the words of one the cut
			// would split go with it ("clock (t0 = … token" reads as
			// if the rest were inside)
			for len(head) > 1 && strings.Count(strings.Join(head, " "), "(") > strings.Count(strings.Join(head, " "), ")") {
				head = head[:len(head)-1]
			}
			open := func(ws []string) int {
				j := strings.Join(ws, " ")
				return strings.Count(j, ")") - strings.Count(j, "(")
			}
			t := tail
			for len(t) > 1 && open(t) > 0 {
				t = t[1:]
			}
			if open(t) <= 0 {
				tail = t // the last word closing one keeps what it can
			}
			return strings.Join(head, " ") + " … " + strings.Join(tail, " ")
		}
	}
	h := (w - 1) * 3 / 5
	return ansi.Truncate(s, h, "") + "…" + ansi.TruncateLeft(s, n-(w-1-h), "")
}
