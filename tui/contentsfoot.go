package tui

import (
	"fmt"
	"strings"

	"locksim/scenes"
	"locksim/views"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/x/ansi"
)

// lastTimeLine is the row above the keys that names the place the
// learner would continue from, in words: the scene, the step, and the
// settings changed from their defaults as its settings line names them
// ("last time: gc-pause, step 4, with pause "70 s" and TTL "10 s""), or
// only how many when they would not fit; "" for none.
func (t *Contents) lastTimeLine() string {
	m := t.lastTime()
	if m.Scene == "" {
		return ""
	}
	base := fmt.Sprintf("last time: %s, step %d", m.Scene, m.Step)
	sc := scenes.Find(m.Scene)
	if sc == nil {
		return base
	}
	var set []string
	for _, k := range sc.Knobs {
		i := m.Settings[k.Name]
		if i <= 0 || i >= len(k.Values) {
			continue
		}
		if _, fixed := sc.FixedBy(m.Settings, k.Name); fixed {
			continue // the story sets it by itself: not the learner's
		}
		set = append(set, fmt.Sprintf("%s %q", k.Name, k.Values[i]))
	}
	line := base
	switch n := len(set); {
	case n == 1:
		line += ", with " + set[0]
	case n > 1:
		line += ", with " + strings.Join(set[:n-1], ", ") + " and " + set[n-1]
	}
	if ansi.StringWidth(line) > max(t.w, MinWidth) {
		line = fmt.Sprintf("%s, with %d settings changed", base, len(set))
	}
	return line
}

// View draws the contents at the size SetSize set: the list, then the
// last time (if any) and the keys, each on a row of its own, so that
// neither pushes the other off.
func (t *Contents) View() string {
	st := t.com.Styles
	keys := t.KeyMap().ShortHelp() // enter, /, ↑/↓, g, ?, q
	if t.typing() {
		help := views.HelpLine(keys)
		if q := t.list().FilterInput.Value(); q != "" && len(t.list().VisibleItems()) == 0 {
			// nothing to open: say so, rather than an empty list
			help = fmt.Sprintf("no scene matches %q · ", q) + views.HelpLine(keys[2:])
		}
		return strings.TrimRight(t.menuView(), "\n") + "\n" + truncate(views.OneLine(st.Dim, help), t.w)
	}
	open, filter, glossary, keysKey, quit := keys[0], keys[1], keys[3], keys[4], keys[5]
	// ↑/↓ goes without saying on a list; ? lists it with the rest
	help := views.HelpLine([]key.Binding{open, filter, glossary, keysKey}) + " · ✓ played to the end · " + views.HelpLine([]key.Binding{quit})
	if m := t.list(); m.FilterState() == list.FilterApplied {
		// the list is filtered: say by what, and how to see it all again
		shown, all := 0, 0
		for _, it := range m.Items() {
			if _, ok := it.(entry); ok {
				all++
			}
		}
		for _, it := range m.VisibleItems() {
			if _, ok := it.(entry); ok {
				shown++
			}
		}
		showAll := views.Bind("esc", "show all", "esc")
		help = fmt.Sprintf("filter %q: %d of %d · ", m.FilterValue(), shown, all) + views.HelpLine([]key.Binding{showAll, open, keysKey, quit})
	}
	switch {
	case t.notice != "":
		help = views.OneLine(st.Warn, t.notice)
	case t.warning != "":
		help = views.OneLine(st.Warn, t.warning)
	}
	foot := truncate(views.OneLine(st.Dim, help), t.w)
	if last := t.lastTimeLine(); last != "" {
		foot = truncate(views.OneLine(st.Dim, last), t.w) + "\n" + foot
	}
	return strings.TrimRight(t.menuView(), "\n") + "\n" + foot
}
