package play

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"locksim/scenes"
	"locksim/sim"
)

// TrialRecord is one trial of the race's trials as it ran: its way of
// acquiring (race.Variant's name), the anomaly the checker found in it,
// and each worker's commands in the order they were sent, with when each
// was sent since the trial began. A position that carries one opens the
// race scene as a story that sends the same commands in the same order on
// the story clock, one step each, so the learner can step through the
// interleaving that produced the count.
type TrialRecord struct {
	Trial   int         `json:"trial"` // its number in the run, from 1
	Variant string      `json:"variant"`
	Anomaly string      `json:"anomaly,omitempty"`
	Moves   []TrialMove `json:"moves"`
}

// TrialMove is one command of a trial, or a worker's crash: Kind is one of
// TrialKinds; MS is the PX or EXPIRE sent, in milliseconds; US when it was
// sent, in microseconds since the trial began; Reply the reply the trial
// got, as redis-cli prints it.
type TrialMove struct {
	Worker string `json:"worker"`
	US     int64  `json:"us"`
	Kind   string `json:"kind"`
	MS     int64  `json:"ms,omitempty"`
	Reply  string `json:"reply,omitempty"`
}

// TrialKinds are the commands a trial sends, as a TrialMove names them:
// the acquire with and without NX, SETNX and the EXPIRE after it, a plain
// GET (a check before a SET), the GET and the DEL of a release, and a crash.
func TrialKinds() []string {
	return []string{"SET NX PX", "SET PX", "SETNX", "EXPIRE", "GET", "GET mine", "DEL", "crash"}
}

// TrialFrom is the record of a trial from its events (race's, in the order
// sent), with its number, variant and anomaly.
func TrialFrom(trial int, variant, anomaly string, events []sim.Event) TrialRecord {
	rec := TrialRecord{Trial: trial, Variant: variant, Anomaly: anomaly}
	for _, e := range events {
		m := TrialMove{Worker: e.Actor, US: e.At.Microseconds(), Reply: e.Reply}
		switch {
		case e.Kind == sim.Fault && e.Fault == sim.FaultCrash:
			m.Kind, m.Reply = "crash", ""
		case e.Kind != sim.Command:
			continue
		case e.Op == nil, e.Op.Kind == sim.OpPeek:
			m.Kind = "GET" // a check before a SET (the race's carries no lock operation)
		case e.Op.Kind == sim.OpAcquire && e.Op.Form == sim.FormSETNX:
			m.Kind = "SETNX"
		case e.Op.Kind == sim.OpAcquire && e.Op.NX:
			m.Kind, m.MS = "SET NX PX", e.Op.TTL.Milliseconds()
		case e.Op.Kind == sim.OpAcquire:
			m.Kind, m.MS = "SET PX", e.Op.TTL.Milliseconds()
		case e.Op.Kind == sim.OpExpire:
			m.Kind, m.MS = "EXPIRE", e.Op.TTL.Milliseconds()
		case e.Op.Kind == sim.OpCheck:
			m.Kind = "GET mine"
		case e.Op.Kind == sim.OpRelease:
			m.Kind = "DEL"
		default:
			continue
		}
		rec.Moves = append(rec.Moves, m)
	}
	return rec
}

// check reports the first thing in r that cannot be played: a move of an
// unknown kind, a worker outside w1 to w4, a time before the one before it,
// a negative TTL.
func (r *TrialRecord) check() error {
	if len(r.Moves) == 0 {
		return fmt.Errorf("position: a trial with no command")
	}
	var last int64
	for i, m := range r.Moves {
		switch {
		case !slices.Contains(TrialKinds(), m.Kind):
			return fmt.Errorf("position: trial move %d is %q, not one of %s", i+1, m.Kind, strings.Join(TrialKinds(), ", "))
		case !slices.Contains(trialWorkers(), m.Worker):
			return fmt.Errorf("position: trial move %d names worker %q", i+1, m.Worker)
		case m.US < last:
			return fmt.Errorf("position: trial move %d at %d µs comes before the move before it", i+1, m.US)
		case m.MS < 0:
			return fmt.Errorf("position: trial move %d lasts %d ms", i+1, m.MS)
		}
		last = m.US
	}
	return nil
}

func trialWorkers() []string { return []string{"w1", "w2", "w3", "w4"} }

// clone is a copy of r that shares nothing with it; nil for nil.
func (r *TrialRecord) clone() *TrialRecord {
	if r == nil {
		return nil
	}
	c := *r
	c.Moves = slices.Clone(r.Moves)
	return &c
}

// Trial is the trial the session steps through as a story of the race
// scene (see TrialRecord), nil for any other session. Replay goes back from
// it to the race itself.
func (p *Session) Trial() *TrialRecord {
	if k, ok := p.kind.(*storyKind); ok {
		return k.trial
	}
	return nil
}

// trialScene is the race scene as the story of one recorded trial: the
// same text and reading, no question, and a schedule that is the trial.
func trialScene(race *scenes.Scene, rec *TrialRecord) *scenes.Scene {
	sc := *race
	sc.Kind, sc.Predict, sc.Knobs, sc.Variants, sc.Lesson = scenes.Story, nil, nil, nil, nil
	sc.Build = func(scenes.Params) sim.Script { return trialScript(rec) }
	say := race.Say
	sc.Say = func(v scenes.Frame, s *scenes.Said) {
		if say != nil {
			say(v, s)
		}
		if s.Vars == nil {
			s.Vars = map[string]string{}
		}
		s.Vars["trial"], s.Vars["variant"], s.Vars["anomaly"] = fmt.Sprint(rec.Trial), rec.Variant, rec.Anomaly
		if s.Verdict == "" {
			return // nothing granted or refused yet
		}
		replies := v.Text.Get("replies-pending")
		if n, done := rec.differs(v.Snap.Events); done && n == 0 {
			replies = v.Text.Get("replies-same")
		} else if n > 0 {
			replies = v.Text.Fill("replies-differ", map[string]string{"n": fmt.Sprint(n)})
		}
		double := "no"
		if len(v.L.Overlaps) > 0 {
			double = "YES"
		}
		s.Verdict = v.Text.Fill("verdict", map[string]string{"grants": fmt.Sprint(len(v.L.Leases)), "double": double, "replies": replies})
	}
	return &sc
}

// differs counts the replies of a replayed trial's commands that are not
// the trial's (a token counts as a token: the run's are its own), and
// reports whether every command has run.
func (r *TrialRecord) differs(events []sim.Event) (n int, done bool) {
	var got []string
	for _, e := range events {
		if e.Kind == sim.Command && e.Move >= 0 && (e.Op != nil || strings.HasPrefix(e.Cmd, "GET ")) {
			got = append(got, replyKind(e.Reply))
		}
	}
	i := 0
	for _, m := range r.Moves {
		if m.Kind == "crash" {
			continue
		}
		if i >= len(got) {
			return n, false
		}
		if replyKind(m.Reply) != got[i] {
			n++
		}
		i++
	}
	return n, true
}

// replyKind is a reply with any bulk string read as "a value": a replay
// writes its own tokens.
func replyKind(reply string) string {
	if strings.HasPrefix(reply, `"`) {
		return "a value"
	}
	return reply
}

// trialScript sends a trial's commands one step each, in the order they
// were sent, the story clock moved on to each one's time first; the lock
// is the course's key. Each worker's tokens come from the run's seed.
func trialScript(rec *TrialRecord) sim.Script {
	programs := map[string][]sim.Step{}
	var moves []sim.Move
	var at time.Duration
	for _, m := range rec.Moves {
		if d := time.Duration(m.US) * time.Microsecond; d > at {
			moves = append(moves, sim.Advance(d-at))
			at = d
		}
		if m.Kind == "crash" {
			moves = append(moves, sim.Crash(m.Worker))
			continue
		}
		programs[m.Worker] = append(programs[m.Worker], sim.Step{Label: m.Kind, Run: trialStep(m)})
		moves = append(moves, sim.StepOf(m.Worker))
	}
	var actors []sim.ActorSpec
	for _, w := range trialWorkers() {
		actors = append(actors, sim.ActorSpec{Name: w, Program: programs[w]})
	}
	return sim.Script{Actors: actors, Keys: []string{sim.CourseKey}, Watch: []string{sim.CourseKey}, Moves: moves}
}

// trialStep sends one recorded command as the worker's step.
func trialStep(m TrialMove) func(x *sim.Exec) {
	ttl := time.Duration(m.MS) * time.Millisecond
	key := sim.CourseKey
	switch m.Kind {
	case "SET NX PX":
		return func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: key, TTL: ttl}) }
	case "SET PX":
		return func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: key, TTL: ttl, NoNX: true}) }
	case "SETNX":
		return func(x *sim.Exec) { x.AcquireSETNX(key, key) }
	case "EXPIRE":
		return func(x *sim.Exec) { x.ExpireLock(key, key, ttl) }
	case "GET":
		return func(x *sim.Exec) { x.Peek(key, key) }
	case "GET mine":
		return func(x *sim.Exec) { x.Check(key, key) }
	}
	return func(x *sim.Exec) { x.ReleaseChecked(key, key) }
}
