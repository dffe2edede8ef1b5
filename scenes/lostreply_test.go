package scenes

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/content"

	"locksim/check"
	"locksim/sim"
	"locksim/sim/ledger"
)

// lostStory is what one lost-reply story must come to, read from the
// replies: the ledger's reading of the lost command and of the command
// sent after it, the prediction's answer, the check models' findings, the
// ledger's overlaps and idle leases, and words the final readouts say.
type lostStory struct {
	p        Params
	lost     ledger.What // the lost command's reading
	next     ledger.What // the reading of the command the story turns on after it
	nextOp   sim.OpKind
	answer   int
	mutex    check.Result
	overlaps int
	idle     int
	says     []string // in the lost command's readout, A selected, after the story
}

func lostStories(t *testing.T) []lostStory {
	sc := Find("lost-reply")
	st := func(v string) int { return knobAt(t, sc, "story", v) }
	return []lostStory{
		{p: Params{"story": st(lrSet), "retry": knobAt(t, sc, "retry", lrRetryNX)}, lost: ledger.LostGranted,
			next: ledger.Refused, nextOp: sim.OpAcquire, answer: 1, mutex: check.Linearizable, idle: 1},
		{p: Params{"story": st(lrSet), "retry": knobAt(t, sc, "retry", lrRetryGet)}, lost: ledger.LostGranted,
			next: ledger.FoundOwn, nextOp: sim.OpAcquire, answer: 1, mutex: check.Linearizable},
		{p: Params{"story": st(lrSet), "retry": knobAt(t, sc, "retry", lrRetryCmp)}, lost: ledger.LostGranted,
			next: ledger.FoundOwn, nextOp: sim.OpCheck, answer: 1, mutex: check.Linearizable},
		{p: Params{"story": st(lrDel), "release": knobAt(t, sc, "release", lrRelDEL)}, lost: ledger.ReleasedOwn,
			next: ledger.DeletedOther, nextOp: sim.OpRelease, answer: 0, mutex: check.NotLinearizable, overlaps: 1},
		{p: Params{"story": st(lrDel), "release": knobAt(t, sc, "release", lrRelScript)}, lost: ledger.ReleasedOwn,
			next: ledger.RelTaken, nextOp: sim.OpRelease, answer: 1, mutex: check.Linearizable},
		{p: Params{"story": st(lrDel), "release": knobAt(t, sc, "release", lrRelDelex)}, lost: ledger.ReleasedOwn,
			next: ledger.RelNotDeleted, nextOp: sim.OpRelease, answer: 1, mutex: check.Linearizable},
		{p: Params{"story": st(lrRanStop)}, lost: ledger.LostExtended,
			answer: 0, mutex: check.Linearizable, idle: 1, says: []string{"now ends at +50.000s"}},
		{p: Params{"story": st(lrRanGo)}, lost: ledger.LostExtended,
			answer: 0, mutex: check.Linearizable},
		{p: Params{"story": st(lrLateStop)}, lost: ledger.LostNotExtended,
			answer: 1, mutex: check.Linearizable, says: []string{"renewed nothing"}},
		{p: Params{"story": st(lrLateGo)}, lost: ledger.LostNotExtended,
			answer: 1, mutex: check.NotLinearizable, overlaps: 1, says: []string{"renewed nothing"}},
	}
}

// TestLostReplyStories plays every story of the lost-reply scene on the
// embedded server and checks that the ledger, the prediction's answer,
// the checker's three models and the readouts agree on what the replies
// (and the key read before and after the lost one) say: the lost command
// ran on the server, its client never heard, and what the client sent
// next did what the story says.
func TestLostReplyStories(t *testing.T) {
	sc := Find("lost-reply")
	if len(lostStories(t)) != len(sc.Stories()) {
		t.Fatalf("the test covers %d stories, the scene plays %d", len(lostStories(t)), len(sc.Stories()))
	}
	for _, c := range lostStories(t) {
		t.Run(sc.Describe(c.p), func(t *testing.T) {
			pl := playStory(t, embedded(t), "lost-reply", c.p, 1)
			led := pl.led
			lost := led.LostReplies()
			if len(lost) != 1 || lost[0].Actor != "A" || !lost[0].Lost || !lost[0].Unknown() {
				t.Fatalf("lost replies %+v, want A's one", lost)
			}
			if lost[0].Reply != sim.FormatReply(nil, sim.ErrReplyLost) || strings.Contains(lost[0].Reply, "(error)") {
				t.Errorf("the lost command's reply reads %q", lost[0].Reply)
			}
			if lost[0].Simulated != "" {
				t.Errorf("an embedded run says how a live one played the loss: %q", lost[0].Simulated)
			}
			rd := led.Reads[lost[0].Seq]
			if rd.What != c.lost || !rd.Lost {
				t.Errorf("the lost command reads as %q (lost %v), want %q", rd.What, rd.Lost, c.lost)
			}
			if c.next != "" {
				e, nrd, ok := led.LastOp("A", c.nextOp)
				if !ok || e.Seq == lost[0].Seq || nrd.What != c.next {
					t.Errorf("A's %s after the lost reply reads as %q (%+v), want %q", c.nextOp, nrd.What, e, c.next)
				}
			}
			// the answer as the screen reads it: once the question's move ran
			moves := sc.Build(c.p).Moves
			var labels []string
			for _, m := range moves {
				labels = append(labels, sim.MoveLabel(m))
			}
			at := sc.PredictAt(labels)
			if at < 0 {
				t.Fatal("the story asks no question")
			}
			_, qv := readoutAfter(t, "lost-reply", c.p, moves[at].Label)
			if got := sc.Predict.Answer(qv); got != c.answer {
				t.Errorf("the question's answer is %d, want %d", got, c.answer)
			}
			if n := len(led.Overlaps); n != c.overlaps {
				t.Errorf("%d overlaps, want %d", n, c.overlaps)
			}
			if n := len(idleLeases(led)); n != c.idle {
				t.Errorf("%d leases no one used, want %d", n, c.idle)
			}
			// the models read the same history: a broken mutex exactly
			// where the ledger saw two holders; the server's lease always
			// linearizable, the lost command placed as having run
			h := check.FromSnapshot(pl.snap)
			if f := check.CheckModel(h, check.Server(), check.DefaultTimeout); f.Result != check.Linearizable {
				t.Errorf("the server's lease: %s", f.Result)
			}
			if f := check.CheckModel(h, check.Mutex(), check.DefaultTimeout); f.Result != c.mutex {
				t.Errorf("the client's mutex: %s, want %s", f.Result, c.mutex)
			}
			if (c.mutex == check.NotLinearizable) != (pl.ex.Alarm != "") {
				t.Errorf("alarm %q with the mutex %s", pl.ex.Alarm, c.mutex)
			}
			// the readout of the lost command, after the story, when A's
			// last command is that one
			if len(c.says) > 0 {
				at := lostReadout(t, c.p, lost[0])
				for _, w := range c.says {
					if !strings.Contains(at, w) {
						t.Errorf("the lost renewal's readout does not say %q:\n%s", w, at)
					}
				}
			}
		})
	}
}

// lostReadout is the readout right after the lost command's move, A
// selected.
func lostReadout(t *testing.T, p Params, lost sim.Event) string {
	sc := Find("lost-reply")
	label := sc.Build(p).Moves[lost.Move].Label
	_, v := readoutAfter(t, "lost-reply", p, label)
	v.Sel = 0
	return strings.Join(strings.Fields(Explain(sc, v).Readout), " ")
}

// TestLostSetReadouts: the readouts of the lost SET story say what the
// ledger read, in the order the learner steps: the SET ran unheard; the
// plain retry is refused by A's own key; the retry with GET finds A's own
// token, and the lease still ends 30 s after the first send, not the
// retry (NX refused it, so its PX was not applied: PTTL says 29000 at 1 s).
func TestLostSetReadouts(t *testing.T) {
	sc := Find("lost-reply")
	plain := Params{"story": knobAt(t, sc, "story", lrSet), "retry": knobAt(t, sc, "retry", lrRetryNX)}
	withGet := Params{"story": knobAt(t, sc, "story", lrSet), "retry": knobAt(t, sc, "retry", lrRetryGet)}
	read := func(p Params, label string) (string, Frame) {
		_, v := readoutAfter(t, "lost-reply", p, label)
		v.Sel = 0
		return strings.Join(strings.Fields(Explain(sc, v).Readout), " "), v
	}
	got, _ := read(plain, "A acquires, no reply")
	for _, w := range []string{"got no reply", "holds A's token until +30.000s", "does not act as holder"} {
		if !strings.Contains(got, w) {
			t.Errorf("after the lost SET the readout does not say %q:\n%s", w, got)
		}
	}
	got, v := read(plain, "A retries")
	if !strings.Contains(got, "NX refused it because the key holds A's own token") {
		t.Errorf("after the plain retry:\n%s", got)
	}
	if e, _, _ := v.L.LastOp("A", sim.OpAcquire); !e.IsNil() {
		t.Errorf("the plain retry answered %q, want (nil)", e.Reply)
	}
	got, v = read(withGet, "A decides")
	e, rd, _ := v.L.LastOp("A", sim.OpAcquire)
	if s, _ := e.Val.(string); s != e.Op.Token || rd.What != ledger.FoundOwn {
		t.Errorf("SET … NX … GET answered %q (read %q), want A's own token", e.Reply, rd.What)
	}
	if !v.L.Belief("A").Holds || rd.Lease == nil || rd.Lease.Ends() != sim.CourseTTL {
		t.Errorf("A does not hold the lease of its first SET: %+v", rd.Lease)
	}
	if pttl := sent(v.Snap.Events, "A", "PTTL"); len(pttl) != 1 || pttl[0].Reply != "(integer) 29000" {
		t.Errorf("A's PTTL after the retry: %v, want (integer) 29000", replies(pttl))
	}
	if got, _ := read(withGet, lrRetryReads); !strings.Contains(got, "still ends at +30.000s") {
		t.Errorf("after the retry with GET:\n%s", got)
	}
}

// TestLostReplyRetryShown: a story whose A sends a command again (the same
// command after one whose reply was lost) does not show its retry setting
// as none.
func TestLostReplyRetryShown(t *testing.T) {
	sc := Find("lost-reply")
	b := embedded(t)
	for _, p := range sc.Stories() {
		pl := playStory(t, b, sc.ID, p, 1)
		again := false
		seen := map[string]bool{}
		for _, e := range pl.snap.Events {
			if e.Actor != "A" || e.Cmd == "" {
				continue
			}
			again = again || seen[e.Cmd]
			seen[e.Cmd] = true
		}
		if shown := sc.Shown(p, "retry"); shown == lrNone && again {
			t.Errorf("%s: A sends a command again, but its retry is shown as %q", sc.Describe(p), shown)
		}
	}
}

// TestLostSetStartSaysWhenBAsks: the lost SET story's start line says when B
// asks, and B's SETs are sent at those times: twice at 10 s, around A's
// release, after a retry that found A's token; at 10 s and again later (31
// s) after the plain retry, whose A gave up and releases nothing: the
// start line does not name 31 s, a second past A's TTL, nor A's release,
// either of which would tell
// the question's answer.
func TestLostSetStartSaysWhenBAsks(t *testing.T) {
	sc := Find("lost-reply")
	b := embedded(t)
	text, err := content.Load(sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		retry string
		says  string
		at    []time.Duration
	}{
		{lrRetryNX, "B asks at 10 s, and again later if refused.", []time.Duration{10 * time.Second, 31 * time.Second}},
		{lrRetryGet, "B asks at 10 s, and again later.", []time.Duration{10 * time.Second, 10 * time.Second}},
		{lrRetryCmp, "B asks at 10 s, and again later.", []time.Duration{10 * time.Second, 10 * time.Second}},
	} {
		p := Params{"story": knobAt(t, sc, "story", lrSet), "retry": knobAt(t, sc, "retry", c.retry)}
		run := sim.NewRun(b, sc.Script(p), 1)
		if err := run.Reset(context.Background()); err != nil {
			t.Fatal(err)
		}
		snap := run.Snapshot(context.Background())
		run.Close()
		start := strings.Join(strings.Fields(Explain(sc, Frame{Snap: snap, L: Fold(snap), P: p, Sel: -1, Text: text}).Readout), " ")
		if !strings.Contains(start, c.says) {
			t.Errorf("%s: the start line does not say %q:\n%s", c.retry, c.says, start)
		}
		var at []time.Duration
		for _, e := range sent(playStory(t, b, sc.ID, p, 1).snap.Events, "B", "SET") {
			at = append(at, e.At)
		}
		if !slices.Equal(at, c.at) {
			t.Errorf("%s: B sends SET at %v, want %v", c.retry, at, c.at)
		}
		if c.retry != lrRetryNX {
			// between B's two SETs, A's release
			evs := playStory(t, b, sc.ID, p, 1).snap.Events
			var order []string
			for _, e := range evs {
				if (e.Actor == "B" && len(e.Args) > 0 && e.Args[0] == "SET") || (e.Actor == "A" && e.Step == "release" && e.Cmd != "") {
					order = append(order, e.Actor)
				}
			}
			if !slices.Equal(order, []string{"B", "A", "B"}) {
				t.Errorf("%s: B's SETs and A's release come in the order %v, want B, A, B", c.retry, order)
			}
		}
	}
}

// TestLostSetAsksWhenBGets: after the plain retry's (nil), A gives up, and
// the question is not who holds the lock (the title and the lost reply on
// screen tell that A's own key refused it) but when B can get it. It comes
// after A gave up and before B's first ask, and its answer is read from
// B's replies: refused at 10 s by A's key, whose TTL frees it, which B's OK
// at 31 s, a second after A's lease lapsed, bears out.
func TestLostSetAsksWhenBGets(t *testing.T) {
	sc := Find("lost-reply")
	text, err := content.Load(sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	p := Params{"story": knobAt(t, sc, "story", lrSet), "retry": knobAt(t, sc, "retry", lrRetryNX)}
	q := strings.Join(strings.Fields(sc.Question(text, p, "predict")), " ")
	if strings.Contains(q, "Who holds") || !strings.HasSuffix(q, "When can B get the lock?") {
		t.Errorf("the plain retry's question: %q", q)
	}
	moves := sc.Build(p).Moves
	var labels []string
	for _, m := range moves {
		labels = append(labels, sim.MoveLabel(m))
	}
	at := sc.PredictAt(labels)
	if at < 1 || labels[at] != lrBAsksFirst || labels[at-2] != "A decides" {
		t.Fatalf("the question stands before %d of %v, want before B's first ask, after A decides", at, labels)
	}
	_, v := readoutAfter(t, sc.ID, p, labels[at-1])
	if v.L.Belief("A").Holds || len(sent(v.Snap.Events, "B", "SET")) != 0 {
		t.Errorf("at the question A should have given up, and B not asked yet")
	}
	if got := sc.Predict.Answer(v); got != -1 {
		t.Errorf("before B asks the answer is %d, want -1", got)
	}
	_, v = readoutAfter(t, sc.ID, p, lrBAsksFirst)
	if got := sc.Predict.Answer(v); got != 1 {
		t.Errorf("after B's first ask the answer is %d, want 1 (the TTL)", got)
	}
	pl := playStory(t, embedded(t), sc.ID, p, 1)
	end := Frame{Snap: pl.snap, L: pl.led, P: p, Sel: -1, Text: text}
	if got := sc.Predict.Answer(end); got != 1 {
		t.Errorf("at the story's end the answer is %d, want 1 still", got)
	}
	sets := sent(pl.snap.Events, "B", "SET")
	if len(sets) != 2 || !sets[0].IsNil() || sets[1].Reply != "OK" || sets[1].At != sim.CourseTTL+lrMargin {
		t.Errorf("B's SETs: %v at %v, want (nil) then OK at 31 s", replies(sets), sets)
	}
	if ls := pl.led.Latest("A"); ls == nil || ls.End != ledger.Lapsed || ls.Ends() != sim.CourseTTL {
		t.Errorf("A's lease should lapse at 30 s: %+v", ls)
	}
	_, v = readoutAfter(t, sc.ID, p, lrBAsksFirst)
	v.Sel = 1
	if got := strings.Join(strings.Fields(Explain(sc, v).Readout), " "); !strings.Contains(got, "A does not act as holder, so no release will come. The key stays until its TTL runs out at +30.000s") {
		t.Errorf("B's refusal at 10 s:\n%s", got)
	}
}

// TestWhenBGetsReadsReplies: the plain retry's answer comes from B's
// replies and the key they met, not from the story: B's OK is "at once", a
// key with no TTL whose client gave up is "never".
func TestWhenBGetsReadsReplies(t *testing.T) {
	spec := sim.AcquireSpec{Key: sim.CourseKey, TTL: sim.CourseTTL}
	lostSet := func(spec sim.AcquireSpec) sim.Step {
		return lrStep("acquire", func(x *sim.Exec) {
			x.LoseReply()
			x.Acquire(spec)
			x.GiveUpOwn(spec, "no reply")
		})
	}
	noTTL := spec
	noTTL.NoPX = true
	for _, c := range []struct {
		name string
		a    []sim.Step
		want int
	}{
		{"freed", []sim.Step{lostSet(spec), lrStep("delete", func(x *sim.Exec) { x.Do("DEL", x.Key(sim.CourseKey)) })}, 0},
		{"no TTL", []sim.Step{lostSet(noTTL), lrStep("wait", func(x *sim.Exec) {})}, 2},
		{"TTL", []sim.Step{lostSet(spec), lrStep("wait", func(x *sim.Exec) {})}, 1},
	} {
		script := sim.Script{
			Actors: []sim.ActorSpec{{Name: "A", Program: c.a}, {Name: "B", Program: []sim.Step{lrTry}}},
			Keys:   []string{sim.CourseKey},
			Moves:  []sim.Move{sim.Labeled("A", "A"), sim.Labeled("A", "A again"), sim.Labeled("B", "B")},
		}
		run := sim.NewRun(embedded(t), script, 1)
		t.Cleanup(run.Close)
		ctx := context.Background()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := run.Seek(ctx, len(run.Moves())); err != nil {
			t.Fatal(err)
		}
		snap := run.Snapshot(ctx)
		if got := whenBGets(Frame{Snap: snap, L: Fold(snap), Sel: -1}); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestLostSetReadingRetryAsksItsReply: a retry that reads the key back is
// asked about what it answers, and its choices are replies ((nil), A's
// token, another's), not holders; the answer is the reply it got: A's
// token, for SET … NX … GET (the value already there) and for GET alike;
// the readout then says NX refused the SET, and not of the GET.
func TestLostSetReadingRetryAsksItsReply(t *testing.T) {
	sc := Find("lost-reply")
	text, err := content.Load(sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, retry := range []string{lrRetryGet, lrRetryCmp} {
		p := Params{"story": knobAt(t, sc, "story", lrSet), "retry": knobAt(t, sc, "retry", retry)}
		q := strings.Join(strings.Fields(sc.Question(text, p, "predict")), " ")
		if !strings.HasSuffix(q, "What does it answer?") || strings.Contains(strings.ToLower(q), "who holds") {
			t.Errorf("%s: the question %q", retry, q)
		}
		choices := strings.Split(sc.Question(text, p, "choices"), "\n")
		for i, want := range []string{"(nil):", "A's token:", "another client's token:"} {
			if i >= len(choices) || !strings.HasPrefix(choices[i], want) {
				t.Errorf("%s: choice %d is %q, want a reply, %q", retry, i+1, choices, want)
			}
		}
		_, v := readoutAfter(t, sc.ID, p, lrRetryReads)
		e := sent(v.Snap.Events, "A", map[string]string{lrRetryGet: "SET", lrRetryCmp: "GET"}[retry])
		if len(e) == 0 || e[len(e)-1].Val != e[len(e)-1].Op.Token {
			t.Fatalf("%s: the retry's reply %v, want A's token", retry, replies(e))
		}
		if got := sc.Predict.Answer(v); got != 1 {
			t.Errorf("%s: the answer is %d, want 1 (A's token)", retry, got)
		}
		// the reveal: a GET is no SET that NX refused
		v.Sel = 0
		said := strings.Join(strings.Fields(Explain(sc, v).Readout), " ")
		if nx := strings.Contains(said, "NX refused"); nx != (retry == lrRetryGet) || !strings.Contains(said, "still ends at +30.000s") {
			t.Errorf("%s: the retry's readout:\n%s", retry, said)
		}
	}
}
