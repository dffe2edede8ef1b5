package scenes

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/views"
)

// acceptedWrites returns the resource writes the resource accepted, in order.
func acceptedWrites(s sim.Snapshot) []sim.Event {
	var out []sim.Event
	for _, e := range s.Events {
		if w, ok := isWrite(e); w && ok {
			out = append(out, e)
		}
	}
	return out
}

func TestGCPauseTwoWritesInsideOverlap(t *testing.T) {
	storyBackends(t, func(t *testing.T, b *sim.Backend) {
		run, snap := storyRun(t, b, "gc-pause", Params{}, -1)
		if snap.Resource == nil || snap.Resource.Accepted != 2 || snap.Resource.Rejected != 0 {
			t.Fatalf("the unfenced resource should take both writes: %+v", snap.Resource)
		}
		acqB, _ := lastOf(snap.Events, "B", "acquire")
		if acqB.Reply != "OK" {
			t.Fatalf("B should get the lock once A's lease ran out: %s", acqB.Reply)
		}
		// A's lease, by the PX it sent, had ended before B's OK.
		acqA, _ := lastOf(snap.Events, "A", "acquire")
		if acqA.At+pxSent(acqA) > acqB.At {
			t.Fatalf("A's lease (%v + %v) should end before B's OK at %v", acqA.At, pxSent(acqA), acqB.At)
		}
		o := findWriteOverlap(snap)
		if !o.found || len(o.writers) != 2 || o.accepted != 2 {
			t.Fatalf("want two writers inside one overlap window, got %+v", o)
		}
		for _, w := range acceptedWrites(snap) {
			if w.At < o.from || w.At > o.to {
				t.Errorf("%s's write at %v lies outside the window %v–%v", w.Actor, w.At, o.from, o.to)
			}
		}
		ex := explainAs(t, "gc-pause", Params{}, snap, -1)
		if ex.Props[0] != views.Broken || !strings.Contains(ex.Alarm, "A and B both wrote") {
			t.Errorf("want mutual exclusion broken with an alarm, got %v %q", ex.Props, ex.Alarm)
		}
		if ex := explainAs(t, "gc-pause", Params{}, snap, 0); !strings.Contains(ex.Readout, "lease had ended") {
			t.Errorf("A's readout should say it wrote after its lease ended:\n%s", ex.Readout)
		}
		checkNoKeysLeft(t, b, run)
	})
}

// TestGCPauseFrozenKeepsBelief stops while A is frozen past its lease: the
// key is gone, yet A still believes it holds the lock.
func TestGCPauseFrozenKeepsBelief(t *testing.T) {
	_, snap := storyRun(t, embedded(t), "gc-pause", Params{}, 3)
	if _, exists := lockValue(snap); exists {
		t.Fatal("after 32 s the 30 s lease should be gone")
	}
	a := snap.Actors[0]
	if a.Status != sim.Paused || a.Vars["holds"] != "yes" {
		t.Fatalf("A should be frozen and still believe it holds: %v %v", a.Status, a.Vars)
	}
	ex := explainAs(t, "gc-pause", Params{}, snap, -1)
	if !strings.Contains(ex.Cards[0].Lines[1], "FROZEN") || !strings.Contains(ex.Cards[0].Lines[0], "believes: holder") {
		t.Errorf("A's card should show it frozen and believing: %v", ex.Cards[0].Lines)
	}
}

// TestGCPauseShortPauseNoOverlap: a pause shorter than the TTL leaves A's
// lease running, so B is refused and only A writes.
func TestGCPauseShortPauseNoOverlap(t *testing.T) {
	for _, p := range []Params{{"pause": 2}, {"TTL": 1}} { // 20 s pause; 60 s TTL
		_, snap := storyRun(t, embedded(t), "gc-pause", p, -1)
		if acqB, _ := lastOf(snap.Events, "B", "acquire"); acqB.Reply != "(nil)" {
			t.Fatalf("%v: B should be refused while A's lease runs: %s", p, acqB.Reply)
		}
		if o := findWriteOverlap(snap); o.found {
			t.Errorf("%v: no overlap expected, got %+v", p, o)
		}
		if snap.Resource.Accepted != 1 {
			t.Errorf("%v: only A should write: %+v", p, snap.Resource)
		}
		ex := explainAs(t, "gc-pause", p, snap, -1)
		if ex.Alarm != "" || ex.Props[0] != views.Held {
			t.Errorf("%v: want no alarm and mutual exclusion held, got %q %v", p, ex.Alarm, ex.Props)
		}
	}
	// A 10 s TTL with the 20 s pause overlaps again.
	_, snap := storyRun(t, embedded(t), "gc-pause", Params{"pause": 2, "TTL": 2}, -1)
	if o := findWriteOverlap(snap); !o.found || len(o.writers) != 2 {
		t.Errorf("a 10 s TTL under a 20 s pause should overlap: %+v", o)
	}
}

// TestGCPauseKnobsReachTheServer presses t and g in the app: the PX sent
// and the outcome must follow.
func TestGCPauseKnobsReachTheServer(t *testing.T) {
	a := storyOpen(t, embedded(t), "gc-pause", 80, 24, "tn")
	if e, _ := lastOf(a.pl.snap.Events, "A", "acquire"); !strings.HasSuffix(e.Cmd, "NX PX 60000") {
		t.Fatalf("with the TTL at 60s A should send PX 60000: %s", e.Cmd)
	}
	a = storyOpen(t, embedded(t), "gc-pause", 80, 24, "ggnnnnnnnnnn")
	if !strings.Contains(a.View(), "pause: 20s") || strings.Contains(a.View(), "⚠") {
		t.Errorf("a 20 s pause under a 30 s TTL: no alarm expected:\n%s", a.View())
	}
}

func TestGCPauseGolden(t *testing.T) {
	a := storyOpen(t, embedded(t), "gc-pause", 80, 24, "nnn")
	golden(t, "gc-pause-80x24-frozen", a.View())
	for range 5 {
		drive(t, a, keys("n")...)
	}
	golden(t, "gc-pause-80x24", a.View())
}

func TestGCPausePlain(t *testing.T) {
	var out bytes.Buffer
	if err := Plain(context.Background(), &out, embedded(t), "gc-pause", 1); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"ALARM: A and B both wrote as holder, +32.000s–+35.000s",
		"accepted 2 · rejected 0",
		"B> SET resource:lock",
		"NX PX 30000 → (nil)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "[no text:") || strings.Contains(text, "%!") {
		t.Errorf("transcript has a missing text or a bad verb:\n%s", text)
	}
}

func TestGCPauseRandomPlay(t *testing.T) {
	for seed := range uint64(3) {
		storyRandomPlay(t, "gc-pause", "nnnnbb12eeepxwgt", seed)
	}
}

func TestGCPauseScreenText(t *testing.T) { checkStoryScreenText(t, "gc-pause") }

func TestGCPauseReadoutFollowsStory(t *testing.T) { checkReadoutFollowsStory(t, "gc-pause") }

// checkBeliefIsNotHolding: a client whose lease lapsed only believes it
// holds the lock. Until the scoreboard shows mutual exclusion broken, the
// verdict and alarm must not say two clients hold it; once B is granted
// while A still believes, the verdict says they both believe it.
func checkBeliefIsNotHolding(t *testing.T, id string) {
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range storyPoints(t, id) {
		ex := Find(id).Explain(View{Snap: pt.snap, P: pt.p, Sel: -1, Text: text})
		claim := ex.Verdict + " " + ex.Alarm
		if ex.Props[0] != views.Broken && (ex.Alarm != "" || strings.Contains(claim, "both hold") || strings.Contains(claim, "both held")) {
			t.Errorf("%s: mutual exclusion is %v on the scoreboard, yet the verdict says %q and the alarm %q",
				pt.where, ex.Props[0], ex.Verdict, ex.Alarm)
		}
	}
	_, snap := storyRun(t, embedded(t), id, Params{}, moveIndex(t, id, Params{}, "B acquires")+1)
	ex := explainAs(t, id, Params{}, snap, -1)
	if !strings.Contains(ex.Verdict, "A and B both believe they hold it") || ex.Props[0] != views.Untested {
		t.Errorf("after B's OK, A only believes it holds the lock: verdict %q, mutual exclusion %v", ex.Verdict, ex.Props[0])
	}
}

func TestGCPauseBeliefIsNotHolding(t *testing.T) { checkBeliefIsNotHolding(t, "gc-pause") }

// TestGCPauseWriteCount: the unfenced resource answers a write with its
// count of accepted writes; A's (integer) 2 is explained as the second.
// Nothing in gc-pause speaks of fencing tokens.
func TestGCPauseWriteCount(t *testing.T) {
	_, snap := storyRun(t, embedded(t), "gc-pause", Params{}, moveIndex(t, "gc-pause", Params{}, "A writes")+1)
	w, _ := lastOf(snap.Events, "A", "write")
	if w.Reply != "(integer) 2" {
		t.Fatalf("A's write should be the resource's second: %s", w.Reply)
	}
	ex := explainAs(t, "gc-pause", Params{}, snap, -1)
	if !strings.Contains(ex.Readout, "(integer) 2") || !strings.Contains(ex.Readout, "second") {
		t.Errorf("the readout should explain A's (integer) 2 as the second accepted write:\n%s", ex.Readout)
	}
	text, err := content.Load("gc-pause")
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range storyPoints(t, "gc-pause") {
		for sel := -1; sel < len(pt.snap.Actors); sel++ {
			ex := Find("gc-pause").Explain(View{Snap: pt.snap, P: pt.p, Sel: sel, Text: text})
			if all := ex.Readout + ex.Verdict + ex.Alarm; strings.Contains(all, "fencing") || strings.Contains(all, "largest token") {
				t.Fatalf("%s: gc-pause has no fencing tokens: %q", pt.where, all)
			}
		}
	}
}

// TestGCPauseSelectedActorLatest replays the learner's case: A selected
// after two waits past the end of the story. The readout must explain A's
// latest event, its release, not go back to its write.
func TestGCPauseSelectedActorLatest(t *testing.T) {
	ctx := context.Background()
	run, _ := storyRun(t, embedded(t), "gc-pause", Params{}, -1)
	for range 2 {
		if err := run.Insert(ctx, sim.Advance(5*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	snap := run.Snapshot(ctx)
	if snap.Pos != 12 || len(snap.Moves) != 12 {
		t.Fatalf("want 12/12, got %d/%d", snap.Pos, len(snap.Moves))
	}
	rel, _ := lastOf(snap.Events, "A", "release")
	ex := explainAs(t, "gc-pause", Params{}, snap, 0)
	if !strings.Contains(ex.Readout, "release script returned "+rel.Reply) || strings.Contains(ex.Readout, "wrote to the resource") {
		t.Errorf("A's latest event is its release (%s); the readout says:\n%s", rel.Reply, ex.Readout)
	}
}
