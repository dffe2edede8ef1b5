package scenes

import (
	"maps"
	"slices"
	"strings"
	"time"

	"locksim/sim"
	"locksim/views"
)

// optKey is the lock the options scene plays on; optConstant is the value
// every worker writes when the token is switched off.
const (
	optKey      = "resource:lock"
	optConstant = "locked"
)

// optionsScene is scene 2: the same story replayed with NX, PX or the token
// switched off, so each option's hazard shows up in the replies.
func optionsScene() *Scene {
	return &Scene{
		ID: "options", Dive: "R2.02.1 §2", Title: "Why NX, PX and a token",
		Knobs: []Knob{
			{Key: "N", Name: "NX", Values: []string{"on", "off"}},
			{Key: "P", Name: "PX", Values: []string{"on", "off"}},
			{Key: "T", Name: "token", Values: []string{"random", "constant"}},
		},
		Build:    buildOptions,
		Explain:  explainOptions,
		Variants: []Params{{}, {"NX": 1}, {"PX": 1}, {"token": 1}},
	}
}

// optSettings reads the three switches from p.
func optSettings(p Params) (nx, px, token bool) {
	return p["NX"]%2 == 0, p["PX"]%2 == 0, p["token"]%2 == 0
}

func buildOptions(p Params) sim.Script {
	nx, px, token := optSettings(p)
	value := func(x *sim.Exec) string {
		if token {
			return x.Actor().Token
		}
		return optConstant
	}
	acquire := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		key := x.Key(optKey)
		args := []any{"SET", key, value(x)}
		if nx {
			args = append(args, "NX")
		}
		if px {
			args = append(args, "PX", x.TTL(lease))
		}
		r := x.Do(args...)
		switch {
		case r.OK():
			x.Actor().Vars["holds"] = "yes"
		case r.Nil():
			// refused: the worker asks how long the lock has left
			x.Actor().Vars["holds"] = "no"
			x.Do("PTTL", key)
		}
	}}
	release := sim.Step{Label: "release", Run: func(x *sim.Exec) {
		a := x.Actor()
		if a.Vars["holds"] != "yes" {
			x.Note(a.Name + " never got the lock: nothing to release")
			return
		}
		x.Eval(sim.ReleaseLua, []string{x.Key(optKey)}, value(x))
		a.Vars["holds"] = "no"
	}}
	step := func(actor, label string) sim.Move {
		return sim.Move{Kind: sim.MoveStep, Actor: actor, Label: label}
	}
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "w1", Program: []sim.Step{acquire}},
			{Name: "w2", Program: []sim.Step{acquire, acquire}},
			{Name: "w3", Program: []sim.Step{acquire, release}},
			{Name: "w4", Program: []sim.Step{acquire}},
		},
		Keys:  []string{optKey},
		Watch: []string{optKey},
		Moves: []sim.Move{
			step("w1", "w1 SET"),
			step("w2", "w2 SET"),
			sim.Crash("w1"),
			sim.Advance(40 * time.Second),
			step("w3", "w3 SET"),
			{Kind: sim.MoveAdvance, D: 40 * time.Second, Label: "w3 works 40s"},
			step("w4", "w4 SET"),
			step("w3", "w3 releases"),
			step("w2", "w2 SET again"),
		},
	}
}

// optOutcome is where an actor stands after its latest event.
type optOutcome struct {
	kind  string // a section of content/text/options.txt, less its "a-" prefix
	at    time.Duration
	other string // the other worker involved
	n     int64  // PX or PTTL in ms, a release's reply
	reply string
}

// optHold is one acquisition an actor believes it has: from its OK until its
// lease (as sent) runs out, or for ever without PX.
type optHold struct {
	start, end time.Duration
	forever    bool
}

func (h optHold) open(at time.Duration) bool { return h.forever || at < h.end }

// optLoss is how an actor lost its key while it still believed it held it.
type optLoss struct {
	how string // "overwritten" (a SET without NX) or "deleted" (a release)
	by  string
}

// optFold is the options story read from the replies alone.
type optFold struct {
	out     map[string]optOutcome
	lastAct string // the actor of the latest event; "clock" for a clock move
	holds   map[string]optHold
	// sent is the value each worker's accepted SET wrote.
	sent map[string]string
	// owner is the worker whose acquisition the key holds, as far as the
	// replies tell: the latest OK, until its lease runs out, a release
	// returns 1 or another SET overwrites it.
	owner      string
	ownerHold  optHold
	lost       map[string]optLoss
	crashed    map[string]bool
	double     []string // the first two workers seen holding at once
	foreign    []string // the first release that deleted someone else's lock: by, victim
	stuck      string   // the first worker refused by a lock with no TTL whose holder crashed
	stuckOwner string
	contended  bool // an acquire was refused while another worker held the lock
	freed      bool // after a holder crashed, an NX acquire got OK
}

func foldOptions(events []sim.Event) *optFold {
	f := &optFold{out: map[string]optOutcome{}, holds: map[string]optHold{}, sent: map[string]string{},
		lost: map[string]optLoss{}, crashed: map[string]bool{}}
	heldAtCrash := false
	for _, e := range events {
		if e.Actor != "" {
			f.lastAct = e.Actor
		}
		switch e.Kind {
		case sim.Clock:
			f.lastAct = "clock"
		case sim.Fault:
			if e.Note == e.Actor+" crashed" {
				f.lapse(e.At)
				o := optOutcome{kind: "crashed", at: e.At}
				h, believed := f.holds[e.Actor]
				switch {
				case f.owner == e.Actor:
					o.kind = "crashed-holding"
					heldAtCrash = true
				case believed && h.open(e.At) && f.lost[e.Actor].by != "":
					// it thought it held the lock, but its key was no longer its own
					o.kind, o.other = "crashed-lost", f.lost[e.Actor].by
				}
				delete(f.holds, e.Actor)
				f.crashed[e.Actor] = true
				f.out[e.Actor] = o
			}
		case sim.Info:
			if e.Step == "release" {
				f.out[e.Actor] = optOutcome{kind: "rel-none", at: e.At}
			}
		case sim.Command:
			f.lapse(e.At)
			f.command(e, heldAtCrash)
		}
	}
	return f
}

// lapse forgets the key's owner once its lease has run out.
func (f *optFold) lapse(at time.Duration) {
	if f.owner != "" && !f.ownerHold.open(at) {
		f.owner = ""
	}
}

func (f *optFold) command(e sim.Event, heldAtCrash bool) {
	o := optOutcome{at: e.At, reply: e.Reply}
	switch {
	case len(e.Args) == 0:
		return
	case e.Args[0] == "SET":
		switch e.Reply {
		case "OK":
			o.kind = "ok"
			h := optHold{start: e.At, forever: true}
			if i := slices.Index(e.Args, "PX"); i >= 0 && i+1 < len(e.Args) {
				o.n = sim.Atoi(e.Args[i+1])
				h = optHold{start: e.At, end: e.At + time.Duration(o.n)*time.Millisecond}
			}
			for _, other := range slices.Sorted(maps.Keys(f.holds)) {
				if other != e.Actor && f.holds[other].open(e.At) {
					o.kind, o.other = "over", other
					if slices.Contains(e.Args, "NX") {
						// NX found the key absent: someone deleted the holder's lock
						o.kind = "over-nx"
					}
					if f.double == nil {
						f.double = []string{other, e.Actor}
					}
					break
				}
			}
			if f.owner != "" && f.owner != e.Actor {
				// no NX: this SET replaced the owner's value with its own
				f.lost[f.owner] = optLoss{how: "overwritten", by: e.Actor}
			}
			if heldAtCrash && slices.Contains(e.Args, "NX") {
				f.freed = true
			}
			delete(f.lost, e.Actor)
			f.holds[e.Actor] = h
			if len(e.Args) > 2 {
				f.sent[e.Actor] = e.Args[2]
			}
			f.owner, f.ownerHold = e.Actor, h
		case "(nil)":
			o.kind, o.other = "refused", f.owner
			for other, h := range f.holds {
				if other != e.Actor && h.open(e.At) {
					f.contended = true
				}
			}
		default:
			o.kind = "error"
		}
		f.out[e.Actor] = o
	case e.Args[0] == "PTTL":
		// the follow-up of a refusal: how long the lock has left
		o = f.out[e.Actor]
		o.n = optInt(e.Reply)
		switch {
		case o.n == -1 && f.owner != "" && f.crashed[f.owner]:
			o.kind = "stuck"
			if f.stuck == "" {
				f.stuck, f.stuckOwner = e.Actor, f.owner
			}
		case o.n == -1:
			o.kind = "nottl"
		}
		f.out[e.Actor] = o
	case e.Step == "release":
		n := optInt(e.Reply)
		o.n = n
		switch {
		case n == 1 && f.owner != "" && f.owner != e.Actor:
			o.kind, o.other = "rel-foreign", f.owner
			if f.foreign == nil {
				f.foreign = []string{e.Actor, f.owner}
			}
			f.out[f.owner] = optOutcome{kind: "victim", at: e.At, other: e.Actor}
			f.lost[f.owner] = optLoss{how: "deleted", by: e.Actor}
			f.owner = ""
		case n == 1:
			o.kind = "rel-own"
			f.owner = ""
		case f.owner != "":
			o.kind, o.other = "rel-zero", f.owner
		default:
			o.kind = "rel-gone"
		}
		delete(f.holds, e.Actor)
		f.out[e.Actor] = o
	}
}

// now reads the watched key against the fold: a worker holds the lock only
// while the key still holds the value it sent and no later SET or release
// took it from it. With a constant value every worker writes the same
// bytes, so the replies say which of them the key belongs to.
func (f *optFold) now(s sim.Snapshot, name string) keyNow {
	n := keyNow{gone: true, pttl: -2}
	if len(s.Keys) == 0 {
		return n
	}
	k := s.Keys[0]
	n.gone, n.pttl = !k.Exists(), k.PTTL
	if n.gone {
		return n
	}
	if f.owner != "" && f.sent[f.owner] == k.Value {
		n.owner = f.owner
	}
	n.holds = name != "" && n.owner == name
	return n
}

func explainOptions(v View) Explanation {
	s := v.Snap
	f := foldOptions(s.Events)
	var ex Explanation
	_, _, token := optSettings(v.P)
	for _, a := range s.Actors {
		c := views.Card{Name: a.Name, Lines: []string{"token " + short(a.Token), "waiting"}, Tone: views.Dim}
		if !token {
			c.Lines[0] = `value "` + optConstant + `"`
		}
		if o, ok := f.out[a.Name]; ok {
			c.Lines[1], c.Tone = optCardLine(o, f.now(s, a.Name), f.lost[a.Name])
		}
		ex.Cards = append(ex.Cards, c)
	}
	switch {
	case len(s.Events) == 0:
		ex.Readout = v.Text.Get("start")
	case v.Sel >= 0 && v.Sel < len(s.Actors):
		ex.Readout = optReadout(v, f, s.Actors[v.Sel].Name)
	case f.lastAct == "clock":
		ex.Readout = optClockReadout(v, f)
	default:
		ex.Readout = optReadout(v, f, f.lastAct)
	}
	if len(s.Events) == 0 {
		ex.Verdict, ex.VerdictTone = v.Text.Get("verdict-start"), views.Dim
		return ex
	}

	yes := func(b bool) string {
		if b {
			return "YES"
		}
		return "no"
	}
	ex.Verdict = v.Text.Get("verdict", yes(f.double != nil), yes(f.stuck != ""), yes(f.foreign != nil))
	ex.VerdictTone = views.Good

	var alarms []string
	if f.foreign != nil {
		alarms = append(alarms, v.Text.Get("alarm-foreign", f.foreign[0], f.foreign[1]))
	}
	if f.double != nil {
		alarms = append(alarms, v.Text.Get("alarm-double", f.double[0], f.double[1]))
		ex.Props[0] = views.Broken
	} else if f.contended {
		ex.Props[0] = views.Held
	}
	if f.stuck != "" {
		alarms = append(alarms, v.Text.Get("alarm-stuck", f.stuckOwner))
		ex.Props[1] = views.Broken
	} else if f.freed {
		ex.Props[1] = views.Held
	}
	if len(alarms) > 0 {
		ex.VerdictTone = views.Bad
		ex.Alarm = strings.Join(alarms, " · ")
	}
	return ex
}

// optCardLine is the second line of an actor's card: what it holds now.
func optCardLine(o optOutcome, now keyNow, lost optLoss) (string, views.Tone) {
	switch o.kind {
	case "ok", "over", "over-nx":
		switch {
		case now.holds && o.kind == "ok":
			return "OK · holder", views.Good
		case now.holds:
			return "OK · 2nd holder", views.Bad
		case lost.how == "overwritten":
			return "overwritten", views.Bad
		case lost.how == "deleted":
			return "lock deleted", views.Bad
		}
		return "lease lapsed", views.Warn
	case "refused":
		return "(nil) · refused", views.Warn
	case "nottl":
		return "(nil) · no TTL", views.Warn
	case "stuck":
		return "(nil) · stuck", views.Bad
	case "crashed-holding":
		if now.holds {
			return "crashed, holding", views.Bad
		}
		return "crashed · lapsed", views.Warn
	case "crashed", "crashed-lost":
		return "crashed", views.Bad
	case "rel-foreign":
		return "deleted " + o.other + "'s", views.Bad
	case "rel-own":
		return "released · 1", views.Good
	case "rel-zero", "rel-gone":
		return "release → 0", views.Good
	case "rel-none":
		return "nothing to free", views.Dim
	case "victim":
		return "lock deleted", views.Bad
	}
	return o.reply, views.Bad
}

// optReadout says where the named actor stands, from the replies it got and
// the key read back.
func optReadout(v View, f *optFold, name string) string {
	o, ok := f.out[name]
	if !ok {
		return v.Text.Get("a-waiting", name)
	}
	now := f.now(v.Snap, name)
	at := "+" + sim.FormatDuration(o.at)
	switch o.kind {
	case "ok", "over", "over-nx":
		switch {
		case !now.holds && f.lost[name].how == "overwritten":
			return v.Text.Get("a-overwritten", name, at, f.lost[name].by)
		case !now.holds && f.lost[name].how == "deleted":
			return v.Text.Get("a-victim", name, f.lost[name].by, now.say(v.Text))
		case !now.holds && o.n > 0:
			return v.Text.Get("a-lapsed", name, at, o.n, now.say(v.Text))
		case !now.holds:
			return v.Text.Get("a-lost", name, at, now.say(v.Text))
		case o.kind == "over":
			return v.Text.Get("a-over", name, o.other)
		case o.kind == "over-nx":
			return v.Text.Get("a-over-nx", name, o.other)
		case o.n > 0:
			return v.Text.Get("a-ok", name, at, o.n)
		}
		return v.Text.Get("a-ok-nopx", name, at)
	case "refused":
		return v.Text.Get("a-refused", name, orWhom(o.other), o.n)
	case "nottl":
		return v.Text.Get("a-nottl", name, orWhom(o.other))
	case "stuck":
		return v.Text.Get("a-stuck", name, f.stuckOwner)
	case "crashed-holding":
		switch {
		case now.holds && now.pttl == -1:
			return v.Text.Get("a-crashed-stuck", name)
		case now.holds:
			return v.Text.Get("a-crashed-holding", name, now.pttl)
		case f.freed:
			return v.Text.Get("a-crashed-freed", name)
		}
		return v.Text.Get("a-crashed-lapsed", name, now.say(v.Text))
	case "crashed-lost":
		return v.Text.Get("a-crashed-"+f.lost[name].how, name, o.other)
	case "crashed":
		return v.Text.Get("a-crashed", name)
	case "rel-foreign":
		return v.Text.Get("a-rel-foreign", name, o.other, optConstant)
	case "rel-own":
		return v.Text.Get("a-rel-own", name)
	case "rel-zero":
		return v.Text.Get("a-rel-zero", name, o.other)
	case "rel-gone":
		return v.Text.Get("a-rel-gone", name)
	case "rel-none":
		return v.Text.Get("a-rel-none", name)
	case "victim":
		return v.Text.Get("a-victim", name, o.other, now.say(v.Text))
	}
	return v.Text.Get("a-error", name, o.reply)
}

// optClockReadout says what the passing time did to the key, read back.
func optClockReadout(v View, f *optFold) string {
	at := "+" + sim.FormatDuration(v.Snap.Now)
	now := f.now(v.Snap, "")
	switch {
	case now.gone:
		return v.Text.Get("clock-gone", at)
	case now.pttl == -1:
		return v.Text.Get("clock-nottl", at, orWhom(now.owner))
	}
	return v.Text.Get("clock-ttl", at, orWhom(now.owner), now.pttl)
}

func orWhom(name string) string {
	if name == "" {
		return "another client"
	}
	return name
}

// optInt reads an integer reply as redis-cli prints it: "(integer) -1" is -1.
func optInt(reply string) int64 {
	return sim.Atoi(strings.TrimPrefix(reply, "(integer) "))
}
