package scenes

import (
	"slices"
	"strings"
	"time"

	"locksim/content"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The release scene's methods, as the m knob names them.
const (
	relBlind  = "blind DEL"
	relGetDel = "GET then DEL"
	relScript = "script"
	// relFinally is celery's bug: A is refused, and the release in its
	// finally block runs anyway, a blind DEL of the holder's lock
	relFinally = "DEL in finally when refused"
	// the release in one command: Redis 8.4's DELEX key IFEQ token and
	// Valkey 9.0's DELIFEQ key token, 1 or 0, where the script says 1, 0
	// or -1
	relDelex   = "DELEX IFEQ"
	relDelifeq = "DELIFEQ"
)

// The o knob: does another client take the lock once A's sim.CourseTTL lapses?
const (
	relRival  = "B takes it"
	relNobody = "nobody takes it"
	// relNoLapse is the o knob as the finally story shows it
	relNoLapse = "none"
)

// releaseScene is scene 5: what a release must check, shown by the three
// ways of releasing after A's sim.CourseTTL lapsed during its work.
func releaseScene() *Scene {
	// A's GET lands 2 s before its lease ends: that margin must survive the scale
	s := &Scene{ID: "release", Kind: Story, Wait: 5 * time.Second, Shortest: 2 * time.Second}
	s.Knobs = []Knob{
		{Key: "m", Name: "release", Values: []string{relBlind, relGetDel, relScript, relFinally, relDelex, relDelifeq}},
		{Key: "o", Name: "lapsed lock", Values: []string{relRival, relNobody}},
	}
	// the finally story has no lapsed lock: the o knob does not change it
	for m := range 3 {
		for o := range 2 {
			s.Variants = append(s.Variants, Params{"release": m, "lapsed lock": o})
		}
	}
	s.Variants = append(s.Variants, Params{"release": 3})
	// a presenter's lesson: the four releases of old, then DELEX IFEQ's 0
	// for a lock B has taken
	s.Lesson = append(slices.Clone(s.Variants), Params{"release": 4, "lapsed lock": 0})
	for m := 4; m <= 5; m++ {
		for o := range 2 {
			s.Variants = append(s.Variants, Params{"release": m, "lapsed lock": o})
		}
	}
	s.Needs = map[string]string{relDelex: sim.OneDelex, relDelifeq: sim.OneDelifeq}
	// the finally story's A never held the lock, so no lease of its lapses:
	// its settings line says so, and o changes nothing there
	s.Fixed = map[string]map[string]string{relFinally: {"lapsed lock": relNoLapse}}
	s.Build = func(p Params) sim.Script {
		return buildRelease(s.Value(p, "release"), s.Value(p, "lapsed lock") == relRival)
	}
	s.Say = func(v Frame, said *Said) { sayRelease(v, said, s.Value(v.P, "release")) }
	whose := answerOf("A", sim.OpRelease, 2, ledger.ReleasedOwn, ledger.DeletedOther)
	s.Predict = before(func(v Frame) int {
		if m := s.Value(v.P, "release"); m == relDelex || m == relDelifeq {
			return oneCommandReply(v)
		}
		return whose(v)
	}, "A releases", "A: DEL", "A's finally: DEL")
	// the premise: A's lease lapsed, or (the finally story) A never held
	// the lock and releases anyway; a release in one command is asked what
	// it answers, whether B took the lock or nobody did: 0 either way
	s.Predict.Vars = func(t content.Text, p Params) map[string]string {
		vars := map[string]string{"premise": t.Get("premise-lapsed"), "question": t.Get("question-whose"), "choices": t.Get("choices-whose")}
		switch s.Value(p, "release") {
		case relFinally:
			vars["premise"] = t.Get("premise-finally")
		case relDelex, relDelifeq:
			vars["question"], vars["choices"] = t.Get("question-reply"), t.Get("choices-reply")
			vars["command"] = map[string]string{relDelex: "DELEX key IFEQ token", relDelifeq: "DELIFEQ key token"}[s.Value(p, "release")]
			vars["question"] = strings.ReplaceAll(vars["question"], "{command}", vars["command"])
		}
		return vars
	}
	return s
}

// oneCommandReply is the answer to the question a release in one command
// is asked, read from A's reply: 0 for "1", 1 for "0", 2 for "-1" (the
// script's "already expired", which DELEX and DELIFEQ never answer); -1
// before A released.
func oneCommandReply(v Frame) int {
	e, _, ok := v.L.LastOp("A", sim.OpRelease)
	if !ok {
		return -1
	}
	switch e.Reply {
	case "(integer) 1":
		return 0
	case "(integer) 0":
		return 1
	case "(integer) -1":
		return 2
	}
	return -1
}

func releaseProgram(method string) []sim.Step {
	prog := []sim.Step{{Label: "acquire", Run: func(x *sim.Exec) { x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}) }}}
	switch method {
	case relBlind:
		prog = append(prog, sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.ReleaseDEL("", sim.CourseKey) })})
	case relGetDel:
		prog = append(prog,
			sim.Step{Label: "check", Run: sim.IfHolding(func(x *sim.Exec) { x.Check("", sim.CourseKey) })},
			sim.Step{Label: "delete", Run: func(x *sim.Exec) {
				a := x.Actor()
				switch {
				case !a.Checked:
					x.Note(a.Name + " has not checked the key: nothing to delete")
				case !a.CheckedOwn:
					x.Note(a.Name + "'s GET did not return its token: it leaves the key alone")
				default:
					x.ReleaseChecked("", sim.CourseKey)
				}
			}})
	case relDelex:
		prog = append(prog, sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.ReleaseDelex("", sim.CourseKey) })})
	case relDelifeq:
		prog = append(prog, sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.ReleaseDelifeq("", sim.CourseKey) })})
	case relFinally:
		// the release runs whether or not the acquire succeeded
		prog = append(prog, sim.Step{Label: "release", Run: func(x *sim.Exec) { x.ReleaseDEL("", sim.CourseKey) }})
	default:
		prog = append(prog, sim.Step{Label: "release", Run: sim.IfHolding(func(x *sim.Exec) { x.Release("", sim.CourseKey) })})
	}
	return prog
}

func buildRelease(method string, rival bool) sim.Script {
	actors := []sim.ActorSpec{
		{Name: "A", Program: releaseProgram(method)},
		{Name: "B", Program: releaseProgram(method)},
		{Name: "C", Program: releaseProgram(method)},
	}
	if method == relFinally {
		// B holds the lock; A is refused, and its finally deletes B's key
		return sim.Script{Actors: actors, Keys: []string{sim.CourseKey}, Watch: []string{sim.CourseKey},
			Moves: []sim.Move{
				sim.Labeled("B", "B acquires"),
				sim.Labeled("A", "A is refused"),
				sim.Labeled("A", "A's finally: DEL"),
				sim.Labeled("C", "C acquires"),
			}}
	}
	moves := []sim.Move{sim.Labeled("A", "A acquires")}
	if method == relGetDel {
		// A checks just inside its sim.CourseTTL, then stalls before the DEL.
		moves = append(moves, sim.Advance(28*time.Second), sim.Labeled("A", "A: GET"), sim.Advance(7*time.Second))
	} else {
		moves = append(moves, sim.Advance(35*time.Second))
	}
	if rival {
		moves = append(moves, sim.Labeled("B", "B acquires"))
	}
	if method == relGetDel {
		moves = append(moves, sim.Labeled("A", "A: DEL"))
	} else {
		moves = append(moves, sim.Labeled("A", "A releases"))
	}
	moves = append(moves, sim.Labeled("C", "C acquires"))
	if rival && (method == relScript || method == relDelex || method == relDelifeq) {
		moves = append(moves, sim.Labeled("B", "B releases"))
	}
	return sim.Script{
		Actors: actors,
		Keys:   []string{sim.CourseKey},
		Watch:  []string{sim.CourseKey},
		Moves:  moves,
	}
}

// sayRelease: the verdict is A's release as the ledger read it (its reply,
// whose sim.CourseTTL it ended) and the key read back.
func sayRelease(v Frame, s *Said, method string) {
	s.Vars["method"] = method
	s.Vars["keys"] = v.Text.Get("keys")
	if method == relFinally {
		s.Vars["keys"] = v.Text.Get("keys-finally") // no lapsed lock for o to change
	}
	if len(v.L.Reads) == 0 {
		return
	}
	reply, deleted := v.Text.Get("v-not-yet"), v.Text.Get("v-deleted-nothing")
	if e, rd, ok := v.L.LastOp("A", sim.OpRelease); ok {
		reply = e.Reply
		switch rd.What {
		case ledger.ReleasedOwn:
			deleted = v.Text.Get("v-deleted-own")
		case ledger.DeletedOther:
			deleted, s.Tone = v.Text.Fill("v-deleted-other", map[string]string{"other": rd.Other}), say.Bad
		}
	}
	key := v.Text.Get("v-no-key")
	if len(v.L.Keys) > 0 && v.L.Keys[0].Status() != ledger.KeyFree {
		key = v.Text.Fill("v-key-of", map[string]string{"holder": "another client"})
		if ls := v.L.Keys[0].Lease; ls != nil {
			key = v.Text.Fill("v-key-of", map[string]string{"holder": ls.Actor})
		}
	}
	s.Verdict = v.Text.Fill("verdict", map[string]string{"reply": reply, "deleted": deleted, "key": key})
}
