package scenes

import (
	"time"

	"locksim/content"
	"locksim/scenes/say"
	"locksim/sim"
	"locksim/sim/ledger"
)

// The lost-reply scene's stories, as its s knob names them: the reply to
// A's acquire is lost; the reply to A's release is lost; the reply to A's
// renewal is lost, a renewal sent in time (it runs) or one sent after A's
// lease ran out (it is refused), each with A stopping or going on. The
// names do not say what the server did: that is the renewals' question.
const (
	lrSet       = "lost SET"
	lrDel       = "lost DEL"
	lrRanStop   = "lost renewal: stops"
	lrRanGo     = "lost renewal: goes on"
	lrLateStop  = "late renewal: stops"
	lrLateGo    = "late renewal: goes on"
	lrRenewLost = "lost-renewal" // the renewal stories' sections, by kind
	lrRenewLate = "late-renewal"
)

// The r knob: how A retries its acquire after no reply came. Plain SET NX
// is refused by A's own key; SET … NX … GET (NX with GET since Redis 7.0)
// answers the value the key holds; a GET compares it with A's token.
const (
	lrRetryNX  = "SET NX"
	lrRetryGet = "SET NX GET"
	lrRetryCmp = "GET and compare"
)

// The d knob: how A releases, and so how it retries its release: blind DEL,
// the compare-and-delete script, or DELEX IFEQ (Redis 8.4).
const (
	lrRelDEL    = "DEL"
	lrRelScript = "script"
	lrRelDelex  = "DELEX IFEQ"
)

// lrRetryReads labels a retry that reads the key back (SET … NX … GET, or
// GET and compare): the lost SET's question asks what it answers, so it
// comes before it. lrBAsksFirst labels B's first ask after A gave up (the
// plain retry): the question asks when B can get the lock, so it comes
// before it.
const (
	lrRetryReads = "A retries, reads the key"
	lrBAsksFirst = "B asks at 10 s"
)

// lrNone is a knob's setting shown in a story that sends nothing it sets;
// lrSameRelease is the retry the lost DEL story sends: its release again.
const (
	lrNone        = "none"
	lrSameRelease = "the same release"
)

// The scene's timing, story time. Every deadline a story rests on is a
// whole second from the moment that falls before or after it.
const (
	lrTimeout = time.Second      // how long A waits for a reply
	lrWork    = 5 * time.Second  // A's work before it releases (lost DEL)
	lrRenewAt = 20 * time.Second // A's renewal in "renewal ran"
	lrBAsks   = 35 * time.Second // B asks in the renewal stories
	lrBComes  = 10 * time.Second // B first asks in "lost SET"
	lrMargin  = time.Second      // how far past a lease's end a late ask comes
)

var lrSpec = sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}

// lostReplyScene: the server ran the command, the reply never reached the
// client, and what the client does next, on an acquire, a release and a
// renewal.
func lostReplyScene() *Scene {
	s := &Scene{ID: "lost-reply", Kind: Story, Wait: 5 * time.Second, Shortest: lrMargin}
	s.Knobs = []Knob{
		{Key: "s", Name: "story", Values: []string{lrSet, lrDel, lrRanStop, lrRanGo, lrLateStop, lrLateGo}},
		{Key: "r", Name: "retry", Values: []string{lrRetryNX, lrRetryGet, lrRetryCmp}},
		{Key: "d", Name: "release", Values: []string{lrRelDEL, lrRelScript, lrRelDelex}},
	}
	s.Needs = map[string]string{lrRelDelex: sim.OneDelex}
	// each story sends only its own knob's form: the others are shown as
	// what it sends in their place
	renewal := map[string]string{"retry": lrNone, "release": lrRelScript}
	s.Fixed = map[string]map[string]string{
		lrSet: {"release": lrRelScript}, lrDel: {"retry": lrSameRelease},
		lrRanStop: renewal, lrRanGo: renewal, lrLateStop: renewal, lrLateGo: renewal,
	}
	for r := range 3 {
		s.Variants = append(s.Variants, Params{"story": 0, "retry": r})
	}
	for d := range 3 {
		s.Variants = append(s.Variants, Params{"story": 1, "release": d})
	}
	for st := 2; st < 6; st++ {
		s.Variants = append(s.Variants, Params{"story": st})
	}
	s.Lesson = []Params{{"story": 0}, {"story": 0, "retry": 1}, {"story": 1}, {"story": 1, "release": 1},
		{"story": 2}, {"story": 5}}
	s.Build = func(p Params) sim.Script {
		switch st := s.Value(p, "story"); st {
		case lrSet:
			return lostSetStory(s.Value(p, "retry"))
		case lrDel:
			return lostDelStory(s.Value(p, "release"))
		default:
			return lostRenewalStory(renewalKind(st) == lrRenewLate, goesOn(st))
		}
	}
	s.Say = func(v Frame, said *Said) { sayLostReply(s, v, said) }
	s.Predict = before(func(v Frame) int {
		switch s.Value(v.P, "story") {
		case lrSet:
			if s.Value(v.P, "retry") == lrRetryNX {
				return whenBGets(v)
			}
			return retryReply(v)
		case lrDel:
			return retriedRelease(v)
		}
		return answerOf("A", sim.OpExtend, 2, ledger.LostExtended, ledger.LostNotExtended)(v)
	}, lrBAsksFirst, lrRetryReads, "A retries its release", "A renews, no reply")
	// from the lost SET on, the key as read back says whose it is and how
	// long it lasts
	s.Predict.From = []string{"A acquires, no reply"}
	// held: the glossary's terms each question holds back (section
	// glossary-held, play.GlossaryFor): what a lost reply is answers
	// every one (the server ran the command); what compare-and-delete
	// does, the release's only
	s.Predict.Vars = func(t content.Text, p Params) map[string]string {
		switch st := s.Value(p, "story"); st {
		case lrSet:
			// a retry that reads the key back: what does it answer? A
			// plain SET NX's (nil), after which A gives up: when can B get
			// the lock?
			retry := s.Value(p, "retry")
			vars := map[string]string{"retry": lrRetryCmd(t, retry, lrAsked), "reply": t.Get("reply-nil")}
			if retry == lrRetryNX {
				return map[string]string{"question": t.Fill("question-set", vars),
					"choices": t.Get("choices-set"), "hint1": t.Get("hint-1-set"), "hint2": t.Get("hint-2-set"), "held": t.Get("glossary-held-set")}
			}
			return map[string]string{"question": t.Fill("question-set-reads", vars),
				"choices": t.Get("choices-reads-" + slug(retry)), "hint1": t.Get("hint-1-reads"), "hint2": t.Get("hint-2-reads-" + slug(retry)),
				"held": t.Get("glossary-held-set")}
		case lrDel:
			return map[string]string{"question": t.Fill("question-del", map[string]string{"release": t.Fill("cmd-"+slug(s.Value(p, "release")), map[string]string{"tokA": lrAsked})}),
				"choices": t.Get("choices-del"), "hint1": t.Get("hint-1-del"), "hint2": t.Get("hint-2-del"), "held": t.Get("glossary-held-del")}
		default:
			at := secs(lrRenewAt)
			q := "question-ran"
			if renewalKind(st) == lrRenewLate {
				at, q = secs(sim.CourseTTL+lrMargin), "question-refused"
			}
			return map[string]string{"question": t.Fill(q, map[string]string{"at": at, "ends": secs(lrRenewAt + sim.CourseTTL)}),
				"choices": t.Get("choices-renew"), "hint1": t.Get("hint-1-renew"), "hint2": t.Get("hint-2-renew"), "held": t.Get("glossary-held-renew")}
		}
	}
	return s
}

// renewalKind is a renewal story's kind, lrRenewLost or lrRenewLate; ""
// for the other stories.
func renewalKind(story string) string {
	switch story {
	case lrRanStop, lrRanGo:
		return lrRenewLost
	case lrLateStop, lrLateGo:
		return lrRenewLate
	}
	return ""
}

// goesOn reports a renewal story whose A reads a renewal with no reply as
// done and works on.
func goesOn(story string) bool { return story == lrRanGo || story == lrLateGo }

// lrRetryCmd is the retry the r knob sends, as the question names it.
func lrRetryCmd(t content.Text, retry, tokA string) string {
	return t.Fill("cmd-"+slug(retry), map[string]string{"tokA": tokA})
}

// lrAsked is A's token as a question names it: a question is the same
// for every run (a class polls it), so it names the token, as its
// choices do, where the readout shows the one on A's card.
const lrAsked = "<A's token>"

// slug is a knob value as a section name's tail: "SET NX GET" → "set-nx-get".
func slug(v string) string {
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'A' && c <= 'Z':
			out = append(out, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			out = append(out, c)
		case len(out) > 0 && out[len(out)-1] != '-':
			out = append(out, '-')
		}
	}
	for len(out) > 0 && out[len(out)-1] == '-' {
		out = out[:len(out)-1]
	}
	return string(out)
}

// whenBGets answers the plain retry's question, A having given up: when
// can B get the lock? From B's first ask: 0 its SET got OK (at once);
// refused by a key whose client does not act as holder (A gave up), 1 when
// that key has a TTL, which frees it, 2 when it has none (only a DEL
// would); -1 before B asked, or when the key's client acts as holder (its
// release, not the TTL, would free it).
func whenBGets(v Frame) int {
	for i, e := range v.Snap.Events {
		if e.Actor != "B" || e.Op == nil || e.Op.Kind != sim.OpAcquire || i >= len(v.L.Reads) {
			continue
		}
		rd := v.L.Reads[i]
		switch {
		case e.Unknown():
			return -1
		case rd.What == ledger.Granted:
			return 0
		case rd.What != ledger.Refused || rd.Refusal == nil || rd.Refusal.Blocker == nil:
			return -1
		case v.L.Belief(rd.Refusal.Blocker.Actor).Holds:
			return -1
		case rd.Refusal.Blocker.Expires():
			return 1
		}
		return 2
	}
	return -1
}

// retryReply answers a reading retry's question, what does it answer?,
// from A's first command after its lost SET (SET … NX … GET, or the GET it
// compares): 0 (nil), 1 A's own token, 2 another value; -1 before it was
// sent, or for any other reply.
func retryReply(v Frame) int {
	lost := false
	for _, e := range v.Snap.Events {
		if e.Actor != "A" || e.Op == nil || e.Cmd == "" {
			continue
		}
		if !lost {
			lost = e.Lost
			continue
		}
		if e.Unknown() || e.ErrorReply() {
			return -1
		}
		if e.IsNil() {
			return 0
		}
		if s, ok := e.Val.(string); ok {
			if s == e.Op.Token {
				return 1
			}
			return 2
		}
		return -1
	}
	return -1
}

// retriedRelease answers the lost DEL's question from A's release sent
// again: 0 it deleted B's lock, 1 it deleted nothing (the script's 0 or
// -1, DELEX's 0, a DEL's 0), 2 an error reply; -1 before it was sent.
func retriedRelease(v Frame) int {
	e, rd, ok := v.L.LastOp("A", sim.OpRelease)
	switch {
	case !ok || e.Lost || e.Unknown():
		return -1
	case e.ErrorReply():
		return 2
	case rd.What == ledger.DeletedOther || rd.What == ledger.DeletedUnknown:
		return 0
	}
	return 1
}

// lrStep is a step labelled label.
func lrStep(label string, run func(x *sim.Exec)) sim.Step { return sim.Step{Label: label, Run: run} }

// lrTry asks for the lock unless the actor holds it already.
var lrTry = lrStep("acquire", func(x *sim.Exec) {
	if x.Actor().Holds {
		x.Note(x.Actor().Name + " holds the lock already")
		return
	}
	x.Acquire(lrSpec)
})

// lrTryAgain asks for the lock again unless the actor holds it: a new
// acquire, with a token of its own, which the log says.
var lrTryAgain = lrStep("acquire", func(x *sim.Exec) {
	if x.Actor().Holds {
		x.Note(x.Actor().Name + " holds the lock already")
		return
	}
	lrAgain(x)
})

// lrAgain: the actor asks again, with the fresh token every acquire mints
// (sim.Exec.Acquire), said in the log, so a token that changes on its card
// changes with a word.
func lrAgain(x *sim.Exec) {
	x.Note(x.Actor().Name + " asks again, with a fresh token (each acquire makes its own)")
	x.Acquire(lrSpec)
}

// lrFinish writes to the resource and releases with the script, if the
// actor acts as holder; otherwise it says why not, in words true of the
// replies on screen: A that stopped read its renewal's silence as "not
// renewed" (whether or not the renewal ran: the key may still hold its
// token), and B's SET was refused.
func lrFinish(why string) sim.Step {
	return lrStep("finish", func(x *sim.Exec) {
		a := x.Actor()
		if !a.Holds {
			x.Note(a.Name + " " + why + ", so it does not write")
			return
		}
		x.Write("edit-" + a.Name)
		x.Release("", sim.CourseKey)
	})
}

// lostSetStory: A's SET NX PX runs and its reply is lost; A retries with
// retry, decides on what the retry told it, and B asks at 10 s. A that
// gave up (the plain retry) sends no release, so B asks again at 31 s, a
// second after the lease of A's first SET ends; A that found its token
// releases at 10 s, and B asks again then.
func lostSetStory(retry string) sim.Script {
	a := []sim.Step{
		lrStep("acquire", func(x *sim.Exec) {
			x.LoseReply()
			x.Acquire(lrSpec)
		}),
		lrStep("retry", func(x *sim.Exec) {
			switch retry {
			case lrRetryGet:
				x.AcquireAgain(lrSpec, true)
			case lrRetryCmp:
				if r := x.CheckOwn(lrSpec); r.Nil() {
					x.AcquireAgain(lrSpec, false)
				}
			default:
				x.AcquireAgain(lrSpec, false)
			}
		}),
		lrStep("decide", func(x *sim.Exec) {
			if !x.Actor().Holds {
				x.GiveUpOwn(lrSpec, "it reads its refused retry as another holder")
				return
			}
			// its lease runs from its first SET: PTTL says how much is left
			x.Do("PTTL", x.Key(sim.CourseKey))
		}),
		lrStep("release", sim.IfHolding(func(x *sim.Exec) { x.Release("", sim.CourseKey) })),
	}
	b := []sim.Step{lrTry, lrTryAgain, lrTryAgain}
	retries := sim.Labeled("A", "A retries")
	asks := sim.Labeled("B", lrBAsksFirst)
	again := []sim.Move{
		{Kind: sim.MoveAdvance, D: sim.CourseTTL + lrMargin - lrBComes, Label: "31 s"},
		sim.Labeled("B", "B asks at 31 s"),
	}
	if retry != lrRetryNX {
		retries = sim.Labeled("A", lrRetryReads)
		asks = sim.Labeled("B", "B asks")
		again = []sim.Move{sim.Labeled("B", "B asks again")}
	}
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: a}, {Name: "B", Program: b}},
		Keys:   []string{sim.CourseKey},
		Watch:  []string{sim.CourseKey},
		Moves: append([]sim.Move{
			sim.Labeled("A", "A acquires, no reply"),
			{Kind: sim.MoveAdvance, D: lrTimeout, Label: "1 s: A's timeout fires"},
			retries,
			sim.Labeled("A", "A decides"),
			{Kind: sim.MoveAdvance, D: lrBComes - lrTimeout, Label: "10 s: B comes"},
			asks,
			sim.Labeled("A", "A releases"),
		}, again...),
	}
}

// lrRelease sends A's release in the given form.
func lrRelease(x *sim.Exec, form string) {
	switch form {
	case lrRelScript:
		x.Release("", sim.CourseKey)
	case lrRelDelex:
		x.ReleaseDelex("", sim.CourseKey)
	default:
		x.ReleaseDEL("", sim.CourseKey)
	}
}

// lostDelStory: A's release runs and its reply is lost; B takes the free
// lock; A sends its release again; C asks.
func lostDelStory(form string) sim.Script {
	a := []sim.Step{
		lrStep("acquire", func(x *sim.Exec) { x.Acquire(lrSpec) }),
		lrStep("release", func(x *sim.Exec) {
			x.LoseReply()
			lrRelease(x, form)
		}),
		// sent again, as a client library retries a command that timed out
		lrStep("release again", func(x *sim.Exec) { lrRelease(x, form) }),
	}
	release := lrStep("release", sim.IfHolding(func(x *sim.Exec) { x.Release("", sim.CourseKey) }))
	other := []sim.Step{lrStep("acquire", func(x *sim.Exec) { x.Acquire(lrSpec) }), release}
	return sim.Script{
		Actors: []sim.ActorSpec{{Name: "A", Program: a}, {Name: "B", Program: other}, {Name: "C", Program: other}},
		Keys:   []string{sim.CourseKey},
		Watch:  []string{sim.CourseKey},
		Moves: []sim.Move{
			sim.Labeled("A", "A acquires"),
			{Kind: sim.MoveAdvance, D: lrWork, Label: "5 s: A's work is done"},
			sim.Labeled("A", "A releases, no reply"),
			{Kind: sim.MoveAdvance, D: lrTimeout, Label: "6 s: A's timeout fires"},
			sim.Labeled("B", "B acquires"),
			sim.Labeled("A", "A retries its release"),
			sim.Labeled("C", "C acquires"),
			sim.Labeled("B", "B releases"),
			sim.Labeled("C", "C releases"),
		},
	}
}

// lostRenewalStory: A's renewal (the extend script) runs and its reply is
// lost. In the story where it ran, A renews at 20 s; where it was refused,
// A renews at 31 s, after its lease ran out at 30 s. Either way B asks at
// 35 s and its program goes on at 51 s (it asks again if it was refused),
// so nothing before the question but the renewal's time tells the stories
// apart. assumed is A reading the silence as a renewal: it works on;
// otherwise it stops, unfinished, and sends no release.
func lostRenewalStory(refused, assumed bool) sim.Script {
	renew := lrStep("renew", func(x *sim.Exec) {
		if assumed {
			x.LoseReplyAssumed()
		} else {
			x.LoseReply()
		}
		x.Extend("", sim.CourseKey, x.Actor().Value, sim.CourseTTL)
		if !assumed {
			x.Actor().Holds = false
		}
	})
	a := []sim.Step{lrStep("acquire", func(x *sim.Exec) { x.Acquire(lrSpec) }), renew,
		lrFinish(`took its renewal's silence as "not renewed"`)}
	b := []sim.Step{lrTry, lrStep("again", func(x *sim.Exec) {
		if !x.Actor().Holds {
			lrAgain(x)
		}
		lrFinish("was refused the lock").Run(x)
	})}
	renewAt, again := lrRenewAt, "B asks again"
	if refused {
		// B got the lock at 35 s: its program finishes
		renewAt, again = sim.CourseTTL+lrMargin, "B finishes"
	}
	moves := []sim.Move{
		sim.Labeled("A", "A acquires"),
		{Kind: sim.MoveAdvance, D: renewAt, Label: secs(renewAt)},
		sim.Labeled("A", "A renews, no reply"),
		{Kind: sim.MoveAdvance, D: lrBAsks - renewAt, Label: "35 s: B comes"},
		sim.Labeled("B", "B acquires"),
		sim.Labeled("A", "A finishes"),
		{Kind: sim.MoveAdvance, D: lrRenewAt + sim.CourseTTL + lrMargin - lrBAsks, Label: "51 s"},
		sim.Labeled("B", again),
	}
	return sim.Script{
		Actors:   []sim.ActorSpec{{Name: "A", Program: a}, {Name: "B", Program: b}},
		Keys:     []string{sim.CourseKey},
		Watch:    []string{sim.CourseKey},
		Resource: true,
		Moves:    moves,
	}
}

// sayLostReply: the verdict counts the replies lost, and says where each
// went on the server, from the ledger.
func sayLostReply(s *Scene, v Frame, said *Said) {
	// A's token as A's card shows it
	said.Vars["tokA"] = lrAsked
	for _, a := range v.Snap.Actors {
		if a.Name == "A" && a.Token != "" {
			said.Vars["tokA"] = ShortToken(a.Token)
		}
	}
	said.Vars["retry"] = lrRetryCmd(v.Text, s.Value(v.P, "retry"), said.Vars["tokA"])
	said.Vars["release"] = v.Text.Fill("cmd-"+slug(s.Value(v.P, "release")), map[string]string{"tokA": said.Vars["tokA"]})
	story := s.Value(v.P, "story")
	said.Vars["reading"] = v.Text.Get("read-stops")
	if goesOn(story) {
		said.Vars["reading"] = v.Text.Get("read-goes-on")
	}
	section := "setting-" + slug(story)
	if k := renewalKind(story); k != "" {
		// the two kinds say the same but when A renews, which is what the
		// question asks the learner to reason from (against the TTL)
		section = "setting-renewal"
		said.Vars["renew"] = secs(lrRenewAt)
		if k == lrRenewLate {
			said.Vars["renew"] = secs(sim.CourseTTL + lrMargin)
		}
	}
	said.Vars["asks"] = v.Text.Get("asks-reads")
	if s.Value(v.P, "retry") == lrRetryNX {
		said.Vars["asks"] = v.Text.Get("asks-nx")
	}
	said.Vars["setting"] = v.Text.Fill(section, said.Vars)
	if len(v.L.Reads) == 0 || v.Snap.Pos == 0 {
		return
	}
	lost := len(v.L.LostReplies())
	wasted := len(idleLeases(v.L))
	two := v.Text.Get("none")
	if o := v.L.LatestOverlap(); o != nil {
		two = o.First.Actor + " and " + o.Second.Actor
	}
	said.Verdict = v.Text.Fill("verdict", map[string]string{"lost": itoa(int64(lost)),
		"wasted": itoa(int64(wasted)), "two": two})
	if v.L.LatestOverlap() != nil {
		said.Tone = say.Bad
	} else if wasted > 0 {
		said.Tone = say.Warn
	}
}

// idleLeases are the leases no client worked under to their end: granted
// by an acquire whose reply was lost and never claimed, or given up by a
// holder that read a lost reply as a refusal while the lease still ran.
func idleLeases(l *ledger.Ledger) []*ledger.Lease {
	var out []*ledger.Lease
	for _, ls := range l.Leases {
		var last *ledger.Hold
		for _, h := range l.Holds {
			if h.Lease == ls {
				last = h
			}
		}
		switch {
		case last == nil && !ls.Copy && ls.End != ledger.Released:
			out = append(out, ls)
		case last != nil && last.End == ledger.GaveUp && ls.Expires() && last.ToAt < ls.Ends() && ls.End != ledger.Released:
			out = append(out, ls)
		}
	}
	return out
}
