package tui

import (
	"strings"

	"locksim/lab"
	"locksim/shown"

	"github.com/charmbracelet/x/ansi"
)

// The lab screen's words for the engine's parts, in the editor's order.
var labPartNames = [3]string{lab.PartAcquire, lab.PartRelease, lab.PartExtend}

// labLevel is one line of the lab's list: a built-in level in a mode
// (break it by hand, or fix it), or the learner's own lock (own set).
type labLevel struct {
	lab.Level
	Mode lab.Mode
	own  bool
}

// ID is the level's id in the progress: "break:<id>" or "fix:<id>"; ""
// for the learner's own lock, which has nothing to pass.
func (lv labLevel) ID() string {
	switch {
	case lv.own:
		return ""
	case lv.Mode == lab.BreakIt:
		return "break:" + lv.Level.ID
	}
	return "fix:" + lv.Level.ID
}

// Break reports a level to break by hand.
func (lv labLevel) Break() bool { return !lv.own && lv.Mode == lab.BreakIt }

// labLevels are the lab's levels as the list shows them: every level to
// break, then every level to fix, in the engine's order.
func labLevels() []labLevel {
	var out []labLevel
	for _, m := range []lab.Mode{lab.BreakIt, lab.FixIt} {
		for _, lv := range lab.Levels() {
			out = append(out, labLevel{Level: lv, Mode: m})
		}
	}
	return out
}

// labStarter is the learner's own lock before it is written: the
// engine's starter (an atomic acquire, a GET-then-DEL release to break).
func labStarter() lab.Lock {
	l := lab.Starter()
	if l.Extend.Name == "" {
		l.Extend = lab.Part{Name: lab.PartExtend, Lang: lab.Lua}
	}
	return l
}

// goal is a level's goal as the list shows it under the levels: what to
// do, the properties it is about, the faults in scope and the bound.
//
// While a break's question is open (named false: play.DiscloseLabReport
// says so) the properties are not named: the question asks which one its
// move breaks, and a level that judges one would answer it.
func (lv labLevel) goal(dir string, named bool) string {
	pol := lv.Lock.Policy
	var what string
	switch {
	case lv.own:
		what = "Your own lock: the adversary judges every property of lab.json."
		if dir != "" {
			what += " It is read from " + dir + " and saved there at each run."
		} else {
			what += " It stays in the editor until locksim ends (-lab DIR keeps it in files)."
		}
	case lv.Mode == lab.BreakIt:
		what = lv.BreakGoal + " You make every move (a client's step, a crash, a pause, time passing); the ledger says when it breaks."
	default:
		what = lv.FixGoal + " Passed when the adversary finds no break within the bound and the lock still grants."
	}
	props := pol.Properties
	if !lv.own {
		props = lv.Properties
	}
	judged := joinIDs(props)
	if !named {
		judged = "named once the run's questions are answered"
	}
	return what + "\nproperties: " + judged + " · threats: " + threats(pol.Faults) +
		" · " + boundWords(pol.Bound)
}

// threats is the threat model: the faults by their ids in lab.json, or
// none.
func threats(fs []lab.Fault) string {
	if len(fs) == 0 {
		return "no fault"
	}
	return joinIDs(fs)
}

// boundWords is the search's bound in words.
func boundWords(b lab.Bound) string {
	faults := " faults"
	if b.Faults == 1 {
		faults = " fault"
	}
	return itoa(int64(b.Clients)) + " clients, up to " + itoa(int64(b.Faults)) + faults + ", depth " + itoa(int64(b.Depth))
}

func joinIDs[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// wrapWords wraps text to w columns at its spaces only, every line kept:
// a name with a hyphen (pause-half, deadlock-freedom) is never split, as
// lipgloss's wrap splits it after the hyphen, nor an expiry option from
// its number ("PX 30000"). The spaces between two words on a row are kept
// as they are; a row's leading ones go. A word wider than w alone is
// broken hard, a character wider than w alone on its row.
func wrapWords(text string, w int) string {
	w = max(w, 1)
	// invalid UTF-8 and control characters are shown, not sent as they
	// are (a stray byte or ESC came out twice, see shown.Text)
	text = shown.Text(text)
	var b strings.Builder
	b.Grow(len(text) + len(text)/max(w, 8) + 1)
	for n, para := range strings.Split(text, "\n") {
		if n > 0 {
			b.WriteByte('\n')
		}
		// line's width is kept as it grows: a word never joins the one
		// before it across the spaces between them
		line, lineW := "", 0
		for _, t := range keptWords(para) {
			tw := ansi.StringWidth(t.word)
			switch {
			case line == "":
				line, lineW = t.word, tw
			case lineW+len(t.gap)+tw <= w:
				line, lineW = line+t.gap+t.word, lineW+len(t.gap)+tw
			default:
				b.WriteString(line)
				b.WriteByte('\n')
				line, lineW = t.word, tw
			}
			for lineW > w && line != "" {
				// broken hard at w, a grapheme at a time from the row's
				// start: cutting with ansi.Truncate and measuring what was
				// left at every row was quadratic in a long word's length.
				// A character wider than w (a CJK one, an emoji at w 1)
				// goes alone on its row, with what takes no column before
				// it: cut at w it was left where it was, and the loop
				// never ended.
				cut, cols := 0, 0
				for cut < len(line) {
					g, gw := ansi.FirstGraphemeCluster(line[cut:], ansi.GraphemeWidth)
					if cols+gw > w && cols > 0 {
						break
					}
					cut, cols = cut+len(g), cols+gw
					if cols >= w {
						break
					}
				}
				b.WriteString(line[:cut])
				b.WriteByte('\n')
				line, lineW = line[cut:], lineW-cols
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// keptWord is a word of a text and the spaces before it.
type keptWord struct{ gap, word string }

// keptWords are para's words, each with the spaces before it (a tab as a
// space), an expiry option and its number ("PX 30000") as one. A word is
// a run of bytes other than space, tab, \n, \f and \r; its spaces are
// the spaces and tabs right before it (a \f or \r between words is
// dropped).
func keptWords(para string) []keptWord {
	ms := scanWords(para)
	out := ms[:0]
	for i := 0; i < len(ms); i++ {
		t := keptWord{strings.ReplaceAll(ms[i].gap, "\t", " "), ms[i].word}
		switch t.word {
		case "PX", "EX", "PXAT", "EXAT":
			if i+1 < len(ms) && ms[i+1].word[0] >= '0' && ms[i+1].word[0] <= '9' {
				t.word += strings.ReplaceAll(ms[i+1].gap, "\t", " ") + ms[i+1].word
				i++
			}
		}
		out = append(out, t)
	}
	return out
}

// scanWords finds para's words and the spaces and tabs right before each,
// as the regexp `([ \t]*)(\S+)` would, scanned by hand: the regexp on
// every row of a page was a third of wrapping it under -race (TestWordsOf
// holds the two alike).
func scanWords(para string) []keptWord {
	var ms []keptWord
	gapAt := 0 // where the spaces before the next word begin
	for i := 0; i < len(para); {
		switch para[i] {
		case ' ', '\t':
			i++
		case '\n', '\f', '\r':
			i++
			gapAt = i
		default:
			end := i + 1
			for end < len(para) && !wordEnds(para[end]) {
				end++
			}
			ms = append(ms, keptWord{para[gapAt:i], para[i:end]})
			i, gapAt = end, end
		}
	}
	return ms
}

// wordEnds says whether byte c ends a word: space, tab, \n, \f or \r.
func wordEnds(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
