package scenes

import (
	"time"

	"locksim/content"

	"locksim/sim"
	"locksim/sim/ledger"
)

// pauseLead is how long before A wakes that B comes for the lock.
const pauseLead = 3 * time.Second

// gcPauseScene is scene 6: a stop-the-world pause longer than the sim.CourseTTL
// lets two clients act as holder, and the unfenced resource takes both writes.
func gcPauseScene() *Scene {
	// B comes 2 s after A's 30 s lease ends: that margin must survive the scale
	s := &Scene{ID: "gc-pause", Kind: Story, Wait: 5 * time.Second, Shortest: 2 * time.Second}
	// in class: the pause past the lease (two holders), then one shorter
	// than it (B is refused), rather than all nine combinations
	s.Lesson = []Params{{}, {"pause": 2}}
	s.Knobs = []Knob{
		{Key: "g", Name: "pause", Values: []string{"35 s", "70 s", "20 s"}},
		{Key: "t", Name: "TTL", Values: []string{"30 s", "60 s", "10 s"}},
	}
	s.Build = func(p Params) sim.Script {
		return pauseStory(knobDuration(s, p, "TTL"), knobDuration(s, p, "pause"), false)
	}
	s.Say = func(v Frame, said *Said) {
		sayPause(v, said, knobDuration(s, v.P, "TTL"), knobDuration(s, v.P, "pause"))
	}
	s.Predict = before(answerOf("B", sim.OpAcquire, 2, ledger.Refused, ledger.Granted), "B acquires")
	s.Predict.Vars = func(_ content.Text, p Params) map[string]string {
		pause := knobDuration(s, p, "pause")
		return map[string]string{"ttl": secs(knobDuration(s, p, "TTL")), "pause": secs(pause), "asks": secs(pause - pauseLead)}
	}
	return s
}

// pauseStory is the essay's story, shared by gc-pause and fencing: A takes
// the lock, freezes for pause; B comes for the lock pauseLead before A wakes,
// and writes if it got it; A wakes and writes; both release. With fenced,
// every grant carries a fencing token from one atomic script.
func pauseStory(ttl, pause time.Duration, fenced bool) sim.Script {
	acquire := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		if fenced {
			x.AcquireFenced("", sim.CourseKey, fenceKey, ttl)
			return
		}
		x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: ttl})
	}}
	write := sim.Step{Label: "write", Run: func(x *sim.Exec) {
		a := x.Actor()
		if !a.Holds {
			x.Note(a.Name + " did not get the lock: it does not write")
			return
		}
		if fenced {
			x.FencedWrite("edit-"+a.Name, a.Fence)
			return
		}
		x.Write("edit-" + a.Name)
	}}
	release := sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.Release("", sim.CourseKey) })}
	prog := []sim.Step{acquire, write, release}
	keys := []string{sim.CourseKey}
	var setup func(x *sim.Exec)
	if fenced {
		keys = append(keys, fenceKey)
		// the counter is not the lesson: a safety expiry, so a killed run
		// does not leave it behind
		setup = func(x *sim.Exec) { x.Do("SET", x.Key(fenceKey), fenceStart, "PX", x.TTL(sim.SafetyTTL)) }
	}
	return sim.Script{
		Actors:   []sim.ActorSpec{{Name: "A", Program: prog}, {Name: "B", Program: prog}},
		Keys:     keys,
		Watch:    keys,
		Setup:    setup,
		Resource: true,
		Moves: []sim.Move{
			sim.Labeled("A", "A acquires"),
			sim.Pause("A"),
			sim.Advance(pause - pauseLead),
			sim.Labeled("B", "B acquires"),
			sim.Labeled("B", "B writes"),
			sim.Advance(pauseLead),
			sim.Resume("A"),
			sim.Labeled("A", "A writes"),
			sim.Labeled("A", "A releases"),
			sim.Labeled("B", "B releases"),
		},
	}
}

// sayPause: the verdict counts the resource's answers and names the window
// in which two clients acted as holder, from the ledger.
func sayPause(v Frame, s *Said, ttl, pause time.Duration) {
	s.Vars["ttl"], s.Vars["pause"] = secs(ttl), secs(pause)
	s.Vars["where"] = v.Text.Get("resource-own")
	if v.Snap.SharedResource {
		s.Vars["where"] = v.Text.Get("resource-shared")
	}
	// before the first move there is no verdict, as in every scene: the
	// fencing setup's SET is no lock move
	if len(v.L.Reads) == 0 || v.Snap.Pos == 0 {
		return
	}
	accepted, refused := v.L.WriteCounts()
	window := v.Text.Get("none")
	switch o := v.L.LatestOverlap(); {
	case len(v.L.Leases) == 0:
		window = v.Text.Get("no-holder")
	case o != nil && o.Open():
		window = v.Text.Fill("window-open", map[string]string{"from": Stamp(o.FromAt), "first": o.First.Actor, "second": o.Second.Actor})
	case o != nil:
		window = v.Text.Fill("window", map[string]string{"from": Stamp(o.FromAt), "to": Stamp(o.ToAt),
			"first": o.First.Actor, "second": o.Second.Actor})
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"taken": itoa(int64(accepted)), "refused": itoa(int64(refused)), "window": window})
}
