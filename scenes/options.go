package scenes

import (
	"strconv"
	"strings"

	"locksim/content"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// optConstant is the value every worker writes when the token is off.
const optConstant = "locked"

// optIfne is the NX knob's third value: each SET sends IFNE optMarker in
// NX's place (Redis 8.4), a condition meant for a maintenance marker the
// key never holds. IFNE sets a missing key and replaces any other value,
// so it takes a free lock and then overwrites its holder as NX off does.
const (
	optIfne   = "IFNE"
	optMarker = "maintenance"
)

// optionsScene is scene 2: the same story replayed with NX, PX or the token
// switched off, so each option's hazard shows up in the replies.
func optionsScene() *Scene {
	s := &Scene{
		ID: "options", Kind: Story,
		Knobs: []Knob{
			{Key: "e", Name: "NX", Values: []string{"on", "off", optIfne}},
			{Key: "P", Name: "PX", Values: []string{"on", "off"}},
			{Key: "T", Name: "token", Values: []string{"random", "constant"}},
		},
		// in class: all on, then each switched off alone
		Lesson: []Params{{}, {"NX": 1}, {"PX": 1}, {"token": 1}},
		Wait:   5 * time.Second,
		// each wait passes a TTL by 10 s
		Shortest: 10 * time.Second,
		Build:    buildOptions,
		Say:      sayOptions,
		Needs:    map[string]string{optIfne: sim.OneSetIfne},
	}
	// every switch on or off, as the knobs combine, then IFNE in NX's place
	for nx := range 2 {
		for px := range 2 {
			for tok := range 2 {
				s.Variants = append(s.Variants, Params{"NX": nx, "PX": px, "token": tok})
			}
		}
	}
	s.Variants = append(s.Variants, Params{"NX": 2})
	// the choices are "(nil)", "OK", "an error": what w2 gets, or with
	// IFNE what w1's SET on the missing key gets
	w1, w2 := answerOf("w1", sim.OpAcquire, 2, ledger.Refused, ledger.Granted), answerOf("w2", sim.OpAcquire, 2, ledger.Refused, ledger.Granted)
	s.Predict = before(func(v Frame) int {
		if s.Value(v.P, "NX") == optIfne {
			return w1(v)
		}
		return w2(v)
	}, "w1 SET IFNE", "w2 SET")
	s.Predict.Vars = func(t content.Text, p Params) map[string]string {
		which := "w2"
		if s.Value(p, "NX") == optIfne {
			which = "ifne"
		}
		return map[string]string{"question": t.Fill("question-"+which, map[string]string{"cmd": optIfneCmd(p)}), "choices": t.Get("choices-" + which),
			"hint1": t.Get("hint-1-" + which), "hint2": t.Get("hint-2-" + which)}
	}
	return s
}

// optIfneCmd is w1's SET as buildOptions sends it under IFNE, quoted by the
// question: the key and a random token by name, the constant as written,
// PX only when it is on.
func optIfneCmd(p Params) string {
	value := "token"
	if p["token"]%2 == 1 {
		value = optConstant
	}
	cmd := "SET key " + value + " IFNE " + optMarker
	if p["PX"]%2 == 0 {
		cmd += " PX " + strconv.FormatInt(sim.CourseTTL.Milliseconds(), 10)
	}
	return cmd
}

func buildOptions(p Params) sim.Script {
	nx := p["NX"] % 3
	spec := sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL, NoNX: nx == 1, NoPX: p["PX"]%2 == 1}
	first := "w1 SET"
	if nx == 2 {
		spec.IfNe, first = optMarker, "w1 SET IFNE"
	}
	if p["token"]%2 == 1 {
		spec.Value = optConstant
	}
	acquire := sim.Step{Label: "acquire", Run: func(x *sim.Exec) { x.Acquire(spec) }}
	// w2 only tries: granted (NX off), it has no work to do under the lock
	trySpec := spec
	trySpec.Try = true
	try := sim.Step{Label: "acquire", Run: func(x *sim.Exec) { x.Acquire(trySpec) }}
	release := sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.Release("", sim.CourseKey) })}
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "w1", Program: []sim.Step{acquire}},
			{Name: "w2", Program: []sim.Step{try, try}},
			{Name: "w3", Program: []sim.Step{acquire, release}},
			{Name: "w4", Program: []sim.Step{acquire}},
		},
		Keys:  []string{sim.CourseKey},
		Watch: []string{sim.CourseKey},
		Moves: []sim.Move{
			sim.Labeled("w1", first),
			sim.Labeled("w2", "w2 SET"),
			sim.Crash("w1"),
			sim.Advance(40 * time.Second),
			sim.Labeled("w3", "w3 SET"),
			{Kind: sim.MoveAdvance, D: 40 * time.Second, Label: "w3 works 40 s"},
			sim.Labeled("w4", "w4 SET"),
			sim.Labeled("w3", "w3 releases"),
			sim.Labeled("w2", "w2 SET again"),
		},
	}
}

// sayOptions: the verdict names the three hazards, each from the ledger.
func sayOptions(v Frame, s *Said) {
	yes := func(b bool) string {
		if b {
			return "YES"
		}
		return "no"
	}
	var settings []string
	for _, o := range optSettings(v.P) {
		settings = append(settings, v.Text.Get("setting-"+o))
	}
	s.Vars["setting"] = strings.Join(settings, " ")
	if v.P["token"]%2 == 1 {
		s.Value = optConstant
	}
	if len(v.L.Reads) == 0 {
		return
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"two": yes(len(v.L.Overlaps) > 0), "stuck": yes(len(v.L.Stuck()) > 0),
		"deleted": yes(v.L.ForeignDeletes() > 0)})
	if len(v.L.Keys) > 0 && v.L.Keys[0].Status() == ledger.KeyNoTTL {
		s.Tone = say.Warn
	}
}

// optSetting names which switch is off, for the start sentence.
func optSettings(p Params) []string {
	var out []string
	if p["NX"]%3 == 2 {
		out = append(out, "ifne")
	}
	for _, s := range []struct {
		name string
		off  bool
	}{{"nx", p["NX"]%3 == 1}, {"px", p["PX"]%2 == 1}, {"token", p["token"]%2 == 1}} {
		if s.off {
			out = append(out, s.name)
		}
	}
	if out == nil {
		out = []string{"all"}
	}
	return out
}
