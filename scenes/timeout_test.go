package scenes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/ledger"
	"locksim/sim/simtest"
)

// The timeout scene's policies as knob settings.
var (
	toFixed  = Params{"policy": 0}
	toJitter = Params{"policy": 1}
	toBlock  = Params{"policy": 2}
	toFail   = Params{"policy": 3}
)

// retriesDue lists the story times the retries (timer-sent acquires) were
// due, by actor, in order.
func retriesDue(events []sim.Event) map[string][]time.Duration {
	out := map[string][]time.Duration{}
	for _, e := range events {
		if e.Kind == sim.Command && e.Timed && e.Op != nil && e.Op.Kind == sim.OpAcquire {
			out[e.Actor] = append(out[e.Actor], e.Due)
		}
	}
	return out
}

// toReadout is the readout with the named actor selected, under p.
func toReadout(t *testing.T, pl played, p Params, name string) string {
	t.Helper()
	text, _ := content.Load("timeout")
	for i, a := range pl.snap.Actors {
		if a.Name == name {
			return Explain(Find("timeout"), Frame{Snap: pl.snap, L: pl.led, P: p, Sel: i, Text: text}).Readout
		}
	}
	t.Fatalf("no actor %s", name)
	return ""
}

// firstAfterRelease is the replies to the retries due at the first story
// millisecond after H's release.
func firstAfterRelease(events []sim.Event) []string {
	var out []string
	released, due := false, time.Duration(-1)
	for _, e := range events {
		switch {
		case e.Op != nil && e.Op.Kind == sim.OpRelease && e.Actor == toHolder:
			released = true
		case released && e.Timed && e.Op != nil && e.Op.Kind == sim.OpAcquire && (due < 0 || e.Due == due):
			due = e.Due
			out = append(out, e.Reply)
		}
	}
	return out
}

// The jittered policy spreads the retries: fewer of them are due in the same
// story millisecond than with the fixed 100 ms, over the same seed; and in
// the millisecond the fixed policy's herd finds the key free, the server
// grants exactly one of them.
func TestTimeoutJitterCollidesLess(t *testing.T) {
	onBothAt(t, timeoutScale, func(t *testing.T, b *sim.Backend) {
		for _, seed := range []uint64{1, 7} {
			fixed, jitter := playStory(t, b, "timeout", toFixed, seed), playStory(t, b, "timeout", toJitter, seed)
			fc, fn, fat := fixed.led.Collisions()
			jc, jn, _ := jitter.led.Collisions()
			if fn == 0 || jn == 0 || fc != fn || fat < 5 {
				t.Fatalf("seed %d: fixed: %d of %d retries collide at %d ms; jitter: %d of %d", seed, fc, fn, fat, jc, jn)
			}
			if jc >= fc {
				t.Errorf("seed %d: jittered retries collide %d times, fixed ones %d", seed, jc, fc)
			}
			// the first retries due after H let go: one OK, the rest (nil)
			if got := firstAfterRelease(fixed.run.Events); strings.Join(got, "|") != "OK|(nil)|(nil)|(nil)" {
				t.Errorf("seed %d: the four retries due first after H let go got %q", seed, got)
			}
			if !b.Live() && !strings.Contains(fixed.ex.Verdict, "33 of 33 retries in step") {
				t.Errorf("seed %d: fixed verdict %q", seed, fixed.ex.Verdict)
			}
		}
	})
}

// The client that gets the lock has its lease counted from the try the
// server granted, not from its first: the ledger says so, the key read back
// agrees, and so does the readout.
// timeoutScale runs the retry stories on a live server at ÷4: a 100 ms
// retry is then 25 ms on the wire, which a busy machine's command latency
// does not reorder.
const timeoutScale = 4

func TestTimeoutLeaseFromTheWinningTry(t *testing.T) {
	onBothAt(t, timeoutScale, func(t *testing.T, b *sim.Backend) {
		for _, p := range []Params{toFixed, toJitter, toBlock} {
			pl := playStory(t, b, "timeout", p, 1)
			var win ledger.Tally
			for _, c := range []string{"c1", "c2", "c3", "c4"} {
				if tl := pl.led.Tally(c); tl.Outcome == ledger.Acquired {
					win = tl
				}
			}
			if win.Lease == nil || win.Success < 2 {
				t.Fatalf("%v: no client got the lock after a retry: %+v", p, win)
			}
			granted := pl.run.Events[win.Lease.Seq]
			if !granted.IsOK() || granted.At != win.Lease.Granted || win.Lease.Granted <= win.First {
				t.Fatalf("%v: %s's lease granted at %v by %q, first try at %v", p, win.Actor, win.Lease.Granted, granted.Reply, win.First)
			}
			if win.Lease.Ends() != win.Lease.Granted+sim.CourseTTL {
				t.Errorf("%v: lease ends %v, granted %v", p, win.Lease.Ends(), win.Lease.Granted)
			}
			// the server's PTTL: a lease from the first try would have less
			// left than half-way between the two counts
			k := pl.snap.Keys[0]
			left := time.Duration(Frame{Snap: pl.snap}.storyMS(k.PTTL)) * time.Millisecond
			fromFirst := sim.CourseTTL - (pl.snap.Now - win.First)
			if k.Value != win.Lease.Token || left <= fromFirst+(win.Lease.Granted-win.First)/2 {
				t.Errorf("%v: %s holds %q with %v left; from its first try it would be %v", p, win.Actor, k.Value, left, fromFirst)
			}
			if r := toReadout(t, pl, p, win.Actor); !strings.Contains(r, Stamp(win.Lease.Granted)+" on try "+itoa(int64(win.Success))) ||
				!strings.Contains(r, "not from its first try at "+Stamp(win.First)) {
				t.Errorf("%v: %s's readout: %s", p, win.Actor, r)
			}
		}
	})
}

// Deadline passed and retries used up are different outcomes, with
// different words on the cards, in the readout and in the verdict; failing
// fast is a third, and blocking is none: its queue only grows.
func TestTimeoutOutcomesAreDistinct(t *testing.T) {
	onBothAt(t, timeoutScale, func(t *testing.T, b *sim.Backend) {
		cases := []struct {
			p                   Params
			out                 ledger.Outcome
			card, readout, verd string
		}{
			{toFixed, ledger.RetriesUsedUp, "retries out", "has used up its 9 retries", "3 ran out of retries"},
			{toJitter, ledger.DeadlinePassed, "deadline hit", "1 s deadline passed at +", "3 hit their deadline"},
			{toFail, ledger.FailedFast, "failed fast", "failing fast", "4 failed fast"},
			{toBlock, ledger.Trying, "waits ", "with no limit: it has waited ", "3 waiting, "},
		}
		for _, c := range cases {
			pl := playStory(t, b, "timeout", c.p, 1)
			n := 0
			for i, a := range pl.snap.Actors[1:] {
				tl := pl.led.Tally(a.Name)
				if tl.Outcome == ledger.Acquired {
					continue
				}
				n++
				if tl.Outcome != c.out {
					t.Errorf("%v: %s %v, want %v", c.p, a.Name, tl.Outcome, c.out)
				}
				if got := pl.ex.Cards[i+1].Lines; !strings.HasPrefix(got[1], c.card) || got[0] != "tries "+itoa(int64(tl.Attempts)) {
					t.Errorf("%v: %s's card %q, want %q", c.p, a.Name, got, c.card)
				}
				if r := toReadout(t, pl, c.p, a.Name); !strings.Contains(r, c.readout) {
					t.Errorf("%v: %s's readout: %s", c.p, a.Name, r)
				}
				switch c.out {
				case ledger.RetriesUsedUp:
					if tl.Attempts != 10 || !b.Live() && tl.At != 900*time.Millisecond {
						t.Errorf("%v: %s gave up after %d tries at %v", c.p, a.Name, tl.Attempts, tl.At)
					}
				case ledger.DeadlinePassed:
					if tl.Attempts > 9 || !b.Live() && tl.At != time.Second {
						t.Errorf("%v: %s gave up after %d tries at %v", c.p, a.Name, tl.Attempts, tl.At)
					}
				case ledger.FailedFast:
					if tl.Attempts != 1 || len(sent(pl.run.Events, a.Name, "PTTL")) > 0 {
						t.Errorf("%v: %s sent %d tries", c.p, a.Name, tl.Attempts)
					}
				}
			}
			if want := map[ledger.Outcome]int{ledger.FailedFast: 4}[c.out]; n != max(want, 3) {
				t.Errorf("%v: %d clients without the lock", c.p, n)
			}
			if !strings.Contains(pl.ex.Verdict, c.verd) {
				t.Errorf("%v: verdict %q, want %q", c.p, pl.ex.Verdict, c.verd)
			}
			// on a live server a slow machine stretches story time, and a
			// client that blocks retries more often within it
			limit := 90
			if b.Live() {
				limit = 200
			}
			if lines := len(pl.snap.Events); lines > limit {
				t.Errorf("%v: %d log lines", c.p, lines)
			}
		}
	})
}

// Blocking with no limit: a second more and the waiting clients have only tried
// more and waited longer; none of them ever reports.
func TestTimeoutBlockOnlyGrows(t *testing.T) {
	ctx := context.Background()
	b := embedded(t)
	sc := Find("timeout")
	run := sim.NewRun(b, sc.Script(toBlock), 1)
	defer run.Close()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, len(run.Moves())); err != nil {
		t.Fatal(err)
	}
	before := Fold(run.Snapshot(ctx))
	if err := run.Insert(ctx, sim.Advance(sc.Wait)); err != nil {
		t.Fatal(err)
	}
	after := Fold(run.Snapshot(ctx))
	for _, c := range []string{"c2", "c3", "c4"} {
		x, y := before.Tally(c), after.Tally(c)
		if y.Outcome != ledger.Trying || y.Attempts != x.Attempts+10 || y.Waited(after.Now) != x.Waited(before.Now)+sc.Wait {
			t.Errorf("%s: %+v then %+v", c, x, y)
		}
	}
}

// A seed repeats a run exactly: replaying the jittered story on the
// embedded server lands on the same retries and replies. On a live server,
// where every wait starts when the last command has answered, the retries
// before H lets go are due at the same story times as on the embedded one.
func TestTimeoutJitterRepeats(t *testing.T) {
	ctx := context.Background()
	play := func(b *sim.Backend) (map[string][]time.Duration, []string, played) {
		run := sim.NewRun(b, Find("timeout").Script(toJitter), 3)
		defer run.Close()
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := run.Seek(ctx, len(run.Moves())); err != nil {
			t.Fatal(err)
		}
		due, got := retriesDue(run.Events), replies(commands(run.Events, "", ""))
		first := played{snap: sim.Snapshot{Events: slices.Clone(run.Events), Scale: b.Scale}}
		if err := run.Seek(ctx, 2); err != nil { // back: a replay
			t.Fatal(err)
		}
		if err := run.Seek(ctx, len(run.Moves())); err != nil {
			t.Fatal(err)
		}
		again, gotAgain := retriesDue(run.Events), replies(commands(run.Events, "", ""))
		for a := range due {
			if !b.Live() && !slices.Equal(due[a], again[a]) {
				t.Errorf("%s: retries due %v, then on replay %v", a, due[a], again[a])
			}
		}
		if !b.Live() && !slices.Equal(got, gotAgain) {
			t.Errorf("replies %q, then on replay %q", got, gotAgain)
		}
		return due, got, first
	}
	emb, embReplies, embPlayed := play(embedded(t))
	before := func(ds []time.Duration) []time.Duration {
		return slices.DeleteFunc(slices.Clone(ds), func(d time.Duration) bool { return d >= toRelease })
	}
	for a := range emb {
		if len(before(emb[a])) < 3 {
			t.Errorf("%s: retries due %v embedded: fewer than three before H lets go", a, emb[a])
		}
	}
	// the live story runs in real time: as TestSameOnEveryServer judges a
	// live play, a run stalled past half the scene's margin proves nothing
	// and is played again, up to three times
	url, margin := simtest.StartRedis(t), Find("timeout").Shortest
	for try := 1; ; try++ {
		live, err := sim.OpenLive(ctx, url, simtest.LiveOptions(timeoutScale))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { live.Close(ctx) })
		onLive, _, livePlayed := play(live)
		var diff []string
		for a := range emb {
			if !slices.Equal(before(emb[a]), before(onLive[a])) {
				diff = append(diff, fmt.Sprintf("%s: retries due %v embedded, %v live", a, emb[a], onLive[a]))
			}
		}
		if len(diff) == 0 {
			break
		}
		// up to the first command that differs: past it the two runs
		// tell different stories, whose commands pair up by chance
		e, l := commandEvents(embPlayed), commandEvents(livePlayed)
		upto := min(len(e), len(l))
		for i := range upto {
			if e[i].Actor != l[i].Actor || len(e[i].Args) == 0 || len(l[i].Args) == 0 || !strings.EqualFold(e[i].Args[0], l[i].Args[0]) {
				upto = i
				break
			}
		}
		late := lateness(embPlayed, livePlayed, upto)
		if late < margin/2 {
			t.Errorf("%s\n(its commands at most %s late of story time)", strings.Join(diff, "\n"), sim.FormatDuration(late))
			break
		}
		if try == 3 {
			t.Skipf("three live runs were stalled past half the %s margin: the machine is too loaded to judge", sim.FormatDuration(margin))
		}
		t.Logf("try %d: a command ran %s late of story time, more than half the %s margin: playing again\n%s",
			try, sim.FormatDuration(late), sim.FormatDuration(margin), strings.Join(diff, "\n"))
	}
	if len(embReplies) < 20 {
		t.Errorf("replies: %q", embReplies)
	}
}
