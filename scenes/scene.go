// Package scenes holds locksim's scenes (one file each: its Build and what
// it says about the ledger), the registry, the shared reading every scene
// gets from the ledger (cards, readout, alarm, scoreboard), the Bubble Tea
// app that plays them, and the plain transcript.
package scenes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/views"
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
	Say func(v View, s *Said)
	// Variants are the settings the plain transcript plays, in order; nil
	// means every combination of the knobs' values, the defaults first.
	Variants []Params
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
}

// View is what a scene reads: the run's snapshot, the ledger's fold of it,
// the settings, the selected actor (-1 for none) and the scene's text.
type View struct {
	Snap sim.Snapshot
	L    *ledger.Ledger
	P    Params
	Sel  int
	Text content.Text
}

// Said is what a scene adds to the shared reading.
type Said struct {
	Verdict string
	Tone    views.Tone
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
	OwnCards map[string]views.Card
}

// Explanation is the reading of a snapshot, ready to draw.
type Explanation struct {
	Cards       []views.Card
	Readout     string
	Verdict     string
	VerdictTone views.Tone
	// Alarm is the automatic verdict when a property breaks; empty if none.
	Alarm string
	Props [3]views.Prop
}

// Prediction is a question the story asks before its decisive move.
type Prediction struct {
	// Before lists the timeline labels of the move the question comes
	// before (the first in the schedule that matches).
	Before []string
	// Answer is the choice (0-based) the real replies made true, read once
	// the move has run; -1 when they make none of them true.
	Answer func(v View) int
}

// before is the prediction asked before the move labelled label (or any
// of more labels), answered by answer.
func before(answer func(View) int, labels ...string) *Prediction {
	return &Prediction{Before: labels, Answer: answer}
}

// answerOf reads a prediction's answer from the ledger: the reading of
// actor's latest op, as the index of whats it matches; otherwise when it
// matches none, -1 when the actor sent no such op.
func answerOf(actor string, op sim.OpKind, otherwise int, whats ...ledger.What) func(View) int {
	return func(v View) int {
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

// asks reports that the scene puts questions to the learner: a prediction
// at its decisive point, or a whole quiz.
func (s *Scene) asks() bool { return s.Predict != nil || s.Kind == Quiz }

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

// predictAt is the schedule position the prediction stops before, -1 if
// the schedule has no such move.
func (s *Scene) predictAt(labels []string) int {
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

// variants is Variants, or every combination of the knobs' values.
func (s *Scene) variants() []Params {
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
	return out
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

// fold reads a snapshot into the ledger.
func fold(s sim.Snapshot) *ledger.Ledger { return ledger.Fold(s.Events, s.Now, s.Keys) }

// explain is the one reading every scene shares: cards from the ledger's
// beliefs, the readout of the selected actor (else the actor of the latest
// step, else the clock), the alarm naming the first violation, and the
// scoreboard; the scene adds its verdict line and its slots.
func explain(sc *Scene, v View) Explanation {
	if v.L == nil {
		v.L = fold(v.Snap)
	}
	said := Said{Tone: views.Good, Vars: map[string]string{}}
	if sc.Say != nil {
		sc.Say(v, &said)
	}
	r := reader{v: v, vars: said.Vars, value: said.Value, marks: said.Marks, cards: said.Cards}
	ex := Explanation{Verdict: said.Verdict, VerdictTone: said.Tone}
	for _, a := range v.Snap.Actors {
		c, own := said.OwnCards[a.Name]
		if !own {
			c = r.card(a)
		}
		c.Name = a.Name
		ex.Cards = append(ex.Cards, c)
	}
	ex.Readout = r.readout()
	ex.Alarm = r.alarm()
	if ex.Alarm != "" {
		ex.VerdictTone = views.Bad
	}
	if len(v.Snap.Events) > 0 {
		for i, p := range v.L.Properties(sc.Kind != Quiz && !sc.Distributed) {
			ex.Props[i] = views.Prop(p)
		}
	} else if sc.Kind != Quiz && !sc.Distributed {
		// one Redis has no fault tolerance before any command as after
		ex.Props[2] = views.Absent
	}
	return ex
}

// reader turns the ledger into sentences of the course text.
type reader struct {
	v     View
	vars  map[string]string // the scene's own slots
	value string            // the constant actors write, if any
	marks map[string]string // a note after an actor's token on its card
	cards map[string]string // the scene's own first card lines
}

func (r reader) fill(section string, vars map[string]string) string {
	all := map[string]string{}
	for k, v := range r.vars {
		all[k] = v
	}
	for k, v := range vars {
		all[k] = v
	}
	return r.v.Text.Fill(section, all)
}

func stamp(d time.Duration) string { return "+" + sim.FormatDuration(d) }

// short abbreviates a token for the screen: its first 8 hex digits and "…".
func short(token string) string { return shortN(token, 8) }

// shortN abbreviates a token to its first n hex digits and "…".
func shortN(token string, n int) string {
	if len(token) <= n+1 {
		return token
	}
	return token[:n] + "…"
}

// shortenTokens abbreviates every actor token inside s to 8 hex digits.
func shortenTokens(s string, actors []sim.Actor, events []sim.Event) string {
	return shortenTokensN(s, actors, events, 8)
}

// shortenTokensN abbreviates every actor token inside s to n hex digits: a
// wide terminal shows them longer.
func shortenTokensN(s string, actors []sim.Actor, events []sim.Event, n int) string {
	for _, e := range events {
		if e.Op != nil && e.Op.Token != "" && len(e.Op.Token) > n+1 {
			s = strings.ReplaceAll(s, e.Op.Token, shortN(e.Op.Token, n))
		}
	}
	for _, a := range actors {
		if a.Token != "" {
			s = strings.ReplaceAll(s, a.Token, shortN(a.Token, n))
		}
	}
	return s
}

// keyName is a key as the text names it: without the run's prefix.
func (r reader) keyName(key string) string {
	return strings.TrimPrefix(key, r.v.Snap.Prefix)
}

// wire is a story duration as the milliseconds sent on the wire.
func (r reader) wire(d time.Duration) string {
	return itoa((d / time.Duration(max(r.v.Snap.Scale, 1))).Milliseconds())
}

// actor returns the named actor of the snapshot.
func (r reader) actor(name string) (sim.Actor, bool) {
	for _, a := range r.v.Snap.Actors {
		if a.Name == name {
			return a, true
		}
	}
	return sim.Actor{}, false
}

// latest is the actor's latest event the ledger read as something, and its
// reading. A note (a step skipped) does not hide the lease of an actor that
// still acts as holder.
func (r reader) latest(name string) (sim.Event, ledger.Read, bool) {
	ev := r.v.Snap.Events
	holds := r.v.L.Belief(name).Holds
	for i := len(ev) - 1; i >= 0; i-- {
		what := r.v.L.Reads[i].What
		if ev[i].Actor == name && ev[i].Move >= 0 && what != ledger.Nothing && !(holds && what == ledger.Noted) {
			if j := r.countBefore(i); j >= 0 {
				return ev[j], r.v.L.Reads[j], true
			}
			return ev[i], r.v.L.Reads[i], true
		}
	}
	return sim.Event{}, ledger.Read{}, false
}

// countBefore is the Redlock count that a failed acquire's releases at
// event i follow in the same step, -1 if none: the count is what the step
// decided, the releases only its consequence.
func (r reader) countBefore(i int) int {
	ev := r.v.Snap.Events
	if !releasePart(ev[i]) {
		return -1
	}
	for j := i - 1; j >= 0 && ev[j].Move == ev[i].Move; j-- {
		switch {
		case ev[j].Actor != ev[i].Actor:
			// the clock's waits for a silent node sit between the shares
		case r.v.L.Reads[j].What == ledger.QuorumMissed:
			return j
		case !releasePart(ev[j]):
			return -1
		}
	}
	return -1
}

// releasePart reports that e is one node's share of a distributed release.
func releasePart(e sim.Event) bool {
	return e.Op != nil && e.Op.Part && e.Op.Kind == sim.OpRelease
}

// releaseRound sums up a distributed release the actor sent to every node
// in the step of event i: each node's reply as the ledger read it. ok is
// false when the step sent no more than one node's share.
func (r reader) releaseRound(i int, vars map[string]string) (string, bool) {
	ev := r.v.Snap.Events
	var parts []string
	failed := false
	for j, e := range ev {
		if e.Move != ev[i].Move || e.Actor != ev[i].Actor || !releasePart(e) {
			continue
		}
		what := r.v.L.Reads[j].What
		failed = failed || what == ledger.NodeFailed
		parts = append(parts, r.fill("round-"+string(what), map[string]string{"node": e.Node}))
	}
	if len(parts) < 2 {
		return "", false
	}
	vars["round"] = strings.Join(parts, "; ")
	vars["of"] = itoa(int64(len(parts)))
	if failed {
		return r.fill("node-rel-round-failed", vars), true
	}
	return r.fill("node-rel-round", vars), true
}

// leaseVars are the slots a lease fills: when it was granted, its TTL as
// sent, when it ends, its fencing token.
func (r reader) leaseVars(ls *ledger.Lease, vars map[string]string) {
	if ls == nil {
		return
	}
	vars["granted"] = stamp(ls.Granted)
	vars["px"] = r.wire(ls.TTL)
	vars["ms"] = itoa(ls.TTL.Milliseconds())
	vars["lease"] = vars["ms"] + " ms lease"
	if r.v.Snap.Live {
		vars["lease"] += " (sent as PX " + vars["px"] + ")"
	}
	vars["ends"] = stamp(ls.Ends())
	vars["fence"] = itoa(ls.Fence)
	vars["key"] = r.keyName(ls.Key)
	vars["lock"] = r.keyName(ls.Lock)
	vars["endat"] = stamp(ls.EndAt)
	vars["by"] = byWhom(ls.By)
}

// why says how a lease stopped holding its key, for "... because {why}".
func (r reader) why(ls *ledger.Lease) string {
	if ls == nil {
		return ""
	}
	vars := map[string]string{"actor": ls.Actor}
	r.leaseVars(ls, vars)
	switch ls.End {
	case ledger.Lapsed:
		return r.fill("why-lapsed", vars)
	case ledger.Deleted:
		return r.fill("why-deleted", vars)
	case ledger.Overwritten:
		return r.fill("why-overwritten", vars)
	case ledger.Released:
		return r.fill("why-released", vars)
	case ledger.Vanished:
		if !ls.Expires() {
			return r.fill("why-vanished-nottl", vars)
		}
		return r.fill("why-vanished", vars)
	}
	return r.fill("why-open", vars)
}

// keyNow says what a key holds now, as read back.
func (r reader) keyNow(k ledger.KeyRead) string {
	if k.Node != "" {
		return r.nodeNow(k)
	}
	vars := map[string]string{"key": r.keyName(k.Name), "pttl": r.storyPTTL(k.PTTL), "value": strconv.Quote(k.Value)}
	switch {
	case !k.Exists():
		return r.fill("key-gone", vars)
	case !r.v.L.IsLockKey(k.Name):
		return r.fill("key-value", vars) // a counter, not a lock
	case k.Lease == nil:
		return r.fill("key-other", vars)
	case k.PTTL == -1:
		vars["holder"] = k.Lease.Actor
		return r.fill("key-nottl", vars)
	}
	vars["holder"] = k.Lease.Actor
	return r.fill("key-ttl", vars)
}

// nodeNow says in a few words what one node of a distributed story holds.
func (r reader) nodeNow(k ledger.KeyRead) string {
	vars := map[string]string{"node": k.Node, "pttl": r.storyPTTL(k.PTTL)}
	switch {
	case k.Down:
		return r.fill("node-down-now", vars)
	case !k.Exists():
		return r.fill("node-gone-now", vars)
	case k.Lease != nil:
		vars["holder"] = k.Lease.Actor
		return r.fill("node-holds-now", vars)
	}
	// a value no lease of the fold wrote: a slow node's SET the client
	// never heard back from still carries its sender's token
	for _, e := range r.v.Snap.Events {
		if e.Op != nil && e.Op.Token == k.Value && e.Actor != "" {
			vars["holder"] = e.Actor
			return r.fill("node-holds-now", vars)
		}
	}
	return r.fill("node-other-now", vars)
}

// byWhom names who ended a lease: an actor, or a client outside the run.
func byWhom(by string) string {
	if by == "" {
		return "a client outside the run"
	}
	return by
}

// endedAt is when a lease stopped holding its key: its TTL's end, or
// earlier when a reply showed it gone sooner (a live server's clock).
func endedAt(ls *ledger.Lease) time.Duration {
	if ls.End != ledger.Open && ls.EndAt > 0 && ls.EndAt < ls.Ends() {
		return ls.EndAt
	}
	return ls.Ends()
}

// storyPTTL is a PTTL read back, in story milliseconds: on a live server
// the wire's milliseconds times the scale. -1 and -2 stay as they are.
func (r reader) storyPTTL(pttl int64) string { return itoa(r.v.storyMS(pttl)) }

// storyMS is a PTTL read back in story milliseconds: the wire's times the
// scale on a live server; -1 and -2 as they are.
func (v View) storyMS(pttl int64) int64 {
	if pttl < 0 {
		return pttl
	}
	return pttl * int64(max(v.Snap.Scale, 1))
}

// keyOf is the key read back that a lease's key names, if it was read.
func (r reader) keyOf(key string) (ledger.KeyRead, bool) {
	for _, k := range r.v.L.Keys {
		if k.Name == key {
			return k, true
		}
	}
	return ledger.KeyRead{}, false
}

// card is an actor's box: its token (or fencing token, or the constant it
// writes), then what it believes against what the key says.
func (r reader) card(a sim.Actor) views.Card {
	b := r.v.L.Belief(a.Name)
	first := "token " + short(a.Token)
	switch {
	case b.Fence > 0:
		first = "fence " + itoa(b.Fence)
	case b.Lease != nil && b.Lease.Fixed:
		first = `value "` + b.Lease.Token + `"`
	case r.value != "":
		first = `value "` + r.value + `"`
	}
	if m := r.marks[a.Name]; m != "" {
		first += " · " + m
	}
	if own, ok := r.cards[a.Name]; ok {
		first = own
	}
	line, tone := r.state(a, b)
	return views.Card{Name: a.Name, Lines: []string{first, line}, Tone: tone}
}

func (r reader) state(a sim.Actor, b ledger.Belief) (string, views.Tone) {
	switch {
	case a.Status == sim.Crashed && b.KeyHolds && !b.Lease.Expires():
		return "crashed · no TTL", views.Bad
	case a.Status == sim.Crashed && b.KeyHolds:
		return "crashed holding", views.Warn
	case a.Status == sim.Crashed:
		return "crashed", views.Bad
	case a.Status == sim.Paused:
		return "FROZEN · paused", views.Warn
	case b.Holds && b.KeyHolds && !b.Lease.Expires():
		return "holder · no TTL", views.Warn
	case b.Holds && b.KeyHolds:
		return "OK · holder", views.Good
	case b.Holds:
		return "thinks holder ✗", views.Bad
	}
	e, rd, ok := r.latest(a.Name)
	if !ok {
		return "waiting", views.Dim
	}
	switch rd.What {
	case ledger.Refused:
		if rd.Refusal.Stuck {
			return "refused · stuck", views.Bad
		}
		return e.Reply + " · refused", views.Warn
	case ledger.ReleasedOwn:
		return "released · " + strings.TrimPrefix(e.Reply, "(integer) "), views.Good
	case ledger.RelNotHeld, ledger.RelNoLock:
		return "unlock refused", views.Warn
	case ledger.DeletedOther:
		return "deleted " + rd.Other + "'s key", views.Bad
	case ledger.DelNothing:
		return "DEL → 0", views.Plain
	case ledger.RelTaken:
		return "release → 0", views.Good
	case ledger.RelGone:
		return "release → -1", views.Good
	case ledger.ExtTaken:
		return "extend → 0", views.Warn
	case ledger.ExtGone:
		return "extend → -1", views.Warn
	case ledger.FencedNo:
		return "write REFUSED", views.Bad
	case ledger.WroteLate:
		return "late write taken", views.Bad
	case ledger.WroteHolder, ledger.FencedOK:
		return "write accepted", views.Good
	case ledger.UnknownOut:
		return "outcome unknown", views.Warn
	case ledger.NodeGranted:
		return "OK from " + e.Node, views.Good
	case ledger.NodeLate:
		return "late OK on " + e.Node, views.Bad
	case ledger.NodeRefused:
		return "(nil) from " + e.Node, views.Warn
	case ledger.NodeFailed:
		if e.Op.Kind == sim.OpRelease {
			return "released · " + e.Node + " failed", views.Plain
		}
		return e.Node + " failed", views.Warn
	case ledger.QuorumHeld:
		return "validity over", views.Plain // its hold ended: it stopped acting
	case ledger.Noted:
		if e.Step == "begin" {
			return "clock read: t0", views.Plain
		}
		return "done", views.Dim
	case ledger.NodeReleased, ledger.NodeRelTaken, ledger.NodeRelGone:
		return "released on " + e.Node, views.Plain
	case ledger.QuorumMissed:
		return "no lock: " + itoa(int64(e.Op.Votes)) + "/" + itoa(int64(e.Op.Of)), views.Warn
	case ledger.ClaimEmpty:
		return "nothing pending", views.Plain
	case ledger.Reaped:
		if len(rd.Reaped) == 1 {
			return "took back 1 job", views.Plain
		}
		return "took back " + itoa(int64(len(rd.Reaped))) + " jobs", views.Plain
	case ledger.Completed:
		return "completed (1)", views.Good
	case ledger.CompleteStale:
		return "refused (0)", views.Warn
	case ledger.CompleteGone:
		return "too late (-1)", views.Warn
	}
	return shortenTokens(e.Reply, r.v.Snap.Actors, r.v.Snap.Events), toneOf(e)
}

// toneOf colours a reply: grants and 1 good, refusals warn, errors bad.
func toneOf(e sim.Event) views.Tone {
	n, isInt := e.Int()
	switch {
	case e.IsOK(), isInt && n == 1:
		return views.Good
	case e.IsNil(), isInt && n == 0:
		return views.Warn
	case e.ErrorReply(), e.Unknown():
		return views.Bad
	}
	return views.Plain
}

// readout explains the selected actor, else the actor of the latest step,
// else the clock.
func (r reader) readout() string {
	s := r.v.Snap
	var story []sim.Event
	for _, e := range s.Events {
		if e.Move >= 0 {
			story = append(story, e)
		}
	}
	if len(story) == 0 {
		return r.fill("start", nil)
	}
	if r.v.Sel >= 0 && r.v.Sel < len(s.Actors) {
		return r.about(s.Actors[r.v.Sel].Name)
	}
	if r.v.Text.Has("idle") {
		return r.fill("idle", nil) // a race: nobody selected yet
	}
	// the step's own actor, even when the step ended with the time its
	// client waited for a node that did not answer
	last := story[len(story)-1]
	if last.Kind != sim.Clock && last.Actor != "" {
		return r.about(last.Actor)
	}
	// (a timer's command while time passes is not the step's own: the
	// clock then says what the time did to every key)
	for i := len(story) - 1; i >= 0 && story[i].Move == last.Move; i-- {
		if story[i].Kind != sim.Clock && story[i].Actor != "" && !story[i].Timed {
			return r.about(story[i].Actor)
		}
	}
	return r.clock()
}

// clock says what the passing time did to each key read back, and who,
// frozen, still believes in a lease that is gone.
func (r reader) clock() string {
	var parts []string
	for _, k := range r.v.L.Keys {
		if k.Node != "" {
			parts = append(parts, r.nodeNow(k))
			continue
		}
		parts = append(parts, r.keyNow(k))
	}
	out := r.fill("clock", map[string]string{"now": stamp(r.v.Snap.Now), "keys": strings.Join(parts, "; ")})
	for _, a := range r.v.Snap.Actors {
		if b := r.v.L.Belief(a.Name); a.Status == sim.Paused && b.Holds && !b.KeyHolds {
			out += " " + r.fill("clock-frozen", map[string]string{"actor": a.Name, "why": r.why(b.Lease)})
		}
	}
	return out
}

// about explains where one actor stands: its latest step as the ledger
// read it, or its state when that says more (crashed, frozen, believing
// in a lease the key no longer holds).
func (r reader) about(name string) string {
	a, _ := r.actor(name)
	b := r.v.L.Belief(name)
	vars := map[string]string{"actor": name, "now": stamp(r.v.Snap.Now)}
	r.leaseVars(b.Lease, vars)
	if k, ok := r.keyOfActor(b); ok {
		vars["keynow"] = r.keyNow(k)
		vars["pttl"] = r.storyPTTL(k.PTTL)
	}
	switch a.Status {
	case sim.Crashed:
		switch {
		case b.KeyHolds && !b.Lease.Expires():
			return r.fill("crashed-stuck", vars)
		case b.KeyHolds:
			return r.fill("crashed-holding", vars)
		}
		return r.fill("crashed", vars)
	case sim.Paused:
		if b.Holds && !b.KeyHolds {
			vars["why"] = r.why(b.Lease)
			return r.fill("paused-lost", vars)
		}
		switch {
		case b.Holds && !b.Lease.Expires():
			return r.fill("paused-holding-nottl", vars)
		case b.Holds:
			return r.fill("paused-holding", vars)
		}
		return r.fill("paused", vars)
	}
	e, rd, ok := r.latest(name)
	if !ok && r.v.Snap.Pos > 0 && r.v.Snap.Pos == len(r.v.Snap.Moves) {
		return r.fill("idle-end", vars)
	}
	if !ok {
		return r.fill("waiting", vars)
	}
	vars["at"] = stamp(e.At)
	vars["reply"] = shortenTokens(e.Reply, r.v.Snap.Actors, r.v.Snap.Events)
	vars["cmd"] = ""
	if len(e.Args) > 0 {
		vars["cmd"] = e.Args[0]
	}
	vars["other"] = rd.Other
	// the lease the event concerns, when it is the actor's own (a release
	// or extension may carry the token of an earlier acquisition)
	concern := b.Lease
	if rd.Lease != nil && rd.Lease.Actor == name {
		concern = rd.Lease
		r.leaseVars(concern, vars)
	}
	vars["why"] = r.why(concern)
	switch rd.What {
	case ledger.TTLSet, ledger.Extended, ledger.Noted, ledger.CheckOwn, ledger.Reentered, ledger.RelKept:
		if b.Holds && !b.KeyHolds && b.Lease != nil && b.Lease.Seq < len(r.v.Snap.Events) {
			// the step is long past: what matters now is the lost lease
			vars["reply"] = shortenTokens(r.v.Snap.Events[b.Lease.Seq].Reply, r.v.Snap.Actors, r.v.Snap.Events)
			return r.fill("holds-lost", vars)
		}
	}
	vars["node"] = e.Node
	if e.Op != nil && e.Op.Of > 0 {
		vars["votes"], vars["of"] = itoa(int64(e.Op.Votes)), itoa(int64(e.Op.Of))
		vars["need"] = itoa(int64(sim.Quorum(e.Op.Of)))
		vars["validity"] = itoa(e.Op.TTL.Milliseconds()) + " ms"
		if e.Op.TTL <= 0 {
			vars["validity"] = itoa(-e.Op.TTL.Milliseconds()) + " ms short"
		}
		vars["spent"] = itoa(e.Op.Spent.Milliseconds()) + " ms"
	}
	switch rd.What {
	case ledger.Granted, ledger.QuorumHeld:
		switch {
		case rd.What == ledger.QuorumHeld && rd.Overlap == nil && b.Holds && !b.KeyHolds:
			return r.fill("quorum-held-lost", vars)
		case rd.What == ledger.QuorumHeld && rd.Overlap == nil:
			return r.fill("quorum-held", vars)
		case rd.What == ledger.Granted && b.Holds && !b.KeyHolds:
			return r.fill("holds-lost", vars)
		case rd.Overlap != nil:
			o := rd.Overlap
			vars["other"] = o.First.Actor
			vars["by"] = byWhom(o.By)
			vars["oends"] = stamp(endedAt(o.First.Lease))
			vars["okey"] = r.keyName(o.First.Lease.Key)
			if o.Uncopied {
				vars["onode"] = o.First.Lease.Node
				return r.fill("granted-over-uncopied", vars)
			}
			return r.fill("granted-over-"+o.Cause.String(), vars)
		case rd.Replaced != nil:
			return r.fill("granted-overwrote", vars)
		}
		switch rd.Lease.Form {
		case sim.FormSETNX:
			return r.fill("granted-setnx", vars)
		case sim.FormFenced:
			return r.fill("granted-fenced", vars)
		}
		if !rd.Lease.Expires() {
			return r.fill("granted-nottl", vars)
		}
		return r.fill("granted", vars)
	case ledger.Refused:
		rf := rd.Refusal
		switch {
		case rf.Stuck:
			return r.fill("refused-stuck", vars)
		case rf.Blocker == nil:
			return r.fill("refused-unknown", vars)
		case !rf.Blocker.Expires():
			return r.fill("refused-nottl", vars)
		}
		return r.fill("refused", vars)
	case ledger.WroteHolder, ledger.WroteLate, ledger.FencedOK, ledger.FencedNo,
		ledger.Completed, ledger.CompleteStale, ledger.CompleteGone:
		w := rd.Write
		vars["fence"], vars["seen"] = itoa(w.Token), itoa(w.Seen)
		section := string(rd.What)
		if rd.What == ledger.FencedOK && w.Seen == 0 {
			section = "fenced-first"
		}
		return r.fill(section, vars)
	case ledger.Noted:
		vars["note"] = e.Note
		return r.fill("note", vars)
	case ledger.QuorumMissed:
		if e.Op.Votes >= sim.Quorum(e.Op.Of) {
			return r.fill("quorum-late", vars) // a majority, but no time left
		}
	case ledger.NodeRefused:
		if rd.Other == "" {
			return r.fill("node-refused-unknown", vars)
		}
	case ledger.NodeFailed, ledger.NodeReleased, ledger.NodeRelTaken, ledger.NodeRelGone:
		if !releasePart(e) {
			break
		}
		if out, ok := r.releaseRound(r.index(e), vars); ok {
			return out
		}
		if rd.What == ledger.NodeFailed {
			return r.fill("node-rel-failed", vars)
		}
	case ledger.TTLSet:
		if rd.Other != "" {
			return r.fill("ttl-set-other", vars)
		}
	case ledger.DeletedOther:
		if rd.Refusal != nil {
			// it never held the lock: a release in a finally block
			vars["refusedat"] = stamp(rd.Refusal.At)
			return r.fill("deleted-other-refused", vars)
		}
		switch e.Op.Form {
		case sim.FormGetDel:
			return r.fill("deleted-other-getdel", vars)
		case sim.FormScript:
			return r.fill("deleted-other-script", vars)
		}
	}
	section := string(rd.What)
	if rd.What == ledger.ExtGone && rd.Why == ledger.Vanished {
		// gone before its end: no expiry, and no lateness, explains it
		section = "ext-gone-vanished"
	}
	// a command a timer sent (a watchdog's renewal) reads from the scene's
	// "timer-" section when it has one
	if e.Timed && r.v.Text.Has("timer-"+section) {
		return r.fill("timer-"+section, vars)
	}
	return r.fill(section, vars)
}

// index is the position of e among the snapshot's events.
func (r reader) index(e sim.Event) int {
	for i, x := range r.v.Snap.Events {
		if x.Seq == e.Seq {
			return i
		}
	}
	return len(r.v.Snap.Events) - 1
}

// keyOfActor is the key read back that the actor's latest lease was on.
func (r reader) keyOfActor(b ledger.Belief) (ledger.KeyRead, bool) {
	if b.Lease != nil && b.Lease.Node != sim.LockNode && b.Lease.Node != ledger.QuorumNode {
		for _, k := range r.v.L.Keys {
			if k.Name == b.Lease.Key && k.Node == b.Lease.Node {
				return k, true
			}
		}
	}
	if b.Lease != nil {
		return r.keyOf(b.Lease.Key)
	}
	if len(r.v.L.Keys) > 0 {
		return r.v.L.Keys[0], true
	}
	return ledger.KeyRead{}, false
}

// alarm names the violation the ledger found: the first overlap of two
// holders (mutual exclusion stays broken from that moment), else a key
// with no TTL blocking a contender after its holder crashed. Each later
// overlap is named by the readout of the grant that started it.
func (r reader) alarm() string {
	l := r.v.L
	if o := l.FirstOverlap(); o != nil {
		vars := map[string]string{"first": o.First.Actor, "second": o.Second.Actor, "from": stamp(o.FromAt),
			"by": byWhom(o.By), "lock": r.keyName(o.Lock)}
		out := r.fill("alarm-"+o.Cause.String(), vars)
		if n := len(l.Overlaps) - 1; n > 0 {
			out += " " + r.fill("alarm-more", map[string]string{"n": strconv.Itoa(n)})
		}
		return out
	}
	if st := l.Stuck(); len(st) > 0 {
		return r.fill("alarm-stuck", map[string]string{"holder": st[0].Blocker.Actor, "blocked": st[0].Actor,
			"key": r.keyName(st[0].Key)})
	}
	return ""
}

// knobDuration reads a knob whose values are durations, spaced as the
// screen spaces units ("35 s").
func knobDuration(s *Scene, p Params, name string) time.Duration {
	d, _ := time.ParseDuration(strings.ReplaceAll(s.Value(p, name), " ", ""))
	return d
}

// secs prints a story duration in whole seconds, as the knobs name them.
func secs(d time.Duration) string { return itoa(int64(d/time.Second)) + " s" }
