package transcript

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"locksim/scenes"
	"locksim/shown"
	"locksim/sim"

	"github.com/charmbracelet/x/ansi"
)

// plainEventOn is plainEvent with, on a live server, each duration the
// command sends and each PTTL it reads labelled with its story time: the
// wire's milliseconds are the story's divided by scale.
func plainEventOn(e sim.Event, events []sim.Event, scale int, live bool) string {
	line := PlainEvent(e)
	if !live || e.Kind != sim.Command || scale <= 1 {
		return line
	}
	var labels []string
	for _, d := range WireDurations(e.Args, scenes.ScriptSources(events), scale) {
		labels = append(labels, fmt.Sprintf("%s on the wire = %s of story", d.Wire, storyDur(d.Story)))
	}
	if len(e.Args) > 0 && strings.EqualFold(e.Args[0], "PTTL") {
		if n, ok := e.Int(); ok && n >= 0 {
			labels = append(labels, pttlLabel(n, scale, true))
		}
	}
	if len(labels) == 0 {
		return line
	}
	return line + " [" + strings.Join(labels, "; ") + "]"
}

// pttlLabel is a PTTL read back: on a live server the wire's, labelled
// with its story time.
func pttlLabel(pttl int64, scale int, live bool) string {
	if !live || pttl < 0 || scale <= 1 {
		return fmt.Sprintf("PTTL %d", pttl)
	}
	return fmt.Sprintf("PTTL %d on the wire = %s of story", pttl, storyDur(time.Duration(pttl*int64(scale))*time.Millisecond))
}

// storyDur is a story duration as the transcript writes it: whole seconds
// as "30 s", else seconds to the millisecond.
func storyDur(d time.Duration) string { return sim.FormatSpan(d) }

// handoutLine is a section of the handout's text, or a readout built from it,
// as one line: the transcript wraps its lines itself. Most already are one
// line, single-spaced, and come back as they are without being split.
func handoutLine(s string) string {
	if oneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// oneLine reports whether s is what strings.Fields and a join by one space
// would make of it: no white space at its ends, and none within it but
// single ASCII spaces.
func oneLine(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			if s[i+1] == ' ' {
				return false
			}
		case c < utf8.RuneSelf:
			if unicode.IsSpace(rune(c)) {
				return false
			}
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += size
			continue
		}
		i++
	}
	return true
}

// wrapColumns breaks every line of s longer than width at its last space
// within width. A transcript line (t=+…) goes on indented by four spaces,
// any other by its own indent, so a paragraph stays one block.
//
// An indent as wide as width is dropped (kept, it left no room and the
// line never ended), and a character wider than width goes alone on its
// row.
func wrapColumns(s string, width int) string {
	width = max(width, 1)
	var b strings.Builder
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		if strings.HasPrefix(line, "t=+") {
			indent = "    "
		}
		if len(indent) >= width {
			indent = ""
		}
		for wider(line, width) {
			cut := breakAt(line, width)
			row := strings.TrimRight(line[:cut], " ")
			if wider(row, width) {
				row = strings.TrimLeft(row, " ") // the wide character alone
			}
			b.WriteString(row)
			b.WriteByte('\n')
			line = indent + strings.TrimLeft(line[cut:], " ")
		}
		b.WriteString(line)
		if i < len(lines)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// wider reports whether s takes more than width columns in a terminal.
// It counts one a byte for printable ASCII, which most of a transcript
// is, and one for each of the few other signs it writes (narrow), and
// reads no further than the column past width (a paragraph is one line
// until it is wrapped: measuring all that is left of it at every break
// made wrapping quadratic); a line with any other sign is measured by
// ansi.StringWidth, grapheme by grapheme (measuring every line so was a
// twentieth of -plain -scene race).
func wider(s string, width int) bool {
	n := 0
	for i := 0; i < len(s); n++ {
		if n > width {
			return true
		}
		if printableASCII(s[i]) {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !narrow(r) {
			return ansi.StringWidth(s) > width
		}
		i += size
	}
	return n > width
}

func printableASCII(c byte) bool { return c >= 0x20 && c < 0x7f }

// narrow reports one of the signs a transcript writes besides ASCII (the
// arrow of a reply, the dot between fields, the times of a scale, the
// ellipsis of a cut token, the section sign of a reference): each takes
// one column, as ansi.StringWidth measures it, and is a grapheme of its
// own beside printable ASCII or another of them (none joins or extends
// one), so a line of only these and printable ASCII takes a column a rune
// (TestNarrowColumns). Measuring the arrow and the dot grapheme by
// grapheme in every line that has one was a twentieth of what -plain
// -scene race does beyond its floor.
func narrow(r rune) bool {
	switch r {
	case '→', '←', '·', '×', '…', '§':
		return true
	}
	return false
}

// breakAt is the byte offset to break line at: its last space that keeps
// the first part within width columns, else (one long word) width columns,
// else (its first character is wider than width) just past that character.
// It measures grapheme by grapheme, as ansi.StringWidth (and so the
// screen) does: a skin tone, a joined emoji, a flag or a variation
// selector makes one character of its runes, never cut apart, of the
// width the terminal gives it (measured rune by rune, 👍🏽 was 4 columns
// and cut between its runes, ❤️ one column).
func breakAt(line string, width int) int {
	cols, last, hard := 0, -1, len(line)
	blank := true // line[:i] is all white space
	for i := 0; i < len(line); {
		size, w, space := graphemeAt(line, i)
		cols += w
		if cols > width {
			hard = i
			if strings.TrimLeft(line[:i], " ") == "" {
				// only spaces before it, which the next row puts
				// back: cut before it, it is cut before it again
				hard = i + size
			}
			break
		}
		if space && !blank {
			last = i
		}
		blank = blank && strings.TrimSpace(line[i:i+size]) == ""
		i += size
	}
	if last > 0 {
		return last
	}
	return max(hard, 1)
}

// graphemeAt is the grapheme of line at byte i: its size in bytes, its
// columns as ansi.StringWidth measures them, and whether it is a space
// alone. Printable ASCII and the narrow signs, before another of them
// (or the end), are a grapheme of one column each without measuring: the
// most of a transcript (see narrow).
func graphemeAt(line string, i int) (size, w int, space bool) {
	r, size := rune(line[i]), 1
	if r >= utf8.RuneSelf {
		r, size = utf8.DecodeRuneInString(line[i:])
	}
	if r < utf8.RuneSelf && printableASCII(byte(r)) || narrow(r) {
		next := i + size
		if next == len(line) || line[next] < utf8.RuneSelf {
			return size, 1, r == ' '
		}
		if n, _ := utf8.DecodeRuneInString(line[next:]); narrow(n) {
			return size, 1, r == ' '
		}
	}
	cluster, w := ansi.FirstGraphemeCluster(line[i:], ansi.GraphemeWidth)
	return max(len(cluster), 1), w, cluster == " "
}

// PlainEvent prints an event as a transcript line:
// t=+40.000s w2> SETNX resource:lock 5be1… → (integer) 0
// A control character in it (from a server's or a lab script's reply) is
// shown, not obeyed (shown.Text).
func PlainEvent(e sim.Event) string { return shown.Text(rawEvent(e)) }

func rawEvent(e sim.Event) string {
	at := "t=+" + sim.FormatDuration(e.At)
	switch e.Kind {
	case sim.Command:
		who := e.Actor
		switch e.Node {
		case sim.LockNode:
		case sim.ResourceNode:
			who += "→resource"
		default:
			who += "→" + e.Node
		}
		return fmt.Sprintf("%s %s> %s → %s", at, who, e.Cmd, e.Reply)
	case sim.Clock:
		return fmt.Sprintf("%s [%s]", at, e.Note)
	default:
		return fmt.Sprintf("%s [%s]", at, e.Note)
	}
}
