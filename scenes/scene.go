// Package scenes holds locksim's scenes (one file each: its Build and what
// it says about the ledger), the registry, the shared reading every scene
// gets from the ledger (cards, readout, alarm, scoreboard, as plain data
// from package say), the plain transcript and the redis-cli export. It
// draws nothing: the screen is package tui.
package scenes

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"locksim/content"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// Kind is how a scene plays.
type Kind int

const (
	// Race fires once on open; ←/→ select workers and r fires again.
	Race Kind = iota
	// Story steps through a schedule the learner may take over: pick who
	// moves next, crash or pause an actor, let time pass.
	Story
	// Quiz asks questions and sends no command to Redis.
	Quiz
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

// Scene is one lesson: what it runs (Build) and what it says about the
// ledger's reading of the replies (Say). Its title, dive and every
// sentence come from content/text/<ID>.txt.
type Scene struct {
	ID    string
	Kind  Kind
	Knobs []Knob
	// Wait is the story time the w key lets pass.
	Wait time.Duration
	// Build returns the actors, keys and schedule for the given settings.
	Build func(p Params) sim.Script
	// Say fills in what only this scene says: its verdict line, and the
	// slots of its own sentences ({ttl}, {method}). The cards, the readout,
	// the alarm and the scoreboard come from the ledger, the same for all.
	Say func(v Frame, s *Said)
	// Variants are the settings the plain transcript plays, in order; nil
	// means every combination of the knobs' values, the defaults first.
	Variants []Params
	// Lesson are the stories a presenter's clicker walks, in order: the
	// few that carry the scene's point in front of a class; nil means
	// Stories.
	Lesson []Params
	// Shortest is the scene's smallest margin, story time: the least gap
	// between a moment a story rests on and the deadline it must fall
	// clearly before or after (a key's expiry, a retry's due time). On a
	// live server the scale is capped so that it stays at least MinWire
	// long on the wire.
	Shortest time.Duration
	// Predict is the scene's decisive point: the story stops before it and
	// asks the learner to predict (content sections predict and choices);
	// nil for none.
	Predict *Prediction
	// Distributed is set for a lock across several independent nodes:
	// only then can fault tolerance be shown. One Redis has none.
	Distributed bool
	// EmbeddedOnly are the knob values whose story only embedded nodes
	// can play (a node's clock jump, a restart that loses the node's keys):
	// on a live server it does not happen, so it asks no question.
	EmbeddedOnly []string
	// Needs are the knob values whose story sends a command only newer
	// servers have, by value: the form (sim.OneDelex, sim.OneDelifeq,
	// sim.OneSetIfeq) a live server must have for it (see FormsNeeded).
	Needs map[string]string
	// Fixed are the knobs a story sets by itself, by the knob value that
	// picks the story: the knob's name and what the story sends in its
	// place (extend's GET story renews with SET IFEQ GET whatever r
	// says). Such a knob is shown, described and offered as that.
	Fixed map[string]map[string]string
}

// Played is a story's events and its move labels (sim.Snapshot's), at its
// end: a scene's one story played from its start to its end on a fresh
// embedded server with seed 1, as a story code's fingerprint plays it. A
// lab story's is made by the play that finds its question (lab's
// Break.VetStory), and handed to the fingerprint with its scene, which
// then does not play the story again.
type Played struct {
	Events []sim.Event
	Moves  []string
}

// Frame is what a scene reads: the run's snapshot, the ledger's fold of it,
// the settings, the selected actor (-1 for none) and the scene's text.
// Hide is set while a prediction is open: the cards then say nothing the
// keys read back (a held key, its TTL), which could answer the question.
type Frame struct {
	Snap sim.Snapshot
	L    *ledger.Ledger
	P    Params
	Sel  int
	Text content.Text
	Hide bool
}

// Said is what a scene adds to the shared reading.
type Said struct {
	Verdict string
	Tone    say.Tone
	// Vars fill the scene's own slots in any of its sentences.
	Vars map[string]string
	// Value is the constant every actor writes instead of a token, if the
	// settings say so: the cards show it from the start.
	Value string
	// Marks are short notes after an actor's token on its card (a running
	// watchdog), by actor name.
	Marks map[string]string
	// Cards is a scene's own first card line per actor, in place of its
	// token (a queue's workers carry a job and its attempts instead).
	Cards map[string]string
	// OwnCards are actors' cards as the scene draws them instead of the
	// shared ones, by actor: five cards leave 12 columns a line at 80.
	OwnCards map[string]say.Card
}

// Explanation is the reading of a snapshot, ready to draw.
type Explanation struct {
	Cards       []say.Card
	Readout     string
	Verdict     string
	VerdictTone say.Tone
	// Alarm is the automatic verdict when a property breaks; empty if none.
	Alarm string
	Props [3]say.Prop
}

// Prediction is a question the story asks before its decisive move.
type Prediction struct {
	// Before lists the timeline labels of the move the question comes
	// before (the first in the schedule that matches).
	Before []string
	// From lists the labels of a move before the question whose effect
	// the question asks about (a node's clock jump), earlier than the last
	// wait before it: from the step after it, the state as read answers
	// the question, so it is hidden as at the question itself (see
	// MomentAt).
	From []string
	// Answer is the choice (0-based) the real replies made true, read once
	// the move has run; -1 when they make none of them true.
	Answer func(v Frame) int
	// Vars fills the question's slots (sections predict, ask, choices and
	// hint-N) from the story's settings and the scene's text; nil for a
	// question with none.
	Vars func(t content.Text, p Params) map[string]string
}

// Question is the question's section name of t under the settings p, its
// slots filled from the story's own numbers (Prediction.Vars); the screen
// and the transcript read every question section through it.
func (s *Scene) Question(t content.Text, p Params, name string) string {
	if s.Predict == nil || s.Predict.Vars == nil {
		return t.Get(name)
	}
	return t.Fill(name, s.Predict.Vars(t, p))
}

// before is the prediction asked before the move labelled label (or any
// of more labels), answered by answer.
func before(answer func(Frame) int, labels ...string) *Prediction {
	return &Prediction{Before: labels, Answer: answer}
}

// answerOf reads a prediction's answer from the ledger: the reading of
// actor's latest op, as the index of whats it matches; otherwise when it
// matches none, -1 when the actor sent no such op.
func answerOf(actor string, op sim.OpKind, otherwise int, whats ...ledger.What) func(Frame) int {
	return func(v Frame) int {
		_, rd, ok := v.L.LastOp(actor, op)
		if !ok {
			return -1
		}
		for i, w := range whats {
			if rd.What == w {
				return i
			}
		}
		return otherwise
	}
}

// Asks reports that the scene puts questions to the learner: a prediction
// at its decisive point, or a whole quiz.
func (s *Scene) Asks() bool { return s.Predict != nil || s.Kind == Quiz }

// Sends reports a scene that sends commands to the server: every scene but
// a quiz, which only asks. A scene that sends has steps, keys, a log and a
// history to check.
func (s *Scene) Sends() bool { return s.Kind != Quiz }

// Stepped reports a scene the learner steps through move by move (a
// story), rather than one fired at once (the race) or a quiz.
func (s *Scene) Stepped() bool { return s.Kind == Story }

// FiresAtOnce reports a scene whose decisive move runs as it opens (the
// race's SETs): once its place carries what fired, its question is past.
func (s *Scene) FiresAtOnce() bool { return s.Kind == Race }

// FormsNeeded are the one-command forms the story under p sends that only
// newer servers have (see Needs), in the knobs' order.
func (s *Scene) FormsNeeded(p Params) []string {
	var out []string
	for _, k := range s.Knobs {
		if f, ok := s.Needs[s.Value(p, k.Name)]; ok {
			out = append(out, f)
		}
	}
	return out
}

// NeedsEmbedded reports that the story under p only happens on embedded
// nodes (see EmbeddedOnly).
func (s *Scene) NeedsEmbedded(p Params) bool {
	for _, k := range s.Knobs {
		if slices.Contains(s.EmbeddedOnly, s.Value(p, k.Name)) {
			return true
		}
	}
	return false
}

// PredictAt is the schedule position the prediction stops before, -1 if
// the schedule has no such move.
func (s *Scene) PredictAt(labels []string) int {
	if s.Predict == nil {
		return -1
	}
	for i, l := range labels {
		for _, b := range s.Predict.Before {
			if l == b {
				return i
			}
		}
	}
	return -1
}

// MomentAt is the first schedule position whose state answers the
// prediction at at: the step after the last From move before at (see
// Prediction.From), else the step after the last wait before at, from
// where the story's clock stands at the question's time; -1 when at is.
func (s *Scene) MomentAt(moves []sim.Move, at int) int {
	if at < 0 || s.Predict == nil {
		return at
	}
	// a From move comes before the last wait (a lost reply, then the
	// client's timeout): its effect is read from the step after it, so it
	// wins over the wait
	for i := min(at, len(moves)) - 1; i >= 0; i-- {
		if slices.Contains(s.Predict.From, sim.MoveLabel(moves[i])) {
			return i + 1
		}
	}
	for i := min(at, len(moves)) - 1; i >= 0; i-- {
		if moves[i].Kind == sim.MoveAdvance {
			return i + 1
		}
	}
	return 0
}

// MinWire is the least a story's margin may shrink to on a live server:
// below it, a loaded machine's scheduling and the network's own timing can
// carry a command across the deadline the story puts it before or after.
const MinWire = 50 * time.Millisecond

// Script is the scene's Build under p, with the scale capped by Shortest.
func (s *Scene) Script(p Params) sim.Script {
	sc := s.Build(p)
	if s.Shortest > 0 {
		sc.MaxScale = int(s.Shortest / MinWire)
	}
	return sc
}

// LessonStories is Lesson, or Stories.
func (s *Scene) LessonStories() []Params {
	if s.Lesson != nil {
		return s.Lesson
	}
	return s.Stories()
}

// Stories is Variants, or every combination of the knobs' values.
func (s *Scene) Stories() []Params {
	if s.Variants != nil {
		return s.Variants
	}
	out := []Params{{}}
	for _, k := range s.Knobs {
		var next []Params
		for _, p := range out {
			for i := range k.Values {
				q := Params{k.Name: i}
				for n, v := range p {
					q[n] = v
				}
				next = append(next, q)
			}
		}
		out = next
	}
	// a knob the story sets by itself plays the same under each of its
	// values: once, at its first
	return slices.DeleteFunc(out, func(p Params) bool {
		for _, k := range s.Knobs {
			if _, ok := s.FixedBy(p, k.Name); ok && p[k.Name] != 0 {
				return true
			}
		}
		return false
	})
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

// Describe names the settings for a transcript heading: "crash: between".
func (s *Scene) Describe(p Params) string {
	var parts []string
	for _, k := range s.Knobs {
		parts = append(parts, fmt.Sprintf("%s: %s", k.Name, s.Shown(p, k.Name)))
	}
	return strings.Join(parts, ", ")
}

// FixedBy is what the story under p sends in place of the named knob's
// setting, when another knob's value picks a story that sets it by itself
// (see Fixed).
func (s *Scene) FixedBy(p Params, knob string) (string, bool) {
	for _, k := range s.Knobs {
		if k.Name == knob {
			continue
		}
		if v, ok := s.Fixed[s.Value(p, k.Name)][knob]; ok {
			return v, true
		}
	}
	return "", false
}

// Shown is the named knob's setting as the screen and a transcript name it:
// its value, or what the story sends in its place (see Fixed).
func (s *Scene) Shown(p Params, knob string) string {
	if v, ok := s.FixedBy(p, knob); ok {
		return v
	}
	return s.Value(p, knob)
}

// knobDuration reads a knob whose values are durations, spaced as the
// screen spaces units ("35 s").
func knobDuration(s *Scene, p Params, name string) time.Duration {
	d, _ := time.ParseDuration(strings.ReplaceAll(s.Value(p, name), " ", ""))
	return d
}

// secs prints a story duration in whole seconds, as the knobs name them.
func secs(d time.Duration) string { return itoa(int64(d/time.Second)) + " s" }
