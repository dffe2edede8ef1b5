package tui

import (
	"regexp"
	"slices"
	"strings"

	"locksim/lab"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is the lab's keys: the levels', or the editor's for the lock
// open (a search's cancel while it runs; ctrl+o and the pick of a break
// once the adversary found one). The short list is the footer's, most
// needed first, in short words, the keys page's key last: the footer
// keeps as many as fit one row (fitKeys); the full list is the keys
// page's, in whole words.
func (l *Lab) KeyMap() help.KeyMap {
	k := l.com.LabKeys
	if l.mode == labList {
		bs := []key.Binding{k.Open, k.Up, k.Back, l.com.Keys.Quit, k.Keys}
		return keyList{short: bs, full: [][]key.Binding{bs}}
	}
	lv := l.level(l.open)
	hint, help := k.Hint, k.Help
	switch {
	case lv.own:
		hint.SetEnabled(false)
	case lv.Mode == lab.FixIt && l.passed[lv.ID()]:
		hint.SetHelp("ctrl+x", "the reference fix beside yours")
	}
	hintShort := relabel(hint, "hint")
	if lv.Mode == lab.FixIt && l.passed[lv.ID()] {
		hintShort = relabel(hint, "reference fix")
	}
	if lv.Break() {
		help = k.Keys // nothing is typed here
	}
	run := k.Run
	if l.report != nil {
		run = relabel(run, "run again")
	}
	var short, full []key.Binding
	switch {
	case l.running:
		short, full = []key.Binding{k.Cancel}, []key.Binding{k.Cancel}
	case lv.Break():
		short = []key.Binding{relabel(k.Hand, "play it: you make the moves"), hintShort, k.Back, run}
		full = []key.Binding{k.Hand, hint, k.Run, k.NextPart, k.PrevPart, k.Back}
	default:
		// where tab goes: the focus walks the parts, then the policy's
		// fields
		short = []key.Binding{run, hintShort, k.Back, relabel(k.NextPart, "→ "+l.focusName(l.focus+1)), relabel(k.Lang, "Lua/commands"), k.Save}
		if l.focus >= len(l.parts) {
			short = slices.Delete(short, 4, 5) // a field has no language
		}
		full = []key.Binding{k.Run, hint, k.NextPart, k.PrevPart, k.Lang, k.Save, k.Back}
	}
	if l.resMax > 0 && !l.running {
		// the result runs past the screen: its scroll key comes first
		short = append([]key.Binding{k.Scroll}, short...)
		full = append([]key.Binding{k.Scroll}, full...)
	}
	if n := len(l.failures()); n > 0 && !l.running {
		story := relabel(k.Story, "the break ▸")
		if !l.reportShown().State {
			story = relabel(k.Story, "play a break") // no ▸ on screen yet
		}
		short = append([]key.Binding{story}, short...)
		full = append([]key.Binding{k.Story}, full...)
		if n > 1 {
			short = slices.Insert(short, min(4, len(short)), relabel(k.Pick, "another break"))
			full = slices.Insert(full, 1, k.Pick)
		}
	}
	return keyList{short: append(short, help), full: [][]key.Binding{full, {help}}}
}

// relabel is b with the footer's shorter words for what it does.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// focusMark is drawn before the part's tab, or the policy field, that
// takes the keys, as before the level chosen in the list: seen without
// colour (the focus was a colour only, and tab walked into the policy's
// fields unseen, where Lua typed gave `delay: "return r" is not a
// duration`). Not ▸, which marks the break ctrl+o opens.
const focusMark = ">"

// focusName is the name of part or policy field f (wrapping), as the
// footer's tab and the line under the editor name it.
func (l *Lab) focusName(f int) string {
	n := len(l.parts) + fieldCount
	f = (f%n + n) % n
	if f < len(l.parts) {
		return labPartNames[f]
	}
	return fieldNames[f-len(l.parts)]
}

// fieldHint is the line under the editor while policy field f has the
// focus: what it takes, and where tab and shift+tab go.
func (l *Lab) fieldHint(f int) string {
	what := map[int]string{
		fieldTTL:      "the lease a grant sets, as 30s or 250ms (a bare number is ms)",
		fieldRetries:  "how many times an acquire refused tries again, 0 to 3",
		fieldDelay:    "the wait before each retry, as 200ms or 1s",
		fieldWatchdog: "off, or how often a watchdog renews the lease, as 10s",
	}[f]
	at := len(l.parts) + f
	return "policy field " + fieldNames[f] + ": " + what + " · tab " + l.focusName(at+1) +
		", shift+tab " + l.focusName(at-1)
}

// fieldTakes reports whether policy field f may hold v, complete or as
// it is being typed: a count's digits (retries); a duration (30s, 250ms,
// 1m30s, a bare number of ms) or the start of one, and for the watchdog
// off. Code typed there is refused with a note, not taken.
func fieldTakes(f int, v string) bool {
	if f == fieldRetries {
		return countPrefix.MatchString(v)
	}
	return durationPrefix.MatchString(v) || f == fieldWatchdog && strings.HasPrefix("off", v)
}

var (
	countPrefix    = regexp.MustCompile(`^[0-9]*$`)
	durationPrefix = regexp.MustCompile(`^([0-9]+(\.[0-9]*)?(ns?|us?|µs?|ms?|s|h)?)*$`)
)

// refusedInField is the note for runes field f does not take.
func (l *Lab) refusedInField(f int, typed string) string {
	kind := "a duration (30s, 250ms)"
	if f == fieldRetries {
		kind = "a count (0 to 3)"
	}
	return "not typed: " + typed + " · the policy's " + fieldNames[f] + " field takes " + kind +
		", not code · shift+tab goes back to " + l.focusName(len(l.parts)+f-1)
}
