package scenes

import (
	"strconv"
	"strings"
	"time"

	"locksim/sim"
	"locksim/views"
)

// pauseLead is how long before A wakes that B comes for the lock.
const pauseLead = 3 * time.Second

// gcPauseScene is scene 6: a stop-the-world pause longer than the lease
// lets two clients write as the holder, and the unfenced resource takes both.
func gcPauseScene() *Scene {
	s := &Scene{
		ID: "gc-pause", Dive: "essay · the GC pause", Title: "Frozen past the lease",
		Scheduler: true, Wait: 5 * time.Second,
	}
	s.Knobs = []Knob{
		{Key: "g", Name: "pause", Values: []string{"35s", "70s", "20s"}},
		{Key: "t", Name: "TTL", Values: []string{"30s", "60s", "10s"}},
	}
	s.Build = func(p Params) sim.Script {
		return pauseStory(knobDuration(s, p, "TTL"), knobDuration(s, p, "pause"), false)
	}
	s.Explain = func(v View) Explanation {
		return explainPause(v, knobDuration(s, v.P, "TTL"), knobDuration(s, v.P, "pause"), false)
	}
	s.Variants = []Params{{}, {"pause": 2}}
	return s
}

// knobDuration reads a knob whose values are durations ("35s").
func knobDuration(s *Scene, p Params, name string) time.Duration {
	d, _ := time.ParseDuration(s.Value(p, name))
	return d
}

// pauseStory is the essay's story, shared by gc-pause and fencing: A takes
// the lock, freezes for pause; B comes for the lock pauseLead before A wakes,
// and writes if it got it; A wakes and writes; both release.
func pauseStory(ttl, pause time.Duration, fenced bool) sim.Script {
	prog := func(name string) []sim.Step {
		return []sim.Step{storyAcquire(ttl, fenced), pauseWrite(name, fenced), storyRelease(false)}
	}
	keys := []string{relLockKey}
	var setup func(x *sim.Exec)
	if fenced {
		keys = append(keys, fenceKey)
		setup = func(x *sim.Exec) { x.Do("SET", x.Key(fenceKey), fenceStart) }
	}
	return sim.Script{
		Actors:   []sim.ActorSpec{{Name: "A", Program: prog("A")}, {Name: "B", Program: prog("B")}},
		Keys:     keys,
		Watch:    keys,
		Setup:    setup,
		Resource: true,
		Moves: []sim.Move{
			storyStep("A", "A acquires"),
			sim.Pause("A"),
			sim.Advance(pause - pauseLead),
			storyStep("B", "B acquires"),
			storyStep("B", "B writes"),
			sim.Advance(pauseLead),
			sim.Resume("A"),
			storyStep("A", "A writes"),
			storyStep("A", "A releases"),
			storyStep("B", "B releases"),
		},
	}
}

// pauseWrite writes to the protected resource if the actor believes it
// holds the lock: unfenced, or with its fencing token.
func pauseWrite(name string, fenced bool) sim.Step {
	return sim.Step{Label: "write", Run: func(x *sim.Exec) {
		a := x.Actor()
		if a.Vars["holds"] != "yes" {
			x.Note(a.Name + " did not get the lock: it does not write")
			return
		}
		value := "edit-" + name
		if fenced {
			x.FencedWrite(value, sim.Atoi(a.Vars["fence"]))
			return
		}
		x.Write(value)
	}}
}

// belief is the stretch of the run in which an actor believed it held the
// lock: from the OK of its acquire to its release (or now). Bounds are
// event numbers, so two events at the same instant still have an order.
type belief struct {
	actor    string
	from, to int           // events (from, to) lie inside; to is len(events) if unreleased
	leaseEnd time.Duration // when its PX ran out
}

func beliefs(events []sim.Event) []belief {
	var out []belief
	for _, g := range leaseGrants(events) {
		b := belief{actor: g.actor, from: g.seq, to: len(events), leaseEnd: g.expiry()}
		if g.relSeq >= 0 {
			b.to = g.relSeq
		}
		// A crashed client believes nothing any more.
		for _, e := range events[g.seq+1 : b.to] {
			if e.Kind == sim.Fault && e.Actor == g.actor && strings.Contains(e.Note, "crashed") {
				b.to = e.Seq
				break
			}
		}
		out = append(out, b)
	}
	return out
}

// isWrite reports a write to the protected resource, and whether the
// resource accepted it (anything but an error reply).
func isWrite(e sim.Event) (write, accepted bool) {
	if e.Kind != sim.Command || e.Store != "resource" {
		return false, false
	}
	return true, !strings.HasPrefix(e.Reply, "(error)")
}

// writeOverlap is where two clients both believed they held the lock, and
// what the resource did with their writes inside that stretch.
type writeOverlap struct {
	found         bool
	from, to      time.Duration // the window's times: the second OK, and the first release (or now)
	open          bool          // neither has released yet
	first, second belief
	writers       []string // distinct writers the resource accepted inside the window
	accepted      int
	rejected      int
}

func findWriteOverlap(s sim.Snapshot) writeOverlap {
	bs := beliefs(s.Events)
	var o writeOverlap
	lo, hi := 0, 0
	for i := 0; i < len(bs) && !o.found; i++ {
		for j := i + 1; j < len(bs) && !o.found; j++ {
			lo, hi = max(bs[i].from, bs[j].from), min(bs[i].to, bs[j].to)
			if bs[i].actor != bs[j].actor && lo < hi {
				o = writeOverlap{found: true, first: bs[i], second: bs[j]}
			}
		}
	}
	if !o.found {
		return o
	}
	o.from, o.to, o.open = s.Events[lo].At, s.Now, hi == len(s.Events)
	if !o.open {
		o.to = s.Events[hi].At
	}
	seen := map[string]bool{}
	for _, e := range s.Events[lo+1 : hi] {
		w, ok := isWrite(e)
		if !w || (e.Actor != o.first.actor && e.Actor != o.second.actor) {
			continue
		}
		if !ok {
			o.rejected++
			continue
		}
		o.accepted++
		if !seen[e.Actor] {
			seen[e.Actor] = true
			o.writers = append(o.writers, e.Actor)
		}
	}
	return o
}

// pauseSays explains one event of the pause story from its reply and the
// state read back.
func pauseSays(v View, e sim.Event, fenced bool) string {
	s, t := v.Snap, v.Text
	owner, pttl, exists := lockKeyState(s)
	switch e.Kind {
	case sim.Clock:
		if !exists {
			for _, a := range s.Actors {
				if a.Status == sim.Paused && a.Vars["holds"] == "yes" {
					return t.Get("clock-frozen", stamp(e.At), leaseEndOf(s, a.Name), a.Name)
				}
			}
			return t.Get("clock-gone", stamp(e.At))
		}
		return t.Get("clock-held", stamp(e.At), owner, pttl)
	case sim.Fault:
		switch {
		case strings.Contains(e.Note, "paused"):
			return t.Get("frozen", e.Actor)
		case strings.Contains(e.Note, "resumed"):
			return t.Get("wakes", e.Actor, sim.FormatDuration(frozenFor(s, e)))
		}
		return t.Get("crashed", e.Actor)
	case sim.Info:
		switch e.Step {
		case "write":
			return t.Get("no-write", e.Actor)
		case "release":
			acq, _ := lastOf(s.Events[:e.Seq], e.Actor, "acquire")
			if o := findWriteOverlap(s); !o.found && isAcquireCmd(acq) && acq.Reply == "(nil)" {
				return t.Get("rel-none-safe", e.Actor)
			}
			return t.Get("rel-none", e.Actor)
		case "":
			// The engine's note on a step that could not run: the actor's
			// state says why.
			for _, a := range s.Actors {
				if a.Name != e.Actor {
					continue
				}
				switch a.Status {
				case sim.Paused:
					return t.Get("frozen", a.Name)
				case sim.Crashed:
					return t.Get("crashed", a.Name)
				case sim.Done:
					return t.Get("done", a.Name)
				}
			}
		}
		return ""
	}
	switch {
	case e.Step == "acquire" && e.Args[0] == "INCR":
		set := s.Events[e.Seq]
		for i := e.Seq - 1; i >= 0; i-- {
			if isAcquireCmd(s.Events[i]) && s.Events[i].Actor == e.Actor {
				set = s.Events[i]
				break
			}
		}
		return t.Get("acq-ok", e.Actor, stamp(set.At), pxSent(set).Milliseconds(), strings.TrimPrefix(e.Reply, "(integer) "))
	case isAcquireCmd(e) && e.Reply == "OK":
		return t.Get("acq-ok", e.Actor, stamp(e.At), pxSent(e).Milliseconds())
	case isAcquireCmd(e) && e.Reply == "(nil)":
		holder := keyOwnerBefore(s.Events, e.Seq)
		if frozenAt(s.Events, holder, e.Seq) {
			return t.Get("acq-nil-frozen", e.Actor, stamp(e.At), holder)
		}
		return t.Get("acq-nil", e.Actor, stamp(e.At), orName(holder, t))
	case isAcquireCmd(e):
		return t.Get("failed", e.Actor, e.Reply)
	}
	if w, ok := isWrite(e); w {
		lend, held := "", true
		for _, b := range beliefs(s.Events) {
			if b.actor == e.Actor && b.from < e.Seq {
				lend, held = stamp(b.leaseEnd), e.At < b.leaseEnd
			}
		}
		// The resource answers an accepted write with its count of them.
		n, _ := strconv.ParseInt(strings.TrimPrefix(e.Reply, "(integer) "), 10, 64)
		switch {
		case !ok:
			return t.Get("write-rejected", e.Actor, e.Args[len(e.Args)-1], maxTokenBefore(s.Events, e.Seq))
		case fenced && maxTokenBefore(s.Events, e.Seq) == 0:
			return t.Get("write-fenced-first", e.Actor, e.Args[len(e.Args)-1])
		case fenced:
			return t.Get("write-fenced", e.Actor, e.Args[len(e.Args)-1], maxTokenBefore(s.Events, e.Seq))
		case held:
			return t.Get("write-ok", e.Actor, stamp(e.At), lend, n, ordinal(n))
		default:
			return t.Get("write-late", e.Actor, stamp(e.At), lend, n, ordinal(n))
		}
	}
	if isReleaseCmd(e) {
		switch e.Reply {
		case "(integer) 1":
			// Did the other believer write while this one held the lock?
			o := findWriteOverlap(s)
			other := o.first.actor
			if other == e.Actor {
				other = o.second.actor
			}
			switch {
			case o.found && o.rejected > 0 && other != e.Actor:
				return t.Get("rel-ok-fenced", e.Actor, other)
			case o.found && len(o.writers) > 1 && other != e.Actor:
				return t.Get("rel-ok-broken", e.Actor, other)
			}
			return t.Get("rel-ok", e.Actor)
		case "(integer) 0":
			section, token, seen := "rel-zero", "", int64(0)
			for _, w := range s.Events[:e.Seq] {
				if isW, ok := isWrite(w); isW && w.Actor == e.Actor {
					section = map[bool]string{true: "rel-zero-wrote", false: "rel-zero-refused"}[ok]
					token, seen = w.Args[len(w.Args)-1], maxTokenBefore(s.Events, w.Seq)
				}
			}
			return t.Get(section, e.Actor, leaseEndOf(s, e.Actor), token, seen)
		}
		return t.Get("failed", e.Actor, e.Reply)
	}
	return ""
}

// ordinal spells a count as an ordinal: 1 → "first", 12 → "12th".
func ordinal(n int64) string {
	words := []string{"zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n >= 0 && int(n) < len(words) {
		return words[n]
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return itoa(n) + suffix
}

// leaseEndOf is when the actor's latest lease ran out, by the PX it sent.
func leaseEndOf(s sim.Snapshot, actor string) string {
	end := ""
	for _, g := range leaseGrants(s.Events) {
		if g.actor == actor {
			end = stamp(g.at + g.ttl)
		}
	}
	return end
}

// frozenAt reports whether the actor was frozen when event seq happened:
// its last pause before it had no wake-up after it.
func frozenAt(events []sim.Event, actor string, seq int) bool {
	frozen := false
	for _, e := range events[:seq] {
		if e.Kind == sim.Fault && e.Actor == actor && actor != "" {
			frozen = strings.Contains(e.Note, "paused")
		}
	}
	return frozen
}

// frozenFor is how long the actor of a resume event had been paused.
func frozenFor(s sim.Snapshot, resume sim.Event) time.Duration {
	for i := resume.Seq - 1; i >= 0; i-- {
		e := s.Events[i]
		if e.Kind == sim.Fault && e.Actor == resume.Actor && strings.Contains(e.Note, "paused") {
			return resume.At - e.At
		}
	}
	return 0
}

// maxTokenBefore is the largest fencing token the resource had accepted
// before event seq, from the replies of earlier fenced writes.
func maxTokenBefore(events []sim.Event, seq int) int64 {
	var m int64
	for _, e := range events[:seq] {
		if w, ok := isWrite(e); w && ok && len(e.Args) > 6 {
			m = max(m, sim.Atoi(e.Args[6]))
		}
	}
	return m
}

// pauseCards draws A and B: what each believes, and what happened to it.
func pauseCards(s sim.Snapshot, fenced bool) []views.Card {
	owner, _, exists := lockKeyState(s)
	var cards []views.Card
	for _, a := range s.Actors {
		first := "token " + short(a.Token)
		if fenced && a.Vars["fence"] != "" {
			first = "fence " + a.Vars["fence"]
		}
		switch a.Vars["holds"] {
		case "yes":
			first += " · believes: holder"
		case "no":
			first += " · not the holder"
		}
		c := views.Card{Name: a.Name, Lines: []string{first, "waiting"}}
		evs := actorCmds(s.Events, a.Name)
		if len(evs) > 0 {
			e := evs[len(evs)-1]
			c.Tone = toneOf(e.Reply)
			switch w, ok := isWrite(e); {
			case w && ok:
				c.Lines[1] = "write accepted: " + e.Reply
			case w:
				c.Lines[1], c.Tone = "write REJECTED by the resource", views.Bad
			case e.Step == "acquire" && e.Args[0] == "INCR":
				c.Lines[1] = "OK · fencing token " + strings.TrimPrefix(e.Reply, "(integer) ")
			case isAcquireCmd(e):
				c.Lines[1] = "acquire → " + e.Reply
			case isReleaseCmd(e):
				c.Lines[1] = "release → " + e.Reply
			}
			if w, _ := isWrite(e); !w && a.Vars["holds"] == "yes" && !(exists && owner == a.Name) {
				c.Lines[1], c.Tone = "thinks it holds: key is gone", views.Bad
				if exists {
					c.Lines[1] = "thinks it holds: key is " + owner + "'s"
				}
			}
		}
		switch a.Status {
		case sim.Paused:
			c.Lines[1], c.Tone = "FROZEN · stop-the-world pause", views.Warn
		case sim.Crashed:
			c.Lines[1], c.Tone = "crashed", views.Bad
		}
		cards = append(cards, c)
	}
	return cards
}

func explainPause(v View, ttl, pause time.Duration, fenced bool) Explanation {
	s, t := v.Snap, v.Text
	ex := Explanation{Cards: pauseCards(s, fenced)}
	o := findWriteOverlap(s)
	broken := o.found && len(o.writers) > 1

	// The readout: the selected actor's latest event, or with nobody
	// selected the story's latest step, whoever took it.
	sel := ""
	if v.Sel >= 0 && v.Sel < len(s.Actors) {
		sel = s.Actors[v.Sel].Name
	}
	var pick *sim.Event
	for i := len(s.Events) - 1; i >= 0 && pick == nil; i-- {
		if sel != "" && s.Events[i].Actor != sel {
			continue
		}
		if pauseSays(v, s.Events[i], fenced) != "" {
			pick = &s.Events[i]
		}
	}
	switch {
	case s.Pos == 0 || pick == nil && sel == "":
		ex.Readout = t.Get("start", secs(ttl), secs(pause))
	case sel != "" && s.Actors[v.Sel].Status == sim.Paused:
		ex.Readout = t.Get("frozen", sel)
	case pick != nil:
		ex.Readout = pauseSays(v, *pick, fenced)
	default:
		ex.Readout = t.Get("waiting", sel)
	}

	var accepted, rejected int64
	if s.Resource != nil {
		accepted, rejected = s.Resource.Accepted, s.Resource.Rejected
	}
	window := t.Get("none")
	switch {
	case len(leaseGrants(s.Events)) == 0:
		window = t.Get("no-holder")
	case o.found && o.open:
		window = t.Get("window-open", stamp(o.from), o.first.actor, o.second.actor)
	case o.found:
		window = t.Get("window", stamp(o.from), stamp(o.to), o.first.actor, o.second.actor)
	}
	{
		ex.Verdict = t.Get("verdict", accepted, rejected, window)
		ex.VerdictTone = views.Good
		if o.found {
			ex.VerdictTone = views.Warn
		}
	}
	if broken {
		ex.Alarm = t.Get("alarm", o.first.actor, o.second.actor, stamp(o.from), stamp(o.to))
		ex.VerdictTone = views.Bad
	}

	// Mutual exclusion is judged where it matters: by the writes the
	// resource accepted. Deadlock freedom: a lapsed lease let B in.
	writes := 0
	for _, e := range s.Events {
		if w, _ := isWrite(e); w {
			writes++
		}
	}
	switch {
	case broken:
		ex.Props[0] = views.Broken
	case writes > 0 && (o.found && o.rejected > 0 || !o.found && pauseRefused(s)):
		ex.Props[0] = views.Held
	}
	if lapsedThenGranted(s.Events, s.Now) {
		ex.Props[1] = views.Held
	}
	return ex
}

// pauseRefused reports whether some acquire got (nil): the lock kept a
// second client out.
func pauseRefused(s sim.Snapshot) bool {
	for _, e := range s.Events {
		if isAcquireCmd(e) && e.Reply == "(nil)" {
			return true
		}
	}
	return false
}

// secs prints a story duration in whole seconds, as the knobs name them.
func secs(d time.Duration) string { return itoa(int64(d/time.Second)) + "s" }
