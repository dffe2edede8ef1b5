package tui

import (
	"strings"
	"time"

	"locksim/scenes"
	"locksim/scenes/say"
	"locksim/shown"
	"locksim/sim"
	"locksim/transcript"
	"locksim/views"
)

// logLines turns events into the command log; sel's lines are highlighted.
// With strip, the run's key prefix is left out (the rule above says it).
// With simulated, how a live server played a fault (sim.Event.Simulated)
// follows its line: the caller gives it only where the disclosure rule
// shows the checked state, since it may answer the question.
func logLines(s sim.Snapshot, sel string, strip bool, digits int, simulated bool) []views.LogLine {
	var out []views.LogLine
	var sources map[string]string // EVALSHA's scripts, read once if asked
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
			if s.Live && s.Scale > 1 && e.Reply != "" && len(e.Args) > 0 {
				if sources == nil && scenes.IsScript(e.Args[0]) {
					sources = scenes.ScriptSources(s.Events)
				}
				if label := storySent(e.Args, sources, s.Scale); label != "" {
					l.Reply += label
					l.Whole = true // the label beside, the command whole
				}
			}
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
		// a reply's or a note's text may be a server's or a lab script's
		// (sim.FormatReply escapes an error reply's; this keeps any other)
		l.Text, l.Reply = shown.Text(l.Text), shown.Text(l.Reply)
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

// storySent labels, on a live server that runs the story at ÷scale, each
// duration a command sends (PX's, EX's, a TTL, a script's lease) with its
// story time, beside the reply as a PTTL's is, so the command stays as
// sent and whole (views.Unfold gives a long reply a row of its own rather
// than cut the command): " (1500 ms on the wire: 30 s of story)"; "" for
// a command that sends none.
func storySent(args []string, sources map[string]string, scale int) string {
	var labels []string
	for _, d := range transcript.WireDurations(args, sources, scale) {
		labels = append(labels, d.Wire+" on the wire: "+sim.FormatSpan(d.Story)+" of story")
	}
	if len(labels) == 0 {
		return ""
	}
	return " (" + strings.Join(labels, "; ") + ")"
}
