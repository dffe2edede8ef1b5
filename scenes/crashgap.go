package scenes

import (
	"strings"
	"time"

	"locksim/sim"
	"locksim/views"
)

// The two lanes of the crash-gap scene, each on a key of its own so both
// can be watched at once.
const (
	gapAtomicKey = "atomic:resource:lock"
	gapSplitKey  = "split:resource:lock"
	gapKnob      = "crash point"
)

// gapPoints are where s1's crash lands; the first is the default.
var gapPoints = []string{"between", "after EXPIRE", "before SETNX"}

// crashGapScene is scene 3: the one-command acquire beside SETNX then
// EXPIRE, with a crash that can land in the gap between the two.
func crashGapScene() *Scene {
	return &Scene{
		ID: "crash-gap", Dive: "R2.02.1 §3", Title: "SET NX PX vs SETNX + EXPIRE",
		Knobs:     []Knob{{Key: "c", Name: gapKnob, Values: gapPoints}},
		Scheduler: true,
		Wait:      40 * time.Second,
		Build:     buildCrashGap,
		Explain:   explainCrashGap,
		Variants:  []Params{{}, {gapKnob: 1}, {gapKnob: 2}},
	}
}

// gapExpire gives key its TTL with EXPIRE in whole seconds, as the course
// writes it; when the scaled TTL is not a whole number of seconds (a live
// server, time divided) it sends PEXPIRE in ms, and the log shows that.
func gapExpire(x *sim.Exec, key string, d time.Duration) sim.Reply {
	ms := x.TTL(d)
	if ms%1000 == 0 {
		return x.Do("EXPIRE", key, ms/1000)
	}
	return x.Do("PEXPIRE", key, ms)
}

func buildCrashGap(p Params) sim.Script {
	point := gapPoints[p[gapKnob]%len(gapPoints)]
	atomic := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		key := x.Key(gapAtomicKey)
		r := x.Do("SET", key, x.Actor().Token, "NX", "PX", x.TTL(lease))
		switch {
		case r.OK():
			x.Actor().Vars["holds"] = "yes"
		case r.Nil():
			x.Do("PTTL", key)
		}
	}}
	setnx := sim.Step{Label: "setnx", Run: func(x *sim.Exec) {
		key := x.Key(gapSplitKey)
		r := x.Do("SETNX", key, x.Actor().Token)
		if n, ok := r.Int(); ok && n == 1 {
			x.Actor().Vars["holds"] = "yes"
		} else if ok {
			x.Do("PTTL", key)
		}
	}}
	expire := sim.Step{Label: "expire", Run: func(x *sim.Exec) {
		if x.Actor().Vars["holds"] != "yes" {
			x.Note(x.Actor().Name + " holds no lock: no EXPIRE to send")
			return
		}
		gapExpire(x, x.Key(gapSplitKey), lease)
	}}
	// the second worker of the split lane sends both commands in one step;
	// on a retry it gives up its turn if it already holds the lock
	try := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		if x.Actor().Vars["holds"] == "yes" {
			x.Note(x.Actor().Name + " got the lock on its first try: no retry")
			return
		}
		key := x.Key(gapSplitKey)
		r := x.Do("SETNX", key, x.Actor().Token)
		if n, ok := r.Int(); ok && n == 1 {
			x.Actor().Vars["holds"] = "yes"
			gapExpire(x, key, lease)
		} else if ok {
			x.Do("PTTL", key)
		}
	}}
	step := func(actor, label string) sim.Move {
		return sim.Move{Kind: sim.MoveStep, Actor: actor, Label: label}
	}
	crash := func(actor string) sim.Move {
		return sim.Move{Kind: sim.MoveCrash, Actor: actor, Label: actor + " crashes"}
	}
	var moves []sim.Move
	switch point {
	case "before SETNX":
		moves = []sim.Move{crash("a1"), step("a1", "a1 SET NX PX"), crash("s1"), step("s1", "s1 SETNX"), step("s1", "s1 EXPIRE")}
	case "after EXPIRE":
		moves = []sim.Move{step("a1", "a1 SET NX PX"), crash("a1"), step("s1", "s1 SETNX"), step("s1", "s1 EXPIRE"), crash("s1")}
	default:
		moves = []sim.Move{step("a1", "a1 SET NX PX"), crash("a1"), step("s1", "s1 SETNX"), crash("s1"), step("s1", "s1 EXPIRE")}
	}
	moves = append(moves,
		sim.Advance(40*time.Second),
		step("a2", "a2 SET NX PX"),
		step("s2", "s2 SETNX"),
		sim.Advance(60*time.Second),
		step("s2", "s2 SETNX again"),
	)
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "a1", Program: []sim.Step{atomic}},
			{Name: "a2", Program: []sim.Step{atomic}},
			{Name: "s1", Program: []sim.Step{setnx, expire}},
			{Name: "s2", Program: []sim.Step{try, try}},
		},
		Keys:  []string{gapAtomicKey, gapSplitKey},
		Watch: []string{gapAtomicKey, gapSplitKey},
		Moves: moves,
	}
}

// gapLane is one lane (one key) as the replies tell it.
type gapLane struct {
	owner    string // whose acquisition the key holds; "" when free
	ownerTTL bool   // the owner's key got a TTL (SET … PX, or EXPIRE/PEXPIRE 1)
	ownerEnd time.Duration
	crashed  string // the owner, if it crashed while holding
	deadlock string // the first worker refused by a no-TTL lock whose holder crashed
	stuckBy  string // that holder
	freed    bool   // a crashed holder's lock lapsed and a later worker got it
	refused  bool   // NX/SETNX turned a second worker away while the key was held
}

// lapse frees the lane once its owner's lease has run out on the server.
func (l *gapLane) lapse(at time.Duration) {
	if l.owner != "" && l.ownerTTL && at >= l.ownerEnd {
		l.owner, l.ownerTTL = "", false
	}
}

// gapOutcome is where an actor stands after its latest event.
type gapOutcome struct {
	kind  string // a section of content/text/crash-gap.txt, less its "a-" prefix
	at    time.Duration
	n     int64  // the TTL sent, or the PTTL read back, in ms
	other string // the holder before it: the one that refused it, or the crashed one it replaced
	reply string
}

// gapFold is the crash-gap story read from the replies alone.
type gapFold struct {
	atomic, split gapLane
	out           map[string]gapOutcome
	lastAct       string // the actor of the latest event; "clock" for a clock move
	crashed       map[string]bool
}

// lane tells a command's lane from the key it names.
func (f *gapFold) lane(key string) *gapLane {
	if strings.HasSuffix(key, gapAtomicKey) {
		return &f.atomic
	}
	return &f.split
}

func foldCrashGap(events []sim.Event) *gapFold {
	f := &gapFold{out: map[string]gapOutcome{}, crashed: map[string]bool{}}
	for _, e := range events {
		if e.Actor != "" {
			f.lastAct = e.Actor
		}
		switch e.Kind {
		case sim.Clock:
			f.lastAct = "clock"
		case sim.Fault:
			if e.Note == e.Actor+" crashed" {
				f.crash(e)
			}
		case sim.Command:
			if len(e.Args) >= 2 {
				l := f.lane(e.Args[1])
				l.lapse(e.At)
				f.command(e, l)
			}
		}
	}
	return f
}

func (f *gapFold) crash(e sim.Event) {
	f.crashed[e.Actor] = true
	for _, l := range []*gapLane{&f.atomic, &f.split} {
		l.lapse(e.At)
		if l.owner == e.Actor {
			l.crashed = e.Actor
		}
	}
	o, sent := f.out[e.Actor]
	switch {
	case !sent:
		o.kind = "crash-before"
	case o.kind == "atomic-ok":
		o.kind = "atomic-crashed"
	case o.kind == "split-half":
		o.kind = "gap-crashed"
	case o.kind == "split-ok":
		o.kind = "split-crashed"
	default:
		o.kind = "crashed"
	}
	o.at = e.At
	f.out[e.Actor] = o
}

func (f *gapFold) command(e sim.Event, l *gapLane) {
	o := gapOutcome{at: e.At, reply: e.Reply}
	switch e.Args[0] {
	case "SET", "SETNX":
		switch e.Reply {
		case "OK", "(integer) 1":
			if l.crashed != "" && l.crashed != e.Actor {
				l.freed = true
				o.other = l.crashed
			}
			l.owner, l.ownerTTL, l.crashed = e.Actor, false, ""
			o.kind = "split-half"
			if e.Args[0] == "SET" {
				o.kind = "atomic-ok"
				o.n = sim.Atoi(e.Args[len(e.Args)-1])
				l.ownerTTL, l.ownerEnd = true, e.At+time.Duration(o.n)*time.Millisecond
			}
		case "(nil)", "(integer) 0":
			o.kind, o.other = "refused", l.owner
			if l.owner != "" {
				l.refused = true
			}
		default:
			o.kind = "error"
		}
		f.out[e.Actor] = o
	case "EXPIRE", "PEXPIRE":
		o = f.out[e.Actor]
		if e.Reply == "(integer) 1" && l.owner == e.Actor && len(e.Args) > 2 {
			o.n = sim.Atoi(e.Args[2])
			if e.Args[0] == "EXPIRE" {
				o.n *= 1000
			}
			o.kind = "split-ok"
			l.ownerTTL, l.ownerEnd = true, e.At+time.Duration(o.n)*time.Millisecond
		} else {
			o.kind, o.reply = "error", e.Reply
		}
		f.out[e.Actor] = o
	case "PTTL":
		// the follow-up of a refusal: does the lock in the way ever expire?
		o = f.out[e.Actor]
		o.n = optInt(e.Reply)
		if o.n == -1 {
			o.kind = "nottl"
			if l.owner != "" && l.owner == l.crashed {
				o.kind = "deadlock"
				if l.deadlock == "" {
					l.deadlock, l.stuckBy = e.Actor, l.owner
				}
			}
		}
		f.out[e.Actor] = o
	}
}

func explainCrashGap(v View) Explanation {
	s := v.Snap
	f := foldCrashGap(s.Events)
	var ex Explanation
	for _, a := range s.Actors {
		lane := "atomic "
		if strings.HasPrefix(a.Name, "s") {
			lane = "split "
		}
		c := views.Card{Name: a.Name, Lines: []string{lane + short(a.Token), "waiting"}, Tone: views.Dim}
		if o, ok := f.out[a.Name]; ok {
			c.Lines[1], c.Tone = gapCardLine(o)
		} else if a.Status == sim.Crashed {
			c.Lines[1], c.Tone = "crashed", views.Bad
		}
		ex.Cards = append(ex.Cards, c)
	}
	switch {
	case len(s.Events) == 0:
		ex.Readout = v.Text.Get("start")
	case v.Sel >= 0 && v.Sel < len(s.Actors):
		ex.Readout = gapReadout(v, f, s.Actors[v.Sel].Name)
	case f.lastAct == "clock":
		ex.Readout = v.Text.Get("clock", "+"+sim.FormatDuration(s.Now), gapKeyPhrase(v, 0), gapKeyPhrase(v, 1))
	default:
		ex.Readout = gapReadout(v, f, f.lastAct)
	}
	if len(s.Events) == 0 {
		ex.Verdict, ex.VerdictTone = v.Text.Get("verdict-start"), views.Dim
		return ex
	}
	ex.Verdict = v.Text.Get("verdict", gapLaneState(v, &f.atomic, 0), gapLaneState(v, &f.split, 1))
	ex.VerdictTone = views.Good
	for i, k := range s.Keys {
		if k.PTTL == -1 && i < 2 {
			ex.VerdictTone = views.Warn
		}
	}
	for _, l := range []*gapLane{&f.atomic, &f.split} {
		if l.refused && ex.Props[0] == views.Untested {
			ex.Props[0] = views.Held
		}
		if l.freed && ex.Props[1] == views.Untested {
			ex.Props[1] = views.Held
		}
		if l.deadlock != "" {
			ex.Props[1] = views.Broken
			ex.VerdictTone = views.Bad
			ex.Alarm = v.Text.Get("alarm", l.stuckBy, l.deadlock)
		}
	}
	return ex
}

// gapKeyPhrase says what the lane's key reads back as now.
func gapKeyPhrase(v View, i int) string {
	if i >= len(v.Snap.Keys) {
		return ""
	}
	k := v.Snap.Keys[i]
	switch {
	case !k.Exists():
		return v.Text.Get("key-gone")
	case k.PTTL == -1:
		return v.Text.Get("key-nottl")
	}
	return v.Text.Get("key-ttl", k.PTTL)
}

// gapLaneState is a lane's word in the verdict line.
func gapLaneState(v View, l *gapLane, i int) string {
	if l.deadlock != "" {
		return v.Text.Get("state-deadlock")
	}
	if i >= len(v.Snap.Keys) {
		return ""
	}
	k := v.Snap.Keys[i]
	switch {
	case !k.Exists():
		return v.Text.Get("state-free")
	case k.PTTL == -1:
		return v.Text.Get("state-nottl")
	}
	return v.Text.Get("state-ttl", k.PTTL)
}

func gapCardLine(o gapOutcome) (string, views.Tone) {
	switch o.kind {
	case "atomic-ok":
		return "OK · holder", views.Good
	case "split-half":
		return "1 · no TTL yet", views.Warn
	case "split-ok":
		return "1 · EXPIRE 1", views.Good
	case "atomic-crashed":
		return "OK, crashed", views.Warn
	case "split-crashed":
		return "1+TTL, crashed", views.Warn
	case "gap-crashed":
		return "crashed in gap", views.Bad
	case "crash-before":
		return "crashed first", views.Warn
	case "crashed":
		return "crashed", views.Bad
	case "refused":
		return o.reply + " · held", views.Warn
	case "nottl":
		return o.reply + " · no TTL", views.Warn
	case "deadlock":
		return "0 · deadlock", views.Bad
	}
	return o.reply, views.Bad
}

// gapReadout says where the named actor stands, from its replies.
func gapReadout(v View, f *gapFold, name string) string {
	o, ok := f.out[name]
	if !ok {
		if f.crashed[name] {
			return v.Text.Get("a-crash-before", name)
		}
		return v.Text.Get("a-waiting", name)
	}
	at := "+" + sim.FormatDuration(o.at)
	switch o.kind {
	case "atomic-ok":
		if o.other != "" {
			return v.Text.Get("a-next-lapsed", name, at, o.other)
		}
		return v.Text.Get("a-atomic-ok", name, at, o.n)
	case "split-half":
		return v.Text.Get("a-split-half", name)
	case "split-ok":
		if o.other != "" {
			return v.Text.Get("a-next-split-lapsed", name, at, o.other)
		}
		return v.Text.Get("a-split-ok", name, at, o.n)
	case "atomic-crashed":
		return v.Text.Get("a-atomic-crashed", name, o.n)
	case "split-crashed":
		return v.Text.Get("a-split-crashed", name)
	case "gap-crashed":
		return v.Text.Get("a-gap-crashed", name)
	case "crash-before":
		return v.Text.Get("a-crash-before", name)
	case "crashed":
		return v.Text.Get("a-crashed", name)
	case "refused":
		return v.Text.Get("a-refused", name, o.reply, orWhom(o.other), o.n)
	case "nottl":
		return v.Text.Get("a-nottl", name, o.reply, orWhom(o.other))
	case "deadlock":
		return v.Text.Get("a-deadlock", name, at, o.other)
	}
	return v.Text.Get("a-error", name, o.reply)
}
