// Package scenes holds locksim's scenes (one file each: actors, programs,
// schedule, and how the scene's events fold into what the screen says), the
// registry, the Bubble Tea app that plays them, and the plain transcript.
package scenes

import (
	"fmt"
	"strings"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/views"
)

// Knob is a setting the learner can change; its key cycles Values. A
// change rebuilds the schedule and replays the scene from the start.
type Knob struct {
	Key    string
	Name   string
	Values []string
}

// Params holds the index of each knob's current value, by knob name.
type Params map[string]int

// Scene is one lesson: what it runs and how it explains what it saw.
type Scene struct {
	ID, Dive, Title string
	Knobs           []Knob

	// Race scenes fire once on open; ←/→ select workers and r fires again
	// with fresh tokens. Other scenes step through their schedule.
	Race bool
	// Scheduler lets the learner pick who moves next, crash or pause the
	// selected actor and let time pass, from the current point.
	Scheduler bool
	// Wait is the story time the w key lets pass.
	Wait time.Duration

	// Build returns the actors, keys and schedule for the given settings.
	Build func(p Params) sim.Script
	// Explain folds a snapshot into what the screen shows.
	Explain func(v View) Explanation
	// Variants are the settings the plain transcript plays, in order; nil
	// means the defaults once.
	Variants []Params
}

// View is what Explain reads: the run's snapshot, the settings, the selected
// actor (-1 for none) and the scene's course text.
type View struct {
	Snap sim.Snapshot
	P    Params
	Sel  int
	Text content.Text
}

// Explanation is a scene's reading of a snapshot, ready to draw.
type Explanation struct {
	Cards       []views.Card
	Readout     string
	Verdict     string
	VerdictTone views.Tone
	// Alarm is the automatic verdict when a property breaks; empty if none.
	Alarm string
	Props [3]views.Prop
}

// Value returns the current value of the named knob.
func (s *Scene) Value(p Params, name string) string {
	for _, k := range s.Knobs {
		if k.Name == name {
			return k.Values[p[name]%len(k.Values)]
		}
	}
	return ""
}

// describe names the settings for a transcript heading: "crash: between".
func (s *Scene) describe(p Params) string {
	var parts []string
	for _, k := range s.Knobs {
		parts = append(parts, fmt.Sprintf("%s: %s", k.Name, s.Value(p, k.Name)))
	}
	return strings.Join(parts, ", ")
}

// short abbreviates a token for the screen: its first 8 hex digits and "…".
func short(token string) string {
	if len(token) <= 9 {
		return token
	}
	return token[:8] + "…"
}

// shortenTokens abbreviates every actor token inside s.
func shortenTokens(s string, actors []sim.Actor) string {
	for _, a := range actors {
		if a.Token != "" {
			s = strings.ReplaceAll(s, a.Token, short(a.Token))
		}
	}
	return s
}

// commands returns the command events of the given actor and step label
// ("" matches any).
func commands(events []sim.Event, actor, step string) []sim.Event {
	var out []sim.Event
	for _, e := range events {
		if e.Kind == sim.Command && (actor == "" || e.Actor == actor) && (step == "" || e.Step == step) {
			out = append(out, e)
		}
	}
	return out
}

// lastOf returns the last event of commands(...), if any.
func lastOf(events []sim.Event, actor, step string) (sim.Event, bool) {
	c := commands(events, actor, step)
	if len(c) == 0 {
		return sim.Event{}, false
	}
	return c[len(c)-1], true
}

// toneOf colours a reply: OK and (integer) 1 good, refusals warn, errors bad.
func toneOf(reply string) views.Tone {
	switch {
	case reply == "OK", reply == "(integer) 1":
		return views.Good
	case reply == "(nil)", reply == "(integer) 0":
		return views.Warn
	case strings.HasPrefix(reply, "(error)"):
		return views.Bad
	}
	return views.Plain
}

// logLines turns events into the command log; sel's lines are highlighted.
func logLines(s sim.Snapshot, sel string) []views.LogLine {
	var out []views.LogLine
	for _, e := range s.Events {
		l := views.LogLine{At: "+" + sim.FormatDuration(e.At), Actor: e.Actor, Hi: sel != "" && e.Actor == sel}
		switch e.Kind {
		case sim.Command:
			l.Text = shortenTokens(e.Cmd, s.Actors)
			l.Reply = shortenTokens(e.Reply, s.Actors)
			l.Tone = toneOf(e.Reply)
			if e.Store == "resource" {
				l.Actor += "→res"
			}
		case sim.Clock:
			l.Actor, l.Text = "clock", "["+e.Note+"]"
		case sim.Fault:
			l.Text, l.Tone, l.Reply = "["+e.Note+"]", views.Bad, "!"
		default:
			l.Text = "[" + e.Note + "]"
		}
		out = append(out, l)
	}
	return out
}

// keyNow is what a lock key read back says about one worker: whether it
// still holds the lock, and if not, what the key holds instead.
type keyNow struct {
	holds bool   // the key is there with the value this worker wrote, and the replies make it the owner
	owner string // the worker whose value the key holds now, "" when gone or unknown
	gone  bool   // the key is gone (PTTL -2)
	pttl  int64
}

// say tells, for a worker that no longer holds the lock, what the key holds
// now, with the scene's now-gone / now-other / now-ttl sections.
func (n keyNow) say(t content.Text) string {
	switch {
	case n.gone:
		return t.Get("now-gone")
	case n.owner != "":
		return t.Get("now-other", n.owner)
	}
	return t.Get("now-ttl", n.pttl)
}
