package scenes

import (
	"locksim/content"
	"slices"
	"time"

	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The extend scene's stories, as its s knob names them: the watchdog with
// a pause longer than its lease can bear, the same with a short pause, an
// extension sent with an old handle's token, and a renewal by SET … IFEQ
// … GET after another client took the lapsed lock (whatever r says).
const (
	extLong     = "pause 40 s"
	extShort    = "pause 15 s"
	extStale    = "stale handle"
	extTakenGet = "GET after takeover"
)

// The r knob: how a renewal is sent. The script compares the token and
// sends PEXPIRE; SET … IFEQ (Redis 8.4, Valkey 8.1) does it in one command
// that writes the value again and cannot tell "taken" from "expired".
const (
	extScript  = "script"
	extSetIfeq = "SET IFEQ"
)

// extWork is how long A works, its watchdog renewing, before anything else
// happens: past the first TTL.
const extWork = 45 * time.Second

// extendScene is scene 9: the compare-and-PEXPIRE script, a watchdog that
// renews every third of the TTL, a pause that freezes the watchdog with
// its holder, and an extension with an old token.
func extendScene() *Scene {
	// the tightest margin: A wakes 10 s before its renewed lease ends
	s := &Scene{ID: "extend", Kind: Story, Wait: 5 * time.Second, Shortest: 5 * time.Second}
	s.Knobs = []Knob{
		{Key: "s", Name: "story", Values: []string{extLong, extShort, extStale, extTakenGet}},
		{Key: "r", Name: "renewal", Values: []string{extScript, extSetIfeq}},
	}
	s.Needs = map[string]string{extSetIfeq: sim.OneSetIfeq, extTakenGet: sim.OneSetIfeq}
	// the GET story's renewal is its own, whatever r says
	s.Fixed = map[string]map[string]string{extTakenGet: {"renewal": "SET IFEQ GET"}}
	// every story with each renewal, then the GET story, whose renewal is
	// its own
	for st := range 3 {
		for r := range 2 {
			s.Variants = append(s.Variants, Params{"story": st, "renewal": r})
		}
	}
	s.Variants = append(s.Variants, Params{"story": 3})
	// a presenter's lesson walks the three stories with the script
	s.Lesson = []Params{{"story": 0}, {"story": 1}, {"story": 2}}
	s.Build = func(p Params) sim.Script {
		oneCommand := s.Value(p, "renewal") == extSetIfeq
		switch s.Value(p, "story") {
		case extTakenGet:
			return takenGetStory()
		case extStale:
			return staleStory(oneCommand)
		case extShort:
			return watchdogStory(15*time.Second, oneCommand)
		}
		return watchdogStory(40*time.Second, oneCommand)
	}
	s.Say = func(v Frame, said *Said) { sayExtend(v, said, s.Value(v.P, "story"), s.Value(v.P, "renewal")) }
	// the pause stories ask what B gets ("(nil): alive", "OK: it lapsed",
	// "an error"); the GET story what A's renewal answers
	bGets := answerOf("B", sim.OpAcquire, 2, ledger.Refused, ledger.Granted)
	s.Predict = before(func(v Frame) int {
		if s.Value(v.P, "story") == extTakenGet {
			return getReply(v)
		}
		return bGets(v)
	}, "B asks again", "A renews")
	// held: the glossary's terms each question holds back (section
	// glossary-held, play.GlossaryFor). The pause's question is answered
	// by what a lease, a TTL, a watchdog and a stop-the-world pause are;
	// the GET story's by none of them (its question says A's lease ran
	// out and B took the lock), so it holds none
	s.Predict.Vars = func(t content.Text, p Params) map[string]string {
		if s.Value(p, "story") == extTakenGet {
			return map[string]string{"question": t.Get("question-get"), "choices": t.Get("choices-get"),
				"hint1": t.Get("hint-1-get"), "hint2": t.Get("hint-2-get"), "held": ""}
		}
		pause := 40 * time.Second
		if s.Value(p, "story") == extShort {
			pause = 15 * time.Second
		}
		return map[string]string{"question": t.Fill("question-pause", map[string]string{"asks": secs(extWork + pause)}),
			"choices": t.Get("choices-pause"), "hint1": t.Get("hint-1-pause"), "hint2": t.Get("hint-2-pause"),
			"held": t.Get("glossary-held-pause")}
	}
	return s
}

// getReply is the answer to the GET story's question, read from A's
// renewal: 0 for nil, 1 for a value not A's token (another's: nothing was
// set), 2 for OK or A's own token (renewed); -1 before A renewed.
func getReply(v Frame) int {
	e, _, ok := v.L.LastOp("A", sim.OpExtend)
	switch {
	case !ok || e.Unknown() || e.ErrorReply():
		return -1
	case e.IsNil():
		return 0
	case e.IsOK():
		return 2
	}
	if got, _ := e.Val.(string); got == e.Op.Token {
		return 2
	}
	return 1
}

// extRelease stops the actor's watchdog and, if it believes it holds the
// lock, sends the compare-and-delete script.
var extRelease = sim.Step{Label: "release", Run: func(x *sim.Exec) {
	x.StopTimers()
	sim.IfHolding(func(x *sim.Exec) { x.Release("", sim.CourseKey) })(x)
}}

var extAcquire = sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
	x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL})
}}

// watchdogStory: A takes the lock and starts a watchdog, works past its
// first TTL while B is refused, then freezes for pause; B asks again; A
// wakes (its watchdog's late renewal fires then) and releases.
func watchdogStory(pause time.Duration, oneCommand bool) sim.Script {
	guarded := sim.Step{Label: "acquire", Run: func(x *sim.Exec) {
		if x.Acquire(sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}).OK() {
			if oneCommand {
				x.WatchdogSetIfeq("", sim.CourseKey, sim.CourseTTL)
			} else {
				x.Watchdog("", sim.CourseKey, sim.CourseTTL)
			}
		}
	}}
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "A", Program: []sim.Step{guarded, extRelease}},
			{Name: "B", Program: []sim.Step{extAcquire, extAcquire}},
		},
		Keys:  []string{sim.CourseKey},
		Watch: []string{sim.CourseKey},
		Moves: []sim.Move{
			sim.Labeled("A", "A acquires"),
			sim.Advance(extWork),
			sim.Labeled("B", "B acquires"),
			sim.Pause("A"),
			sim.Advance(pause),
			sim.Labeled("B", "B asks again"),
			sim.Resume("A"),
			sim.Labeled("A", "A releases"),
		},
	}
}

// staleStory: A takes the lock (handle 1) and releases it; handle 1 then
// tries to extend (-1). A takes the lock again (handle 2); handle 1 tries
// again (0), and handle 2 extends (1).
func staleStory(oneCommand bool) sim.Script {
	extendWith := func(n int) sim.Step {
		return sim.Step{Label: "extend", Run: func(x *sim.Exec) {
			tok := x.Handle(n)
			if tok == "" {
				x.Note(x.Actor().Name + " has no handle " + itoa(int64(n)) + ": nothing to extend")
				return
			}
			if oneCommand {
				x.ExtendSetIfeq("", sim.CourseKey, tok, sim.CourseTTL)
				return
			}
			x.Extend("", sim.CourseKey, tok, sim.CourseTTL)
		}}
	}
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: []sim.Step{
			extAcquire, extRelease, extendWith(1), extAcquire, extendWith(1), extendWith(2), extRelease}}},
		Keys:  []string{sim.CourseKey},
		Watch: []string{sim.CourseKey},
		Moves: []sim.Move{
			sim.Labeled("A", "A acquires"),
			sim.Advance(10 * time.Second),
			sim.Labeled("A", "A releases"),
			sim.Labeled("A", "handle 1 extends"),
			sim.Labeled("A", "A acquires again"),
			sim.Advance(10 * time.Second),
			sim.Labeled("A", "handle 1 again"),
			sim.Labeled("A", "handle 2 extends"),
			sim.Labeled("A", "A releases again"),
		},
	}
}

// takenGetStory: A takes the lock and works past its TTL without a
// watchdog; B takes the lapsed lock; A, unaware, renews with SET key token
// IFEQ token GET PX ttl, which answers B's token and sets nothing; A's
// release script then answers 0, and B releases its own lock.
func takenGetStory() sim.Script {
	renew := sim.Step{Label: "extend", Run: func(x *sim.Exec) {
		x.ExtendSetIfeqGet("", sim.CourseKey, x.Actor().Value, sim.CourseTTL)
	}}
	return sim.Script{
		Actors: []sim.ActorSpec{
			{Name: "A", Program: []sim.Step{extAcquire, renew, extRelease}},
			{Name: "B", Program: []sim.Step{extAcquire, extRelease}},
		},
		Keys:  []string{sim.CourseKey},
		Watch: []string{sim.CourseKey},
		Moves: []sim.Move{
			sim.Labeled("A", "A acquires"),
			sim.Advance(35 * time.Second),
			sim.Labeled("B", "B acquires"),
			sim.Labeled("A", "A renews"),
			sim.Labeled("A", "A releases"),
			sim.Labeled("B", "B releases"),
		},
	}
}

// sayExtend: the cards mark a running watchdog; the verdict counts A's
// extensions by reply, says whether its watchdog runs, and reads the key.
func sayExtend(v Frame, s *Said, story, renewal string) {
	s.Vars["setting"] = v.Text.Get("setting-" + map[string]string{extLong: "long", extShort: "short", extStale: "stale", extTakenGet: "get"}[story])
	s.Marks, s.Vars["renewed"] = map[string]string{}, ""
	// a watchdog starts with A's grant in the watchdog stories
	dog := "none"
	if story != extStale && story != extTakenGet && v.L.Latest("A") != nil {
		dog = "stopped"
	}
	for _, a := range v.Snap.Actors {
		if !slices.Contains(v.Snap.Timers[a.Name], sim.WatchdogLabel) {
			continue
		}
		s.Marks[a.Name], dog = "watchdog", "running"
		if a.Status == sim.Paused {
			s.Marks[a.Name], dog = "watchdog frozen", "frozen"
		}
	}
	if len(v.L.Reads) == 0 {
		return
	}
	dog = v.Text.Get("dog-" + dog)
	// what the watchdog has done for A's lease, for the clock's readout
	if ls := v.L.Latest("A"); story != extStale && story != extTakenGet && ls != nil && ls.Renewed > 0 && ls.End == ledger.Open {
		times := itoa(int64(ls.Renewed)) + " times"
		if ls.Renewed == 1 {
			times = "once"
		}
		s.Vars["renewed"] = " " + v.Text.Fill("renewed", map[string]string{"times": times, "ends": Stamp(ls.Granted + ls.TTL)})
	}
	rn := v.L.RenewalsOf("A")
	if rn.Refused() > 0 || rn.NoReply > 0 {
		s.Tone = say.Warn
	}
	// the server's refusals and the missing replies stand beside 1, 0 and
	// -1, each only once it happened
	errs := ""
	for _, c := range rn.Errors {
		errs += " · " + v.Text.Fill("tally-error", map[string]string{"code": c.Code, "n": itoa(int64(c.N))})
	}
	if rn.NoReply > 0 {
		errs += " · " + v.Text.Fill("tally-noreply", map[string]string{"n": itoa(int64(rn.NoReply))})
	}
	key := v.Text.Get("key-free")
	if len(v.L.Keys) > 0 {
		switch k := v.L.Keys[0]; {
		case k.Status() != ledger.KeyFree && k.Lease != nil:
			key = v.Text.Fill("key-of", map[string]string{"holder": k.Lease.Actor, "left": itoa(v.storyMS(k.PTTL))})
		case k.Status() != ledger.KeyFree:
			key = v.Text.Get("key-unknown")
		}
	}
	verdict := "verdict"
	switch {
	case story == extTakenGet:
		verdict = "verdict-get" // a value either way: renewed only when it was A's token
	case renewal == extSetIfeq:
		verdict = "verdict-setifeq" // OK and nil: no 0 or -1 to count
	}
	s.Verdict = v.Text.Fill(verdict, map[string]string{"extended": itoa(int64(rn.Extended)), "taken": itoa(int64(rn.Taken)),
		"gone": itoa(int64(rn.Gone)), "notset": itoa(int64(rn.NotSet)), "errors": errs, "watchdog": dog, "key": key})
}
