package tui

// The lines of the story screen around the cards and the log: a key and
// its deadlines, a node, the resource, the timeline, the story page.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/play"
	"locksim/scenes"
	"locksim/shown"
	"locksim/sim"
	"locksim/views"

	"github.com/charmbracelet/x/ansi"
)

func keyLine(st views.Styles, k sim.KeyState, snap sim.Snapshot, w int) string {
	// a key's name and a hash's or a set's fields come from the server:
	// in the lab, from the learner's own script, so a control or a bidi
	// override in them is shown, not obeyed (a string is quoted, %q)
	k.Name = shown.Line(k.Name)
	var s string
	if !k.Exists() {
		s = st.Bold.Render(k.Name) + st.Dim.Render("  (no such key)  PTTL -2")
	} else {
		val := k.Value
		if k.Type == "string" {
			val = fmt.Sprintf("%q", scenes.ShortenTokens(val, snap.Actors, snap.Events))
			if who := tokenOwner(k.Value, snap.Events); who != "" {
				val += " (" + who + "'s token)"
			}
		} else if k.Type == "zset" && k.Clock > 0 {
			val = shown.Line(scenes.ShortenTokens(scoreDeadlines(k, snap), snap.Actors, snap.Events))
		} else {
			val = shown.Line(scenes.ShortenTokens(val, snap.Actors, snap.Events))
		}
		ttl := fmt.Sprintf("PTTL %d ms", k.PTTL)
		if snap.Live && snap.Scale > 1 && k.PTTL > 0 {
			ttl += " (" + sim.FormatSpan(time.Duration(k.PTTL*int64(snap.Scale))*time.Millisecond) + " of story)"
		}
		if k.PTTL == -1 {
			ttl = st.Warn.Render("PTTL -1 (no expiry)")
		}
		// a value too long for the row gives up words from its middle: the
		// key's name and its PTTL stay whole
		if room := w - ansi.StringWidth(k.Name+" = "+"  "+ansi.Strip(ttl)); ansi.StringWidth(val) > room && room >= 12 {
			val = views.CutMiddle(val, room)
		}
		s = st.Bold.Render(k.Name) + " = " + val + "  " + ttl
	}
	return truncate(s, w)
}

// nodeLine is one node of a distributed story: its name (marked when
// picked), its key as read back, and its faults.
func (p *Player) nodeLine(st views.Styles, k sim.KeyState, w int) string {
	mark := "  "
	var n sim.NodeState
	for i, s := range p.Snap.Nodes {
		if s.Name == k.Node {
			n = s
			if i == p.Node {
				mark = st.Key.Render("▸ ")
			}
		}
	}
	faults := nodeFaults(n)
	tail := ""
	if len(faults) > 0 {
		tail = st.Warn.Render(" · " + strings.Join(faults, " · "))
	}
	head := mark + st.Bold.Render(n.Name) + " "
	if k.Down {
		return truncate(head+st.Bad.Render("stopped: answers nothing")+tail, w)
	}
	k.Name = strings.TrimPrefix(k.Name, p.Snap.Prefix)
	if p.hiding() {
		// the node's faults are the question's premise; its key may be the answer
		return truncate(head+st.Bold.Render(k.Name)+st.Dim.Render("  "+p.hiddenNote())+tail, w)
	}
	return truncate(head+keyLine(st, k, p.Snap, w)+tail, w)
}

// nodeFaults names what is wrong with node n: slow, hung, clients cut
// off, its clock ahead.
func nodeFaults(n sim.NodeState) []string {
	var faults []string
	if n.Slow {
		faults = append(faults, "slow")
	}
	if n.Hung {
		faults = append(faults, fmt.Sprintf("hung · %d waiting", n.Waiting))
	}
	for _, a := range n.Cut {
		faults = append(faults, a+" cut off")
	}
	if n.Skew > 0 {
		faults = append(faults, "clock +"+sim.FormatSpan(n.Skew))
	}
	return faults
}

// hiddenNodes is the nodes' two rows while a question is open: their key,
// hidden, and their faults grouped (the question's premise), so that the
// rows left show the log's setup move.
func (p *Player) hiddenNodes(st views.Styles, key string, w int) []string {
	var names []string
	var order []string
	on := map[string][]string{}
	for _, n := range p.Snap.Nodes {
		names = append(names, n.Name)
		if n.Down {
			order, on["stopped"] = appendNew(order, "stopped"), append(on["stopped"], n.Name)
		}
		for _, f := range nodeFaults(n) {
			order, on[f] = appendNew(order, f), append(on[f], n.Name)
		}
	}
	rows := []string{truncate(st.Bold.Render("nodes "+strings.Join(names, " ")+" "+key)+st.Dim.Render("  "+p.hiddenNote()), w)}
	if len(order) > 0 {
		var parts []string
		for _, f := range order {
			parts = append(parts, strings.Join(on[f], " ")+": "+f)
		}
		rows = append(rows, truncate(st.Warn.Render("  "+strings.Join(parts, " · ")), w))
	}
	return rows
}

// appendNew appends s to list unless it is there already.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// scoreDeadlines shows a sorted set's members; a score that is a time (epoch
// ms, 13 digits) is shown as the time left until it on the server's clock
// as read with the set, in story time, rather than as the raw number.
func scoreDeadlines(k sim.KeyState, snap sim.Snapshot) string {
	var parts []string
	for _, f := range k.Fields {
		score, err := strconv.ParseFloat(f.Value, 64)
		if err != nil || score < 1e12 {
			parts = append(parts, f.Name+"="+f.Value)
			continue
		}
		left := time.Duration(int64(score)-k.Clock) * time.Millisecond * time.Duration(max(snap.Scale, 1))
		switch {
		case left >= 0:
			parts = append(parts, f.Name+" deadline in "+sim.FormatSpan(left))
		default:
			parts = append(parts, f.Name+" deadline passed "+sim.FormatSpan(-left)+" ago")
		}
	}
	return strings.Join(parts, ", ")
}

func resourceLine(st views.Styles, r sim.ResourceState, w int) string {
	s := st.Bold.Render("resource") + " " + r.LastWrite()
	s += fmt.Sprintf(" · accepted %d · rejected %d", r.Accepted, r.Rejected)
	if r.MaxToken > 0 {
		s += fmt.Sprintf(" · largest token %d", r.MaxToken)
	}
	return truncate(s, w)
}

// timelineMarks turns the schedule into timeline glyphs.
func timelineMarks(s sim.Snapshot) []views.Mark {
	out := make([]views.Mark, len(s.Moves))
	for i, label := range s.Moves {
		g := "●"
		switch s.Kinds[i] {
		case sim.MoveAdvance:
			g = "~"
		case sim.MoveCrash:
			g = "✗"
		case sim.MovePause:
			g = "‖"
		case sim.MoveResume:
			g = "›"
		}
		out[i] = views.Mark{Glyph: g, Label: label}
	}
	return out
}

// about is the scene's introduction, its settings and the source of every
// script the log names by <name> the core lets its role read, wrapped to w
// columns.
func (p *Player) about(st views.Styles, w int) string {
	text := p.Page(p.role)
	for _, k := range p.Scene.Knobs {
		text += fmt.Sprintf("\n[%s] %s: %s", k.Key, k.Name, strings.Join(k.Values, " / "))
	}
	if p.Scene.Shortest > 0 {
		text += fmt.Sprintf("\nOn a live server this scene runs at ÷%d at most: its %s margin must stay at least %s on the wire.",
			p.Scene.Shortest/scenes.MinWire, sim.FormatSpan(p.Scene.Shortest), sim.FormatSpan(scenes.MinWire))
	}
	out := views.Wrapped(text, max(w, 1))
	// the core says which sources may be read now: while the question is
	// open they wait for the answer (play.Scripts)
	sc := p.Scripts(p.role)
	if len(sc.Held) > 0 {
		out += "\n\n" + st.Plain.Width(max(w, 1)).Render(play.ScriptsWait(sc.Held))
	}
	if sc.Key && len(sc.Shown) > 0 && !strings.Contains(out, play.AnswerKeyHeading) {
		out += "\n\n" + play.AnswerKeyHeading
	}
	for _, name := range slices.Sorted(maps.Keys(sc.Shown)) {
		// a lab story's script is the learner's own file: shown, not obeyed
		out += "\n\n<" + name + "> as sent with EVAL:\n" + shown.Text(sc.Shown[name].Src)
	}
	return out
}

// tokenOwner names the actor whose granted acquire wrote value, "" if none:
// a constant value written by several is nobody's in particular.
func tokenOwner(value string, events []sim.Event) string {
	owner := ""
	for _, e := range events {
		if e.Op != nil && e.Op.Kind == sim.OpAcquire && e.Op.Token == value && value != "" {
			if owner != "" && owner != e.Actor {
				return ""
			}
			owner = e.Actor
		}
	}
	return owner
}
