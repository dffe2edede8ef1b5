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

// gapPoints are where the first worker of each lane crashes; the first is
// the default. a1 sends a single command, so for it "between" and "after
// EXPIRE" both mean after its SET: only s1 has a gap to crash in.
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
	if gapExpireCmd(ms) == "EXPIRE" {
		return x.Do("EXPIRE", key, ms/1000)
	}
	return x.Do("PEXPIRE", key, ms)
}

// gapExpireCmd names the command gapExpire sends for a TTL of ms.
func gapExpireCmd(ms int64) string {
	if ms%1000 == 0 {
		return "EXPIRE"
	}
	return "PEXPIRE"
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
	cmd   string // the expiry command this actor sent (EXPIRE or PEXPIRE), as sent
}

// gapFold is the crash-gap story read from the replies alone.
type gapFold struct {
	atomic, split gapLane
	out           map[string]gapOutcome
	lastAct       string // the actor of the latest event; "clock" for a clock move
	crashed       map[string]bool
	sent          map[string]string // the token each worker's accepted SET/SETNX wrote
	laneOf        map[string]int    // 0 atomic, 1 split: the key each worker wrote to
	expireCmd     string            // the last expiry command sent, as sent
	// skipped is the worker whose retry the latest event skipped, because
	// it took the lock on its first try and believes it still holds it.
	skipped string
}

// lane tells a command's lane from the key it names.
func (f *gapFold) lane(key string) *gapLane {
	if strings.HasSuffix(key, gapAtomicKey) {
		return &f.atomic
	}
	return &f.split
}

func foldCrashGap(events []sim.Event) *gapFold {
	f := &gapFold{out: map[string]gapOutcome{}, crashed: map[string]bool{}, sent: map[string]string{}, laneOf: map[string]int{}}
	for _, e := range events {
		if e.Actor != "" {
			f.lastAct = e.Actor
		}
		f.skipped = ""
		switch e.Kind {
		case sim.Clock:
			f.lastAct = "clock"
		case sim.Info:
			if e.Step == "acquire" {
				f.skipped = e.Actor
			}
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
			if len(e.Args) > 2 {
				f.sent[e.Actor] = e.Args[2]
			}
			f.laneOf[e.Actor] = 1
			o.kind = "split-half"
			if e.Args[0] == "SET" {
				f.laneOf[e.Actor] = 0
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
		f.expireCmd = e.Args[0]
		o = f.out[e.Actor]
		o.cmd = e.Args[0]
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

// now reads name's lane key: a worker holds the lock only while the key
// read back still holds the token it sent, its lease alive.
func (f *gapFold) now(s sim.Snapshot, name string) keyNow {
	i, ok := f.laneOf[name]
	if !ok && strings.HasPrefix(name, "s") {
		i = 1
	}
	n := keyNow{gone: true, pttl: -2}
	if i >= len(s.Keys) {
		return n
	}
	k := s.Keys[i]
	n.gone, n.pttl = !k.Exists(), k.PTTL
	if n.gone {
		return n
	}
	for who, tok := range f.sent {
		if tok == k.Value {
			n.owner = who
		}
	}
	n.holds = n.owner == name
	return n
}

// expireName is the expiry command the split lane sends: as sent, once one
// went out; before that, the one the backend's scale calls for.
func (f *gapFold) expireName(s sim.Snapshot) string {
	if f.expireCmd != "" {
		return f.expireCmd
	}
	return gapExpireCmd((lease / time.Duration(max(s.Scale, 1))).Milliseconds())
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
			c.Lines[1], c.Tone = gapCardLine(o, f.now(s, a.Name))
		} else if a.Status == sim.Crashed {
			c.Lines[1], c.Tone = "crashed", views.Bad
		}
		if a.Status == sim.Paused {
			c.Lines[1], c.Tone = "FROZEN · paused", views.Warn
		}
		ex.Cards = append(ex.Cards, c)
	}
	switch {
	case len(s.Events) == 0:
		ex.Readout = v.Text.Get("start", f.expireName(s))
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
			ex.Alarm = v.Text.Get("alarm", l.stuckBy, f.expireName(s), l.deadlock)
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

// gapCardLine is the second line of an actor's card: what it holds now.
func gapCardLine(o gapOutcome, now keyNow) (string, views.Tone) {
	switch o.kind {
	case "atomic-ok":
		if now.holds {
			return "OK · holder", views.Good
		}
		return "lease lapsed", views.Warn
	case "split-half":
		if now.holds {
			return "1 · no TTL yet", views.Warn
		}
		return "lock gone", views.Warn
	case "split-ok":
		if now.holds {
			return "1+TTL · holder", views.Good
		}
		return "lease lapsed", views.Warn
	case "atomic-crashed", "split-crashed":
		if now.holds {
			return "crashed, holding", views.Warn
		}
		return "crashed · lapsed", views.Plain
	case "gap-crashed":
		if now.holds && now.pttl == -1 {
			return "crashed in gap", views.Bad
		}
		return "crashed · lapsed", views.Plain
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

// gapReadout says where the named actor stands, from its replies and the
// key read back.
func gapReadout(v View, f *gapFold, name string) string {
	o, ok := f.out[name]
	if !ok {
		if f.crashed[name] {
			return v.Text.Get("a-crash-before", name)
		}
		return v.Text.Get("a-waiting", name)
	}
	now := f.now(v.Snap, name)
	at := "+" + sim.FormatDuration(o.at)
	cmd := o.cmd
	if cmd == "" {
		cmd = f.expireName(v.Snap)
	}
	switch o.kind {
	case "atomic-ok":
		switch {
		case !now.holds && o.other != "":
			return v.Text.Get("a-next-since", name, at, o.other, o.n, now.say(v.Text))
		case !now.holds:
			return v.Text.Get("a-atomic-lapsed", name, at, o.n, now.say(v.Text))
		case o.other != "":
			return v.Text.Get("a-next-lapsed", name, at, o.other)
		}
		return v.Text.Get("a-atomic-ok", name, at, o.n)
	case "split-half":
		if !now.holds {
			return v.Text.Get("a-split-gone", name, now.say(v.Text))
		}
		return v.Text.Get("a-split-half", name, cmd)
	case "split-ok":
		switch {
		case !now.holds && f.skipped == name:
			return v.Text.Get("a-skip-lapsed", name, o.n, cmd, at, now.say(v.Text))
		case !now.holds && o.other != "":
			return v.Text.Get("a-next-split-since", name, at, o.other, cmd, now.say(v.Text))
		case !now.holds:
			return v.Text.Get("a-split-lapsed", name, at, cmd, o.n, now.say(v.Text))
		case o.other != "":
			return v.Text.Get("a-next-split-lapsed", name, at, o.other, f.expireName(v.Snap))
		}
		return v.Text.Get("a-split-ok", name, at, o.n, cmd)
	case "atomic-crashed":
		if !now.holds {
			return v.Text.Get("a-atomic-crashed-lapsed", name, o.n, now.say(v.Text))
		}
		return v.Text.Get("a-atomic-crashed", name, o.n)
	case "split-crashed":
		if !now.holds {
			return v.Text.Get("a-split-crashed-lapsed", name, cmd, now.say(v.Text))
		}
		return v.Text.Get("a-split-crashed", name, cmd)
	case "gap-crashed":
		return v.Text.Get("a-gap-crashed", name, cmd)
	case "crash-before":
		return v.Text.Get("a-crash-before", name)
	case "crashed":
		return v.Text.Get("a-crashed", name)
	case "refused":
		return v.Text.Get("a-refused", name, o.reply, orWhom(o.other), o.n)
	case "nottl":
		return v.Text.Get("a-nottl", name, o.reply, orWhom(o.other), cmd)
	case "deadlock":
		return v.Text.Get("a-deadlock", name, at, o.other)
	}
	return v.Text.Get("a-error", name, o.reply)
}
