package tui

import (
	"strings"

	"locksim/scenes"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

// The readout stands beside the log only where both have room: the log
// keeps sideLog columns, so it shows at least as much of each command as
// the 80-column screen, and the readout sideReadout. Elsewhere the
// readout goes below the log.
const (
	sideLog     = 100
	sideReadout = 44
)

// logWidth is the command log's width on a w x h screen, and the
// readout's beside it (0: the readout is below the log). side is false
// while the question or the notes take the middle of the screen.
func logWidth(w, h int, side bool) (logW, readoutW int) {
	rw := min(w*2/5, w-1-sideLog)
	if !side || h < 40 || rw < sideReadout {
		return w, 0
	}
	return w - rw - 1, rw
}

// scriptPanel is the source of the script the log's latest EVAL or
// EVALSHA ran (the selected actor's, when one is selected), under a rule
// naming it, width columns wide, when it fits whole in rows rows: the log
// names a script by <name>, and a screen taller than 80x24 has the rows
// to show what it does. "" when no script fits, or when the core holds
// its source back (shown: the sources the role may read, play.Scripts).
func scriptPanel(st views.Styles, s sim.Snapshot, shown map[string]sim.Lua, sel string, width, rows int) string {
	sources := scenes.ScriptSources(s.Events)
	for i := len(s.Events) - 1; i >= 0; i-- {
		e := s.Events[i]
		if e.Kind != sim.Command || len(e.Args) < 2 || !scenes.IsScript(e.Args[0]) || sel != "" && e.Actor != sel {
			continue
		}
		src := e.Args[1]
		if strings.EqualFold(e.Args[0], "EVALSHA") {
			src = sources[strings.ToLower(e.Args[1])]
		}
		f := strings.Fields(e.Cmd)
		if src == "" || len(f) < 2 {
			return ""
		}
		if _, ok := shown[strings.Trim(f[1], "<>")]; !ok {
			return "" // it waits for the answer
		}
		lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
		if len(lines)+1 > rows {
			return ""
		}
		out := []string{views.Rule(st, "script "+f[1]+", as sent with "+strings.ToUpper(e.Args[0]), width)}
		for _, l := range lines {
			out = append(out, views.OneLine(st.Dim, ansi.Truncate(l, width, "…")))
		}
		return strings.Join(out, "\n")
	}
	return ""
}
