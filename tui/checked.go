package tui

import (
	"fmt"
	"strings"

	checker "locksim/check"
	"locksim/play"
	"locksim/views"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/x/ansi"
)

// answerPending reports that the story's question is still to come or
// open: until it is answered the history page shows nothing of the
// server's side and no verdict, as the disclosure rule says.
func (p *Player) answerPending() bool { return !p.Disclose(play.History).Checked }

// checkedTitle is the history page's rule.
func (p *Player) checkedTitle() string {
	return "the history, checked · v closes"
}

// checkedPage is the history page in w columns and rows rows: each
// model's finding side by side, however many models the checker has, then
// the timeline beneath, with the point the flagging model (the client's
// mutex) could not place flagged.
func (p *Player) checkedPage(st views.Styles, w, rows int) string {
	hide := p.answerPending()
	v := p.findings(hide)
	top := findingRows(st, v, w)
	h := p.history(v, hide)
	drawn := views.Tracks(st, h, w, p.histBack)
	body := drawn.Rows
	leg := legend(st, h, w)
	var hint []string
	if drawn.Before > 0 || drawn.After > 0 {
		hint = []string{views.OneLine(st.Dim, truncate(fmt.Sprintf("%d instants earlier: [ · %d later: ]", drawn.Before, drawn.After), w))}
	}
	// what a short screen gives up first: the blank rows, then the legend's
	// rows but its first, then the tracks' last rows
	gap1, gap2 := []string{""}, []string{""}
	over := func() int { return len(top) + len(gap1) + len(body) + len(gap2) + len(leg) + len(hint) - rows }
	if over() > 0 {
		gap2 = nil
	}
	if over() > 0 {
		gap1 = nil
	}
	if n := over(); n > 0 && len(leg) > 1 {
		leg = leg[:max(len(leg)-n, 1)]
	}
	if n := over(); n > 0 {
		body = body[:max(len(body)-n, 1)]
	}
	var out []string
	for _, part := range [][]string{top, gap1, body, gap2, leg, hint} {
		out = append(out, part...)
	}
	return strings.Join(out, "\n")
}

// history is the story on screen as tracks, the point the flagging model
// could not place flagged; hide keeps the server's side and the flag back.
func (p *Player) history(v checked, hide bool) views.History {
	hidden := ""
	if hide {
		hidden = p.hiddenNote()
	}
	h := historyOf(p.Snap, p.Ledger, hidden)
	if !hide {
		h.Flag = v.flag
	}
	return h
}

// scrollHistory moves the history page's window d instants back (d < 0:
// forward), as far as there is story to show.
func (p *Player) scrollHistory(st views.Styles, w, d int) {
	hide := p.answerPending()
	drawn := views.Tracks(st, p.history(p.findings(hide), hide), w, p.histBack)
	switch {
	case d > 0 && drawn.Before > 0, d < 0 && drawn.After > 0:
		p.histBack += d
	}
}

// findingRows are the findings on one line when it fits, else one line
// each.
func findingRows(st views.Styles, v checked, w int) []string {
	var parts []string
	for _, m := range v.models {
		parts = append(parts, views.OneLine(st.Bold, m.name+": ")+renderTone(st, m.tone, m.says))
	}
	line := strings.Join(parts, views.OneLine(st.Dim, " · "))
	if ansi.StringWidth(line) <= w {
		return []string{line}
	}
	var out []string
	for _, p := range parts {
		for _, l := range strings.Split(st.Wrap(p, w, 2), "\n") {
			if l != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// modelFinding is one model's finding on the story's history, as the
// checker words it.
type modelFinding struct {
	name, says string
	tone       views.Tone
}

// checked is every model's finding, and the point the flagging model could
// not place (nil when it placed every operation).
type checked struct {
	models []modelFinding
	flag   *views.Flag
}

// findings are the checker's findings on the history on screen (see
// checkLater), "checking…" until they arrive; hide words each as waiting
// for the learner's answer.
func (p *Player) findings(hide bool) checked {
	var c checked
	done := p.checkedGen == p.Gen+1
	for _, model := range checker.Models() {
		f := p.report.Of(model)
		m := modelFinding{name: model.Name, says: f.Short(), tone: findingTone(f)}
		switch {
		case hide:
			m.says, m.tone = p.hiddenNote(), views.Dim
		case !done:
			m.says, m.tone = "checking…", views.Dim
		}
		c.models = append(c.models, m)
	}
	if !done || hide {
		return c
	}
	// the point the flagging model could not place, flagged on the timeline
	for _, f := range p.report.Findings {
		if !f.Model.Flags || f.Result != checker.NotLinearizable || f.At < 0 {
			continue
		}
		seq := f.Op.Seq
		if seq >= 0 && seq < len(p.Snap.Events) {
			seq = p.Snap.Events[seq].Seq
		}
		c.flag = &views.Flag{At: views.Instant{At: f.Op.Call, Seq: seq}, Text: f.Sentence}
		break
	}
	return c
}

// findingTone is how a finding is coloured: a history a model accepts
// good, one it cannot place bad, a timeout a warning.
func findingTone(f checker.Finding) views.Tone {
	switch f.Result {
	case checker.Linearizable:
		return views.Good
	case checker.NotLinearizable:
		return views.Bad
	case checker.Unknown:
		return views.Warn
	}
	return views.Dim
}

// checkLater asks the core to check the snapshot on screen in a command
// (play.Session.CheckLater), once per snapshot, while the history page
// shows it: within the checker's timeout a hard history says unknown, and
// the screen never waits for it.
func (p *Player) checkLater() tea.Cmd {
	if !p.checked || p.checkedGen == p.Gen+1 || p.checking == p.Gen+1 {
		return nil
	}
	p.checking = p.Gen + 1
	return teaCmd(p.Session.CheckLater())
}

// takeCheck keeps a check's findings if they are of the snapshot on screen.
func (p *Player) takeCheck(m play.CheckedMsg) {
	if m.ID == p.ID && m.Gen == p.Gen+1 {
		p.report, p.checkedGen = m.Report, m.Gen
	}
}
