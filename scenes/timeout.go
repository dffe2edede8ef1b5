package scenes

import (
	"fmt"
	"strings"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The timeout scene's policies, as the m knob names them.
const (
	polFixed  = "every 100 ms"
	polJitter = "jitter+deadline"
	polBlock  = "block: no limit"
	polFast   = "fail fast"
)

// The story's timing: H lets go 0.55 s in, half-way between two rounds of
// retries 100 ms apart, and the story ends 0.65 s later; the retrying
// policies allow 9 retries and a 1 s deadline, so retries every 100 ms run
// out at 0.9 s, and retries 100-200 ms apart reach the deadline.
const (
	toHolder   = "H"
	toRelease  = 550 * time.Millisecond
	toAfter    = 650 * time.Millisecond
	toDelay    = 100 * time.Millisecond
	toRetries  = 9
	toDeadline = time.Second
)

// toPolicies is each knob value's retry policy, and its name in the course
// text's sections.
var toPolicies = map[string]struct {
	slug string
	p    sim.RetryPolicy
}{
	polFixed:  {"fixed", sim.RetryPolicy{Delay: toDelay, Retries: toRetries, Deadline: toDeadline}},
	polJitter: {"jitter", sim.RetryPolicy{Delay: toDelay, Jitter: toDelay, Retries: toRetries, Deadline: toDeadline}},
	polBlock:  {"block", sim.RetryPolicy{Delay: toDelay, Retries: -1}},
	polFast:   {"fast", sim.RetryPolicy{}},
}

// timeoutScene is scene 8: four clients want the lock H holds, and the
// policy knob decides what each does when it is refused.
func timeoutScene() *Scene {
	// H lets go 50 ms from the nearest retries every 100 ms: on a live
	// server that margin must stay well above what the commands take, or
	// the first grant comes before the move that asks about it
	s := &Scene{ID: "timeout", Kind: Story, Wait: time.Second, Shortest: toRelease - 5*toDelay}
	s.Knobs = []Knob{{Key: "m", Name: "policy", Values: []string{polFixed, polJitter, polBlock, polFast}}}
	s.Build = func(p Params) sim.Script { return timeoutStory(toPolicies[s.Value(p, "policy")].p) }
	s.Say = func(v Frame, said *Said) { sayTimeout(v, said, s.Value(v.P, "policy")) }
	s.Predict = before(func(v Frame) int {
		n := 0
		for _, ls := range v.L.Leases {
			if ls.Actor != toHolder {
				n++
			}
		}
		return [...]int{2, 0, 1}[min(n, 2)]
	}, "the next 0.65 s")
	return s
}

func timeoutStory(pol sim.RetryPolicy) sim.Script {
	spec := sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}
	// H's work takes toRelease; then it lets go, on the story's clock as the
	// retries are, so the two fall due in the same order on either server
	holder := []sim.Step{{Label: "acquire", Run: func(x *sim.Exec) {
		if !x.Acquire(spec).OK() {
			return
		}
		x.AfterScheduled("release", toRelease, func(x *sim.Exec) time.Duration {
			x.Release("", sim.CourseKey)
			return 0
		})
	}}}
	try := []sim.Step{{Label: "acquire", Run: func(x *sim.Exec) { x.AcquireRetrying(spec, pol) }}}
	actors := []sim.ActorSpec{{Name: toHolder, Program: holder}}
	moves := []sim.Move{sim.Labeled(toHolder, "H takes the lock")}
	for _, c := range []string{"c1", "c2", "c3", "c4"} {
		actors = append(actors, sim.ActorSpec{Name: c, Program: try})
		moves = append(moves, sim.Labeled(c, c+" tries"))
	}
	after := "the next 0.65 s"
	if pol == (sim.RetryPolicy{}) {
		// failing fast, every client has given up before H lets go: the
		// log has answered how many get the lock, so the story asks nothing
		after += ", nobody waiting"
	}
	moves = append(moves,
		sim.Move{Kind: sim.MoveAdvance, D: toRelease, Label: "0.55 s: H lets go"},
		sim.Move{Kind: sim.MoveAdvance, D: toAfter, Label: after})
	return sim.Script{Actors: actors, Keys: []string{sim.CourseKey}, Watch: []string{sim.CourseKey}, Moves: moves}
}

// sayTimeout: the cards and the verdict count each client's attempts and
// outcome from the ledger; the slots tell the actor the readout explains
// how many tries it has made and what its policy does next.
func sayTimeout(v Frame, s *Said, policy string) {
	slug := toPolicies[policy].slug
	s.Vars["policy"] = v.Text.Get("policy-" + slug)
	s.Vars["retries"], s.Vars["deadline"] = itoa(toRetries), secs(toDeadline)
	s.OwnCards = map[string]say.Card{}
	for _, a := range v.Snap.Actors {
		s.OwnCards[a.Name] = toCard(v, a, v.L.Tally(a.Name), policy == polBlock)
	}
	if name := toFocus(v); name != "" {
		t := v.L.Tally(name)
		s.Vars["tries"], s.Vars["first"] = itoa(int64(t.Attempts)), Stamp(t.First)
		s.Vars["waited"] = sim.FormatSpan(t.Waited(v.Snap.Now))
		s.Vars["counted"] = ""
		if t.Success > 1 {
			s.Vars["counted"] = v.Text.Fill("counted", map[string]string{"first": Stamp(t.First)})
		}
		s.Vars["next"] = v.Text.Get("next-none")
		if name != toHolder {
			s.Vars["next"] = v.Text.Fill("next-"+slug, map[string]string{"waited": s.Vars["waited"]})
		}
	}
	if len(v.L.Reads) == 0 {
		return
	}
	var got, parts []string
	counts := map[string]int{}
	var waited time.Duration
	for _, a := range v.Snap.Actors[1:] { // H first, then c1 to c4
		t := v.L.Tally(a.Name)
		switch {
		case t.Outcome == ledger.Acquired:
			got = append(got, a.Name)
		case a.Status == sim.Crashed:
			counts["crashed"]++
		case t.Outcome == ledger.Trying:
			counts["waiting"]++
			waited += t.Waited(v.Snap.Now)
		case t.Outcome.GaveUp():
			counts[t.Outcome.String()]++
		}
	}
	parts = append(parts, v.Text.Get("v-nobody"))
	if len(got) == 1 {
		parts[0] = v.Text.Fill("v-got", map[string]string{"client": got[0], "try": itoa(int64(v.L.Tally(got[0]).Success))})
	} else if len(got) > 1 {
		parts[0] = v.Text.Fill("v-got-many", map[string]string{"clients": strings.Join(got, ", ")})
	}
	// each count is said in words by its own section of the text
	sections := map[string]string{"failed fast": "v-failed-fast", "retries used up": "v-retries-used-up",
		"deadline passed": "v-deadline-passed", "crashed": "v-crashed"}
	for _, o := range []string{"failed fast", "retries used up", "deadline passed", "waiting", "crashed"} {
		if n := counts[o]; n > 0 && o == "waiting" {
			parts = append(parts, v.Text.Fill("v-waiting", map[string]string{"count": itoa(int64(n)), "waited": secs1(waited)}))
		} else if n > 0 {
			parts = append(parts, v.Text.Fill(sections[o], map[string]string{"count": itoa(int64(n))}))
		}
	}
	colliding, retries, _ := v.L.Collisions()
	verdict := "verdict"
	switch {
	case policy == polFast:
		verdict = "verdict-no-retries" // not "0 of 0 retries in step"
	case retries == 0:
		verdict = "verdict-no-retries-yet"
	}
	s.Verdict = v.Text.Fill(verdict, map[string]string{"outcome": strings.Join(parts, " · "),
		"colliding": itoa(int64(colliding)), "retries": itoa(int64(retries))})
	if len(got) == 0 {
		s.Tone = say.Warn
	}
}

// toFocus is the actor the readout explains: the selected one, else the
// actor of the latest step ("" when the clock moved last).
func toFocus(v Frame) string {
	if v.Sel >= 0 && v.Sel < len(v.Snap.Actors) {
		return v.Snap.Actors[v.Sel].Name
	}
	for i := len(v.Snap.Events) - 1; i >= 0; i-- {
		if e := v.Snap.Events[i]; e.Move >= 0 {
			if e.Kind == sim.Clock {
				return ""
			}
			return e.Actor
		}
	}
	return ""
}

// toCard is a client's card in 12 columns: its tries, then where it stands.
func toCard(v Frame, a sim.Actor, t ledger.Tally, block bool) say.Card {
	b := v.L.Belief(a.Name)
	line, tone := "not yet", say.Dim
	switch {
	case a.Status == sim.Crashed:
		line, tone = "crashed", say.Bad
	case a.Status == sim.Paused:
		line, tone = "FROZEN", say.Warn
	case b.Holds && b.KeyHolds:
		line, tone = "OK · holder", say.Good
	case b.Holds:
		line, tone = "lost it ✗", say.Bad
	case b.Hold != nil && b.Hold.End == ledger.SentRelease:
		line, tone = "released", say.Good
	case t.Outcome == ledger.FailedFast:
		line, tone = "failed fast", say.Warn
	case t.Outcome == ledger.RetriesUsedUp:
		line, tone = "retries out", say.Warn
	case t.Outcome == ledger.DeadlinePassed:
		line, tone = "deadline hit", say.Warn
	case t.Outcome == ledger.Trying && len(v.Snap.Timers[a.Name]) == 0:
		line, tone = "stopped", say.Warn // no answer to act on, or nothing left to try
	case t.Outcome == ledger.Trying && block:
		line, tone = "waits "+secs1(t.Waited(v.Snap.Now)), say.Warn
	case t.Outcome == ledger.Trying:
		line, tone = "retrying", say.Plain
	}
	return say.Card{Lines: []string{"tries " + itoa(int64(t.Attempts)), line}, Tone: tone}
}

// secs1 prints a story duration in seconds with one decimal: 1.2 s.
func secs1(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
