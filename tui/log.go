package tui

import (
	"strings"
	"time"

	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/views"
)

// logLines turns events into the command log; sel's lines are highlighted.
// With strip, the run's key prefix is left out (the rule above says it).
// With simulated, how a live server played a fault (sim.Event.Simulated)
// follows its line: the caller gives it only where the disclosure rule
// shows the checked state, since it may answer the question.
func logLines(s sim.Snapshot, sel string, strip bool, digits int, simulated bool) []views.LogLine {
	var out []views.LogLine
	for _, e := range s.Events {
		l := views.LogLine{At: "+" + sim.FormatDuration(e.At), Actor: e.Actor, Hi: sel != "" && e.Actor == sel}
		switch e.Kind {
		case sim.Command:
			l.Text = scenes.ShortenTokensN(e.Cmd, s.Actors, s.Events, digits)
			if strip {
				l.Text = strings.ReplaceAll(l.Text, s.Prefix, "")
			}
			l.Reply = scenes.ShortenTokensN(e.Reply, s.Actors, s.Events, digits)
			l.Tone = scenes.ToneOf(e)
			l.Reply += storyPTTL(s, e)
			switch e.Node {
			case sim.LockNode:
			case sim.ResourceNode:
				l.Actor += "→res"
			default:
				l.Actor += "→" + e.Node // a node of a distributed story
			}
		case sim.Clock:
			l.Actor, l.Text = "clock", "["+e.Note+"]"
		case sim.Aside:
			l.Actor, l.Text, l.Tone, l.Dim = "clock", "["+e.Note+"]", say.Dim, true
		case sim.Fault:
			l.Text, l.Tone, l.Reply = "["+e.Note+"]", say.Bad, "!"
			if l.Actor == "" && e.Node != "" {
				l.Actor = e.Node // a node's own fault: stopped, restarted, slowed
			}
		default:
			l.Text = "[" + e.Note + "]"
		}
		if simulated && e.Simulated != "" {
			if e.Kind == sim.Command {
				l.Reply += " (simulated: " + e.Simulated + ")"
			} else {
				l.Text += " (simulated: " + e.Simulated + ")"
			}
		}
		out = append(out, l)
	}
	return out
}

// storyPTTL labels a PTTL's reply on a live server that runs the story at
// ÷Scale: the reply stays as the server sent it, in the wire's
// milliseconds, and the label gives it in story time, as the key's line
// and the readouts read; "" for any other reply.
func storyPTTL(s sim.Snapshot, e sim.Event) string {
	if !s.Live || s.Scale <= 1 || len(e.Args) == 0 || !strings.EqualFold(e.Args[0], "PTTL") {
		return ""
	}
	n, ok := e.Int()
	if !ok || n < 0 {
		return ""
	}
	return " (ms on the wire: " + sim.FormatSpan(time.Duration(n*int64(s.Scale))*time.Millisecond) + " of story)"
}
