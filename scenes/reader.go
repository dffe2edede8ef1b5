package scenes

import (
	"strconv"
	"strings"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// Fold reads a snapshot into the ledger.
func Fold(s sim.Snapshot) *ledger.Ledger { return ledger.FoldSnapshot(s) }

// Explain is the one reading every scene shares: cards from the ledger's
// beliefs, the readout of the selected actor (else the actor of the latest
// step, else the clock), the alarm naming the first violation, and the
// scoreboard; the scene adds its verdict line and its slots.
func Explain(sc *Scene, v Frame) Explanation {
	if v.L == nil {
		v.L = Fold(v.Snap)
	}
	said := Said{Tone: say.Good, Vars: map[string]string{}}
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
		ex.VerdictTone = say.Bad
	}
	if len(v.Snap.Events) > 0 {
		for i, p := range v.L.Properties(sc.Kind != Quiz && !sc.Distributed) {
			ex.Props[i] = propOf(p)
		}
	} else if sc.Kind != Quiz && !sc.Distributed {
		// one Redis has no fault tolerance before any command as after
		ex.Props[2] = say.Absent
	}
	for i, b := range said.Broken {
		if b {
			ex.Props[i] = say.Broken
		}
	}
	return ex
}

// propOf is the scoreboard's mark for the ledger's verdict on one
// property. The two enums are mapped by name, never by integer value, so
// reordering either cannot change what the scoreboard shows; a verdict not
// named here shows as untested.
func propOf(v ledger.Verdict) say.Prop {
	switch v {
	case ledger.Held:
		return say.Held
	case ledger.Broken:
		return say.Broken
	case ledger.Absent:
		return say.Absent
	default:
		return say.Untested
	}
}

// reader turns the ledger into sentences of the course text.
type reader struct {
	v     Frame
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

func Stamp(d time.Duration) string { return "+" + sim.FormatDuration(d) }

// ShortToken abbreviates a token for the screen: its first 8 hex digits and "…".
func ShortToken(token string) string { return shortN(token, 8) }

// shortN abbreviates a token to its first n hex digits and "…".
func shortN(token string, n int) string {
	if len(token) <= n+1 {
		return token
	}
	return token[:n] + "…"
}

// ShortenTokens abbreviates every actor token inside s to 8 hex digits.
func ShortenTokens(s string, actors []sim.Actor, events []sim.Event) string {
	return ShortenTokensN(s, actors, events, 8)
}

// ShortenTokensN abbreviates every actor token inside s to n hex digits: a
// wide terminal shows them longer.
func ShortenTokensN(s string, actors []sim.Actor, events []sim.Event, n int) string {
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
	if strings.Contains(s, "….") {
		// a token that ended a sentence, cut short: the ellipsis ends it
		s = strings.ReplaceAll(s, "….", "…")
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

// lastSent is the latest command of the story that name sent, whatever
// the ledger read in it.
func (r reader) lastSent(name string) (sim.Event, bool) {
	ev := r.v.Snap.Events
	for i := len(ev) - 1; i >= 0; i-- {
		if ev[i].Actor == name && ev[i].Move >= 0 && ev[i].Kind == sim.Command && len(ev[i].Args) > 0 {
			return ev[i], true
		}
	}
	return sim.Event{}, false
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
		if why, ok := notSentWhy(e); ok {
			// as the log has it: the command never left the client
			parts = append(parts, r.fill("round-not-sent", map[string]string{"node": e.Node, "why": why}))
			continue
		}
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
	vars["granted"] = Stamp(ls.Granted)
	vars["px"] = r.wire(ls.TTL)
	vars["ms"] = itoa(ls.TTL.Milliseconds())
	vars["lease"] = vars["ms"] + " ms lease"
	if r.v.Snap.Live {
		vars["lease"] += " (sent as PX " + vars["px"] + ")"
	}
	vars["ends"] = Stamp(ls.Ends())
	vars["fence"] = itoa(ls.Fence)
	vars["key"] = r.keyName(ls.Key)
	vars["lock"] = r.keyName(ls.Lock)
	vars["endat"] = Stamp(ls.EndAt)
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
		return r.fill(r.lapsedSection("why-lapsed", ls, vars), vars)
	case ledger.Deleted:
		return r.fill("why-deleted", vars)
	case ledger.Overwritten:
		if ls.By == "" {
			return r.fill(r.maybe("why-replaced", ls, vars), vars)
		}
		if r.endedBy(ls, sim.FormSetIfne) {
			return r.fill("why-overwritten-ifne", vars)
		}
		return r.fill("why-overwritten", vars)
	case ledger.Released:
		return r.fill("why-released", vars)
	case ledger.Restarted:
		if !ls.Expires() {
			return r.fill("why-restarted-nottl", vars)
		}
		vars["left"] = sim.FormatSpan(ls.Ends() - ls.EndAt)
		return r.fill("why-restarted", vars)
	case ledger.Vanished:
		if !ls.Expires() {
			return r.fill("why-vanished-nottl", vars)
		}
		return r.fill("why-vanished", vars)
	}
	return r.fill("why-open", vars)
}

// lapsedSection is the section that tells lease ls's lapse, from base
// ("why-lapsed", "granted-over-lapsed", "alarm-lapsed"): suffixed with why
// the ledger says it was not renewed, when the text has that section
// (the renewals refused with BUSY, a holder frozen with its watchdog).
// It sets {code} to the error the first refused renewal got.
func (r reader) lapsedSection(base string, ls *ledger.Lease, vars map[string]string) string {
	if j := r.v.L.JumpedBy(ls); j > 0 && r.v.Text.Has(base+"-jumped") {
		// it ran out on its node's clock, which jumped ahead of the story's
		vars["jump"] = sim.FormatSpan(j)
		return base + "-jumped"
	}
	why, first := r.v.L.WhyUnrenewed(ls)
	if why == ledger.NotRenewed || !r.v.Text.Has(base+"-"+why.String()) {
		return base
	}
	if code := ledger.ErrorCode(first); code != "" {
		vars["code"] = code
	}
	return base + "-" + why.String()
}

// maybe is section, or its "-maybe" form when a command of another
// actor's on ls's key got no reply and may be what replaced ls's value:
// then the story cannot say a client outside it did. It sets {maybe} and
// {maybeat} to that command's sender and time.
func (r reader) maybe(section string, ls *ledger.Lease, vars map[string]string) string {
	e, ok := r.v.L.MaybeBy(ls)
	if !ok || !r.v.Text.Has(section+"-maybe") {
		return section
	}
	vars["maybe"], vars["maybeat"] = e.Actor, Stamp(e.At)
	return section + "-maybe"
}

// extFailed is the section for an extension e answered with an error:
// BUSY, NOSCRIPT and LOADING come before the script runs, so it moved
// nothing; an error raised inside the script leaves what the script did
// before it (Redis does not roll a script back). It sets {leaseend} in the
// tense of e's time: the lease ls still runs, or had already run out.
func (r reader) extFailed(e sim.Event, ls *ledger.Lease, vars map[string]string) string {
	vars["leaseend"] = ""
	if ls != nil {
		end := "lease-ends"
		if ls.Expires() && ls.Ends() < e.At || ls.End != ledger.Open && ls.EndAt <= e.At {
			end = "lease-ended"
		}
		vars["leaseend"] = r.fill(end, vars)
	}
	switch ledger.ErrorCode(e) {
	case "BUSY", "NOSCRIPT", "LOADING":
		return string(ledger.ExtFailed)
	}
	return string(ledger.ExtFailed) + "-inside"
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
func (v Frame) storyMS(pttl int64) int64 {
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

// index is the position of e among the snapshot's events.
func (r reader) index(e sim.Event) int {
	for i, x := range r.v.Snap.Events {
		if x.Seq == e.Seq {
			return i
		}
	}
	return len(r.v.Snap.Events) - 1
}

// endedBy reports whether the command that ended ls was a lock operation of
// the given form (a SET IFNE overwrites for its own reason, not NX's absence).
func (r reader) endedBy(ls *ledger.Lease, form string) bool {
	for _, e := range r.v.Snap.Events {
		if e.Seq == ls.EndSeq && ls.EndSeq >= 0 {
			return e.Op != nil && e.Op.Form == form
		}
	}
	return false
}
