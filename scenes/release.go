package scenes

import (
	"strings"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/views"
)

// The release scene's methods, as the m knob names them.
const (
	relBlind  = "blind DEL"
	relGetDel = "GET then DEL"
	relScript = "script"
)

// The o knob: does another client take the lock once A's lease lapses?
const (
	relRival  = "B takes it"
	relNobody = "nobody takes it"
)

// relLockKey is the lock every story scene contends for.
const relLockKey = "resource:lock"

// releaseScene is scene 5: what a release must check, shown by the three
// ways of releasing after A's lease lapsed during its work.
func releaseScene() *Scene {
	s := &Scene{
		ID: "release", Dive: "lesson · release", Title: "Whose lock are you deleting?",
	}
	s.Knobs = []Knob{
		{Key: "m", Name: "release", Values: []string{relBlind, relGetDel, relScript}},
		{Key: "o", Name: "lapsed lock", Values: []string{relRival, relNobody}},
	}
	s.Scheduler = true
	s.Wait = 5 * time.Second
	s.Build = func(p Params) sim.Script {
		return buildRelease(s.Value(p, "release"), s.Value(p, "lapsed lock") == relRival)
	}
	s.Explain = func(v View) Explanation { return explainRelease(s, v) }
	s.Variants = []Params{
		{"release": 0}, {"release": 1}, {"release": 2},
		{"release": 2, "lapsed lock": 1},
	}
	return s
}

// storyStep is a step of actor's program with a label for the timeline.
func storyStep(actor, label string) sim.Move {
	m := sim.StepOf(actor)
	m.Label = label
	return m
}

// storyAcquire is the course's acquire: SET resource:lock <token> NX PX ttl.
// The actor believes what the reply says. With fence, a granted lock also
// takes a fencing token from INCR on resource:fence.
func storyAcquire(ttl time.Duration, fence bool) sim.Step {
	return sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		r := x.Do("SET", x.Key(relLockKey), x.Actor().Token, "NX", "PX", x.TTL(ttl))
		if !r.OK() {
			x.Actor().Vars["holds"] = "no"
			return
		}
		x.Actor().Vars["holds"] = "yes"
		if fence {
			if n, ok := x.Do("INCR", x.Key(fenceKey)).Int(); ok {
				x.Actor().Vars["fence"] = itoa(n)
			}
		}
	}}
}

// storyRelease is the compare-and-delete release. When it answers 0 the
// actor asks GET who, if anyone, has the key now: a library should say
// "expired" and "held by someone else" apart.
func storyRelease(diagnose bool) sim.Step {
	return sim.Step{Label: "release", Run: func(x *sim.Exec) {
		a := x.Actor()
		if a.Vars["holds"] != "yes" {
			x.Note(a.Name + " holds no lock: nothing to release")
			return
		}
		key := x.Key(relLockKey)
		r := x.Eval(sim.ReleaseLua, []string{key}, a.Token)
		a.Vars["holds"] = "no"
		if n, ok := r.Int(); ok && n == 0 && diagnose {
			x.Do("GET", key)
		}
	}}
}

func releaseProgram(method string) []sim.Step {
	prog := []sim.Step{storyAcquire(lease, false)}
	switch method {
	case relBlind:
		prog = append(prog, sim.Step{Label: "release", Run: func(x *sim.Exec) {
			a := x.Actor()
			if a.Vars["holds"] != "yes" {
				x.Note(a.Name + " holds no lock: nothing to release")
				return
			}
			x.Do("DEL", x.Key(relLockKey))
			a.Vars["holds"] = "no"
		}})
	case relGetDel:
		prog = append(prog,
			sim.Step{Label: "check", Run: func(x *sim.Exec) {
				a := x.Actor()
				if a.Vars["holds"] != "yes" {
					x.Note(a.Name + " holds no lock: nothing to release")
					return
				}
				v, _ := x.Do("GET", x.Key(relLockKey)).Str()
				a.Vars["saw"] = map[bool]string{true: "mine", false: "not mine"}[v == a.Token]
			}},
			sim.Step{Label: "delete", Run: func(x *sim.Exec) {
				a := x.Actor()
				switch a.Vars["saw"] {
				case "mine":
					x.Do("DEL", x.Key(relLockKey))
				case "not mine":
					x.Note(a.Name + "'s GET did not return its token: it leaves the key alone")
				default:
					x.Note(a.Name + " has not checked the key: nothing to delete")
					return
				}
				a.Vars["holds"] = "no"
			}})
	default:
		prog = append(prog, storyRelease(true))
	}
	return prog
}

func buildRelease(method string, rival bool) sim.Script {
	actors := []sim.ActorSpec{
		{Name: "A", Program: releaseProgram(method)},
		{Name: "B", Program: releaseProgram(method)},
		{Name: "C", Program: releaseProgram(method)},
	}
	moves := []sim.Move{storyStep("A", "A acquires")}
	if method == relGetDel {
		// A checks just inside its lease, then stalls before the DEL.
		moves = append(moves, sim.Advance(28*time.Second), storyStep("A", "A: GET"), sim.Advance(7*time.Second))
	} else {
		moves = append(moves, sim.Advance(35*time.Second))
	}
	if rival {
		moves = append(moves, storyStep("B", "B acquires"))
	}
	if method == relGetDel {
		moves = append(moves, storyStep("A", "A: DEL"))
	} else {
		moves = append(moves, storyStep("A", "A releases"))
	}
	moves = append(moves, storyStep("C", "C acquires"))
	if rival && method == relScript {
		moves = append(moves, storyStep("B", "B releases"))
	}
	return sim.Script{
		Actors: actors,
		Keys:   []string{relLockKey},
		Watch:  []string{relLockKey},
		Moves:  moves,
	}
}

// leaseGrant is an acquisition the server granted (a SET NX that got OK)
// and the lease it started, as the replies tell it.
type leaseGrant struct {
	actor  string
	seq    int           // the event of the OK
	at     time.Duration // when the OK came back
	ttl    time.Duration // the PX actually sent
	relSeq int           // the holder's own release after it; -1 if none yet
	relAt  time.Duration
}

// expiry is when the lease's PX ran out.
func (g leaseGrant) expiry() time.Duration { return g.at + g.ttl }

// lapsed reports whether the lease ran out before its holder released it.
func (g leaseGrant) lapsed(now time.Duration) bool {
	if g.relSeq < 0 {
		return now >= g.expiry()
	}
	return g.relAt >= g.expiry()
}

// liveAt reports whether the lease should still have been running when
// event e happened: granted, not released by its holder, PX not run out.
// Another client's delete can still have removed the key.
func (g leaseGrant) liveAt(e sim.Event) bool {
	return e.Seq > g.seq && (g.relSeq < 0 || e.Seq < g.relSeq) && e.At < g.expiry()
}

// isAcquireCmd and isReleaseCmd classify a command event by its step.
func isAcquireCmd(e sim.Event) bool {
	return e.Kind == sim.Command && e.Step == "acquire" && len(e.Args) > 0 && e.Args[0] == "SET"
}
func isReleaseCmd(e sim.Event) bool {
	return e.Kind == sim.Command && (e.Step == "release" && e.Args[0] != "GET" || e.Step == "delete")
}

// pxSent reads the PX argument of a SET as sent, in real milliseconds.
func pxSent(e sim.Event) time.Duration {
	for i := 0; i+1 < len(e.Args); i++ {
		if strings.EqualFold(e.Args[i], "PX") {
			return time.Duration(sim.Atoi(e.Args[i+1])) * time.Millisecond
		}
	}
	return 0
}

// leaseGrants lists the leases the server handed out, each with its
// holder's release if there was one.
func leaseGrants(events []sim.Event) []leaseGrant {
	var out []leaseGrant
	for _, e := range events {
		if !isAcquireCmd(e) || e.Reply != "OK" {
			continue
		}
		g := leaseGrant{actor: e.Actor, seq: e.Seq, at: e.At, ttl: pxSent(e), relSeq: -1}
		for _, r := range events[e.Seq+1:] {
			if r.Actor == g.actor && isReleaseCmd(r) {
				g.relSeq, g.relAt = r.Seq, r.At
				break
			}
		}
		out = append(out, g)
	}
	return out
}

// leaseOverlap finds the first lease the server granted while another
// client's lease had not run out by its PX and was not released by its
// holder. The server only grants a free key, so the first client's key was
// deleted under it: two clients act as holder, though the key holds one
// token. ok is false if that never happened.
func leaseOverlap(events []sim.Event) (first, second leaseGrant, ok bool) {
	gs := leaseGrants(events)
	for _, h := range gs {
		for _, g := range gs {
			if g.actor != h.actor && g.liveAt(events[h.seq]) {
				return g, h, true
			}
		}
	}
	return leaseGrant{}, leaseGrant{}, false
}

// keyOwnerBefore folds the replies up to event seq into who held the lock
// key just before it: the last granted SET whose PX has not run out and
// that no successful delete has removed since. "" means no key.
func keyOwnerBefore(events []sim.Event, seq int) string {
	owner, until := "", time.Duration(0)
	at := events[seq].At
	for _, e := range events[:seq] {
		if owner != "" && e.At >= until {
			owner = ""
		}
		switch {
		case isAcquireCmd(e) && e.Reply == "OK":
			owner, until = e.Actor, e.At+pxSent(e)
		case isReleaseCmd(e) && e.Reply == "(integer) 1":
			owner = ""
		}
	}
	if owner != "" && at >= until {
		owner = ""
	}
	return owner
}

// deleterOf names the client whose successful DEL or release script
// removed actor's key between events after and before (its own releases do
// not count), as the replies and the key's owner before each delete tell
// it. "" if none.
func deleterOf(events []sim.Event, actor string, after, before int) string {
	for _, e := range events[after+1 : max(after+1, min(before, len(events)))] {
		if isReleaseCmd(e) && e.Reply == "(integer) 1" && keyOwnerBefore(events, e.Seq) == actor {
			if e.Actor == actor {
				return ""
			}
			return e.Actor
		}
	}
	return ""
}

// latestGrant is the actor's latest granted lease, if it has one.
func latestGrant(events []sim.Event, actor string) (leaseGrant, bool) {
	var g leaseGrant
	found := false
	for _, x := range leaseGrants(events) {
		if x.actor == actor {
			g, found = x, true
		}
	}
	return g, found
}

// tokenOwner names the actor whose token s is (a reply or a key's value),
// "" if it is nobody's.
func tokenOwner(s string, actors []sim.Actor) string {
	s = strings.Trim(s, `"`)
	for _, a := range actors {
		if s != "" && s == a.Token {
			return a.Name
		}
	}
	return ""
}

// lockKeyState describes the lock key as read back: "" when missing, else
// the owner's name (or "another client").
func lockKeyState(s sim.Snapshot) (owner string, pttl int64, exists bool) {
	for _, k := range s.Keys {
		if strings.HasSuffix(k.Name, relLockKey) {
			if !k.Exists() {
				return "", -2, false
			}
			o := tokenOwner(k.Value, s.Actors)
			if o == "" {
				o = "another client"
			}
			return o, k.PTTL, true
		}
	}
	return "", -2, false
}

func stamp(d time.Duration) string { return "+" + sim.FormatDuration(d) }

// actorCmds returns the actor's command events in order.
func actorCmds(events []sim.Event, actor string) []sim.Event { return commands(events, actor, "") }

// relReleaseOf returns the actor's latest release command and, for the
// script, the GET that followed its 0.
func relReleaseOf(events []sim.Event, actor string) (rel sim.Event, diag sim.Event, ok, hasDiag bool) {
	for _, e := range actorCmds(events, actor) {
		switch {
		case isReleaseCmd(e):
			rel, ok, hasDiag = e, true, false
		case ok && e.Step == "release" && e.Args[0] == "GET":
			diag, hasDiag = e, true
		}
	}
	return
}

// relSays explains one actor's latest command from its reply.
func relSays(v View, actor string) string {
	s, t := v.Snap, v.Text
	evs := actorCmds(s.Events, actor)
	var a sim.Actor
	for _, x := range s.Actors {
		if x.Name == actor {
			a = x
		}
	}
	switch a.Status {
	case sim.Crashed:
		return t.Get("crashed", actor)
	case sim.Paused:
		return t.Get("frozen", actor)
	}
	if len(evs) == 0 {
		return t.Get("waiting", actor)
	}
	gs := leaseGrants(s.Events)
	e := evs[len(evs)-1]
	own := func(seq int) (leaseGrant, bool) {
		var g leaseGrant
		found := false
		for _, x := range gs {
			if x.actor == actor && x.seq < seq {
				g, found = x, true
			}
		}
		return g, found
	}
	// why says how the actor's key came to be gone by event seq: another
	// client deleted it, or its lease ran out.
	why := func(seq int) string {
		g, _ := own(seq)
		if d := deleterOf(s.Events, actor, g.seq, seq); d != "" {
			return t.Get("why-deleted", actor, d)
		}
		return t.Get("why-lapsed", actor, stamp(g.expiry()))
	}
	// Still believing in a lock the key no longer shows is the headline:
	// say whether the lease ran out or another client deleted the key.
	if g, ok := latestGrant(s.Events, actor); ok && a.Vars["holds"] == "yes" && isAcquireCmd(e) {
		owner, _, exists := lockKeyState(s)
		del := deleterOf(s.Events, actor, g.seq, len(s.Events))
		switch {
		case del != "" && !exists:
			return t.Get("holds-deleted", actor, stamp(e.At), del)
		case del != "" && owner != actor:
			return t.Get("holds-deleted-taken", actor, stamp(e.At), del, owner)
		case !exists:
			return t.Get("holds-gone", actor, stamp(e.At), stamp(g.expiry()))
		case owner != actor:
			return t.Get("holds-taken", actor, stamp(e.At), owner, stamp(g.expiry()))
		}
	}
	switch {
	case isAcquireCmd(e) && e.Reply == "OK":
		for _, o := range gs {
			if o.actor != actor && o.liveAt(e) {
				// The server granted a free key: o's was deleted under it.
				del := orName(deleterOf(s.Events, o.actor, o.seq, e.Seq), t)
				return t.Get("acq-double", actor, stamp(e.At), o.actor, del)
			}
		}
		return t.Get("acq-ok", actor, stamp(e.At), pxSent(e).Milliseconds())
	case isAcquireCmd(e) && e.Reply == "(nil)":
		return t.Get("acq-nil", actor, orName(keyOwnerBefore(s.Events, e.Seq), t))
	case isAcquireCmd(e):
		return t.Get("failed", actor, e.Reply)
	case e.Step == "check":
		switch who := tokenOwner(e.Reply, s.Actors); {
		case who == actor:
			return t.Get("check-mine", actor, stamp(e.At))
		case e.Reply == "(nil)":
			return t.Get("check-none", actor, stamp(e.At), why(e.Seq))
		default:
			return t.Get("check-other", actor, stamp(e.At), orName(who, t))
		}
	}
	rel, diag, ok, hasDiag := relReleaseOf(s.Events, actor)
	if !ok {
		return t.Get("waiting", actor)
	}
	g, _ := own(rel.Seq)
	gone := why(rel.Seq)
	deleted := deleterOf(s.Events, actor, g.seq, rel.Seq) != ""
	before := keyOwnerBefore(s.Events, rel.Seq)
	if rel.Args[0] == "DEL" {
		var check sim.Event
		for _, x := range evs {
			if x.Step == "check" {
				check = x
			}
		}
		switch {
		case rel.Reply == "(integer) 1" && before == actor:
			return t.Get("del-own", actor)
		case rel.Reply == "(integer) 1" && check.Args != nil:
			return t.Get("getdel-other", actor, stamp(check.At), stamp(rel.At), gone, orName(before, t))
		case rel.Reply == "(integer) 1":
			return t.Get("del-other", actor, stamp(rel.At), gone, orName(before, t))
		case rel.Reply == "(integer) 0":
			return t.Get("del-gone", actor, gone)
		}
		return t.Get("failed", actor, rel.Reply)
	}
	switch {
	case rel.Reply == "(integer) 1":
		return t.Get("script-own", actor)
	case rel.Reply == "(integer) 0" && hasDiag && diag.Reply == "(nil)" && deleted:
		return t.Get("script-gone", actor, gone)
	case rel.Reply == "(integer) 0" && hasDiag && diag.Reply == "(nil)":
		return t.Get("script-expired", actor, stamp(g.expiry()))
	case rel.Reply == "(integer) 0" && hasDiag:
		return t.Get("script-other", actor, orName(tokenOwner(diag.Reply, s.Actors), t), gone)
	case rel.Reply == "(integer) 0":
		return t.Get("script-zero", actor)
	}
	return t.Get("failed", actor, rel.Reply)
}

// orName is name, or the text's word for a client not on stage.
func orName(name string, t content.Text) string {
	if name == "" {
		return t.Get("someone")
	}
	return name
}

func explainRelease(sc *Scene, v View) Explanation {
	s, t := v.Snap, v.Text
	var ex Explanation
	gs := leaseGrants(s.Events)
	owner, _, exists := lockKeyState(s)
	for _, a := range s.Actors {
		c := views.Card{Name: a.Name, Lines: []string{"token " + short(a.Token), "waiting"}}
		evs := actorCmds(s.Events, a.Name)
		if len(evs) > 0 {
			e := evs[len(evs)-1]
			verb := e.Args[0]
			if verb == "EVAL" {
				verb = "script"
			}
			c.Lines[1] = verb + " → " + shortenTokens(e.Reply, s.Actors)
			c.Tone = toneOf(e.Reply)
			if tokenOwner(e.Reply, s.Actors) != "" {
				c.Lines[1] = verb + " → " + tokenOwner(e.Reply, s.Actors) + "'s token"
				c.Tone = views.Plain
			}
		}
		if a.Vars["holds"] == "yes" {
			if exists && owner == a.Name {
				c.Lines[1], c.Tone = "OK · holds the lock", views.Good
			} else {
				c.Lines[1], c.Tone = "thinks it holds ✗", views.Bad
			}
		}
		switch a.Status {
		case sim.Paused:
			c.Lines[1], c.Tone = "FROZEN", views.Warn
		case sim.Crashed:
			c.Lines[1], c.Tone = "crashed", views.Bad
		}
		ex.Cards = append(ex.Cards, c)
	}

	// The readout: the selected client's latest event, or else the story's
	// latest step, whoever took it.
	switch {
	case s.Pos == 0 || len(s.Events) == 0:
		ex.Readout = t.Get("start", sc.Value(v.P, "release"))
	case v.Sel >= 0 && v.Sel < len(s.Actors):
		ex.Readout = relSays(v, s.Actors[v.Sel].Name)
	case s.Events[len(s.Events)-1].Kind == sim.Clock || s.Events[len(s.Events)-1].Actor == "":
		ex.Readout = clockSays(s, t)
	default:
		ex.Readout = relSays(v, s.Events[len(s.Events)-1].Actor)
	}

	// The verdict: what A's release answered, whose key it removed, and
	// what the key holds now.
	relA, gone, wrong := t.Get("not-yet"), t.Get("not-yet-deleted"), false
	if rel, _, ok, _ := relReleaseOf(s.Events, "A"); ok {
		relA, gone = rel.Reply, t.Get("deleted-nothing")
		if rel.Reply == "(integer) 1" {
			switch before := keyOwnerBefore(s.Events, rel.Seq); before {
			case "A":
				gone = t.Get("deleted-own")
			default:
				gone, wrong = t.Get("deleted-other", orName(before, t)), true
			}
		}
	} else {
		for _, a := range s.Actors {
			switch {
			case a.Name != "A":
			case a.Status == sim.Crashed:
				relA, gone = t.Get("never"), t.Get("deleted-nothing")
			case a.Status == sim.Done:
				relA, gone = t.Get("not-sent"), t.Get("deleted-nothing")
			}
		}
	}
	key := t.Get("no-key")
	if exists {
		key = owner + "'s token"
	}
	ex.Verdict = t.Get("verdict", relA, gone, key)
	ex.VerdictTone = views.Good
	if wrong {
		ex.VerdictTone = views.Bad
	}
	// The alarm: a client whose lease still ran lost its key to another
	// client's delete, and a third was granted the free key. The server
	// never holds two tokens; two clients act as holder.
	x, y, double := leaseOverlap(s.Events)
	if double {
		del := orName(deleterOf(s.Events, x.actor, x.seq, y.seq), t)
		believer := false
		for _, a := range s.Actors {
			believer = believer || a.Name == x.actor && a.Vars["holds"] == "yes" && a.Status != sim.Crashed
		}
		if believer && exists && owner == y.actor {
			ex.Alarm = t.Get("double-now", x.actor, y.actor, del)
		} else {
			ex.Alarm = t.Get("double", x.actor, y.actor, del, stamp(y.at))
		}
		ex.VerdictTone = views.Bad
	}

	// The scoreboard, from what the replies showed.
	refused := false
	for _, e := range commands(s.Events, "", "acquire") {
		refused = refused || e.Reply == "(nil)"
	}
	switch {
	case double:
		ex.Props[0] = views.Broken
	case refused || len(gs) > 1:
		ex.Props[0] = views.Held
	}
	// Deadlock freedom: a lease ran out without a release and someone else
	// was granted the lock afterwards.
	if lapsedThenGranted(s.Events, s.Now) {
		ex.Props[1] = views.Held
	}
	return ex
}

// clockSays explains a move of the clock from the lock key read back.
func clockSays(s sim.Snapshot, t content.Text) string {
	owner, pttl, exists := lockKeyState(s)
	if !exists {
		return t.Get("clock-gone", stamp(s.Now))
	}
	return t.Get("clock-held", stamp(s.Now), owner, pttl)
}

// lapsedThenGranted reports whether a lease ran out unreleased and the
// server then granted the lock to another client: the TTL freed it.
func lapsedThenGranted(events []sim.Event, now time.Duration) bool {
	gs := leaseGrants(events)
	for i, g := range gs {
		for _, h := range gs[i+1:] {
			if h.actor != g.actor && g.lapsed(now) && h.at >= g.expiry() {
				return true
			}
		}
	}
	return false
}
