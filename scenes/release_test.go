package scenes

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"locksim/content"
	"locksim/sim"
	"locksim/sim/simtest"
	"locksim/views"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// storyBackends runs f on the embedded server and on a real redis-server
// (skipped cleanly when the binary is missing), with story time divided by
// 20 on the live one.
func storyBackends(t *testing.T, f func(t *testing.T, b *sim.Backend)) {
	t.Run("embedded", func(t *testing.T) { f(t, embedded(t)) })
	t.Run("live", func(t *testing.T) {
		url := simtest.StartRedis(t)
		b, err := sim.OpenLive(context.Background(), url, 20, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		f(t, b)
	})
}

// storyRun plays scene id with settings p up to move k (all moves if k < 0)
// and returns the run (closed with the test) and its snapshot.
func storyRun(t *testing.T, b *sim.Backend, id string, p Params, k int) (*sim.Run, sim.Snapshot) {
	t.Helper()
	sc := Find(id)
	if sc == nil {
		t.Fatalf("scene %q is not registered", id)
	}
	ctx := context.Background()
	run := sim.NewRun(b, sc.Build(p), 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if k < 0 {
		k = len(run.Moves())
	}
	if err := run.Seek(ctx, k); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot(ctx)
	if snap.Err != "" {
		t.Fatalf("reading back: %s", snap.Err)
	}
	return run, snap
}

// explainAs runs the scene's Explain on snap with actor sel selected (-1: none).
func explainAs(t *testing.T, id string, p Params, snap sim.Snapshot, sel int) Explanation {
	t.Helper()
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return Find(id).Explain(View{Snap: snap, P: p, Sel: sel, Text: text})
}

// storyOpen opens scene id with seed 1 at w x h and presses the keys.
func storyOpen(t *testing.T, b *sim.Backend, id string, w, h int, presses string) *App {
	t.Helper()
	return openScene(t, b, id, 1, w, h, presses)
}

// moveIndex is the index of the move with the given label in the
// schedule of scene id with settings p.
func moveIndex(t *testing.T, id string, p Params, label string) int {
	t.Helper()
	for i, m := range Find(id).Build(p).Moves {
		if m.Label == label {
			return i
		}
	}
	t.Fatalf("no move %q in the schedule", label)
	return -1
}

// lockValue is the lock key as read back: its value, or "" if missing.
func lockValue(s sim.Snapshot) (string, bool) {
	for _, k := range s.Keys {
		if strings.HasSuffix(k.Name, "resource:lock") {
			return k.Value, k.Exists()
		}
	}
	return "", false
}

func tokenOf(t *testing.T, s sim.Snapshot, actor string) string {
	t.Helper()
	for _, a := range s.Actors {
		if a.Name == actor {
			return a.Token
		}
	}
	t.Fatalf("no actor %s", actor)
	return ""
}

// checkNoKeysLeft fails if a reset run left anything on a live server.
func checkNoKeysLeft(t *testing.T, b *sim.Backend, run *sim.Run) {
	t.Helper()
	if !b.Live() {
		return
	}
	ctx := context.Background()
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Admin().DBSize(ctx).Result(); err != nil || n != 0 {
		t.Fatalf("keys left on the server after Reset: %d (%v)", n, err)
	}
}

var (
	relScriptP  = Params{"release": 2}
	relBlindP   = Params{"release": 0}
	relGetDelP  = Params{"release": 1}
	relExpiredP = Params{"release": 2, "lapsed lock": 1}
)

func TestReleaseScriptRefusesStaleToken(t *testing.T) {
	storyBackends(t, func(t *testing.T, b *sim.Backend) {
		// Stop right after A's release: B's key must still be there.
		run, snap := storyRun(t, b, "release", relScriptP, moveIndex(t, "release", relScriptP, "A releases")+1)
		get, ok := lastOf(snap.Events, "A", "release")
		evs := commands(snap.Events, "A", "release")
		if !ok || len(evs) != 2 || evs[0].Args[0] != "EVAL" || evs[0].Reply != "(integer) 0" {
			t.Fatalf("A's release should be an EVAL answering 0, then a GET: %+v", evs)
		}
		if b2 := tokenOf(t, snap, "B"); get.Reply != `"`+b2+`"` {
			t.Errorf("the GET after the 0 should show B's token %s, got %s", b2, get.Reply)
		}
		if v, exists := lockValue(snap); !exists || v != tokenOf(t, snap, "B") {
			t.Errorf("the script must leave B's key alone; read back %q (exists %v)", v, exists)
		}
		ex := explainAs(t, "release", relScriptP, snap, 0)
		if !strings.Contains(ex.Readout, "not the holder") || strings.Contains(ex.Readout, "expired") {
			t.Errorf("A's readout should say it is not the holder (B is):\n%s", ex.Readout)
		}
		if ex.Alarm != "" {
			t.Errorf("no alarm expected: %s", ex.Alarm)
		}

		// The rest of the story: C is refused, B's own release answers 1.
		if err := run.Seek(context.Background(), len(run.Moves())); err != nil {
			t.Fatal(err)
		}
		snap = run.Snapshot(context.Background())
		if c, _ := lastOf(snap.Events, "C", "acquire"); c.Reply != "(nil)" {
			t.Errorf("C should be refused while B holds: %s", c.Reply)
		}
		if r, _ := lastOf(snap.Events, "B", "release"); r.Reply != "(integer) 1" {
			t.Errorf("the holder's release should answer 1: %s", r.Reply)
		}
		if _, exists := lockValue(snap); exists {
			t.Error("after B's release the key should be gone")
		}
		checkNoKeysLeft(t, b, run)
	})
}

func TestReleaseScriptAfterExpiry(t *testing.T) {
	storyBackends(t, func(t *testing.T, b *sim.Backend) {
		run, snap := storyRun(t, b, "release", relExpiredP, -1)
		evs := commands(snap.Events, "A", "release")
		if len(evs) != 2 || evs[0].Reply != "(integer) 0" || evs[1].Reply != "(nil)" {
			t.Fatalf("A's release should answer 0 and the GET (nil): %+v", evs)
		}
		ex := explainAs(t, "release", relExpiredP, snap, 0)
		if !strings.Contains(ex.Readout, "expired") || strings.Contains(ex.Readout, "not the holder") {
			t.Errorf("A's readout should say the lease expired, not that someone else holds it:\n%s", ex.Readout)
		}
		if c, _ := lastOf(snap.Events, "C", "acquire"); c.Reply != "OK" {
			t.Errorf("C should get the free lock: %s", c.Reply)
		}
		checkNoKeysLeft(t, b, run)
	})
}

func TestReleaseBlindDelRemovesB(t *testing.T) {
	storyBackends(t, func(t *testing.T, b *sim.Backend) {
		_, mid := storyRun(t, b, "release", relBlindP, moveIndex(t, "release", relBlindP, "A releases"))
		if v, _ := lockValue(mid); v != tokenOf(t, mid, "B") {
			t.Fatalf("before A's DEL the key should be B's, read back %q", v)
		}
		run, snap := storyRun(t, b, "release", relBlindP, -1)
		if d, _ := lastOf(snap.Events, "A", "release"); d.Cmd != "DEL "+b.Key("resource:lock") || d.Reply != "(integer) 1" {
			t.Fatalf("A's blind DEL should delete a key: %s → %s", d.Cmd, d.Reply)
		}
		if c, _ := lastOf(snap.Events, "C", "acquire"); c.Reply != "OK" {
			t.Fatalf("with B's key gone C gets in: %s", c.Reply)
		}
		if v, _ := lockValue(snap); v != tokenOf(t, snap, "C") {
			t.Errorf("the key should now hold C's token, read back %q", v)
		}
		ex := explainAs(t, "release", relBlindP, snap, -1)
		if ex.Props[0] != views.Broken || !strings.Contains(ex.Alarm, "B still acts as holder") || !strings.Contains(ex.Alarm, "C holds the lock") {
			t.Errorf("C holds the key and B only believes it holds the lock: want mutual exclusion broken and an alarm saying so, got %v %q", ex.Props, ex.Alarm)
		}
		if !strings.Contains(ex.Verdict, "deleted: B's key") || !strings.Contains(ex.Verdict, "lock key: C's token") {
			t.Errorf("the verdict should say A's DEL removed B's key and the key is C's now: %q", ex.Verdict)
		}
		if ex := explainAs(t, "release", relBlindP, snap, 1); !strings.Contains(ex.Readout, "C's token") {
			t.Errorf("B's readout should say the key now holds C's token:\n%s", ex.Readout)
		}
		checkNoKeysLeft(t, b, run)
	})
}

func TestReleaseGetThenDelLosesTheRace(t *testing.T) {
	storyBackends(t, func(t *testing.T, b *sim.Backend) {
		run, snap := storyRun(t, b, "release", relGetDelP, -1)
		get, _ := lastOf(snap.Events, "A", "check")
		del, _ := lastOf(snap.Events, "A", "delete")
		acqB, _ := lastOf(snap.Events, "B", "acquire")
		if get.Reply != `"`+tokenOf(t, snap, "A")+`"` {
			t.Fatalf("A's GET should see its own token: %s", get.Reply)
		}
		if !(get.Seq < acqB.Seq && acqB.Seq < del.Seq) || acqB.Reply != "OK" || del.Reply != "(integer) 1" {
			t.Fatalf("want GET, then B's OK, then a DEL that deletes: %s / %s / %s", get.Reply, acqB.Reply, del.Reply)
		}
		if v, _ := lockValue(snap); v != tokenOf(t, snap, "C") {
			t.Errorf("B's lock was deleted and C took it; read back %q", v)
		}
		ex := explainAs(t, "release", relGetDelP, snap, 0)
		if !strings.Contains(ex.Readout, "removed B's lock") {
			t.Errorf("A's readout should say its DEL removed B's lock:\n%s", ex.Readout)
		}
		checkNoKeysLeft(t, b, run)
	})
}

// TestReleaseKnobChangesProgram presses m until the script is chosen: the
// actors must then run the script, not the DEL they were built with.
func TestReleaseKnobChangesProgram(t *testing.T) {
	a := storyOpen(t, embedded(t), "release", 80, 24, "mmnnnn")
	e, ok := lastOf(a.pl.snap.Events, "A", "release")
	if !ok || !strings.HasPrefix(e.Cmd, "GET") {
		t.Fatalf("after m m the release is the script (then a GET for its 0); A sent %q", e.Cmd)
	}
	if !strings.Contains(a.View(), "release: script") {
		t.Errorf("the knob line should name the script:\n%s", a.View())
	}
}

func TestReleaseGolden(t *testing.T) {
	a := storyOpen(t, embedded(t), "release", 80, 24, "nnnnn")
	golden(t, "release-80x24", a.View())
	b := storyOpen(t, embedded(t), "release", 80, 24, "mmnnnn1")
	golden(t, "release-80x24-script", b.View())
}

func TestReleasePlain(t *testing.T) {
	var out bytes.Buffer
	if err := Plain(context.Background(), &out, embedded(t), "release", 1); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"A> DEL resource:lock → (integer) 1",
		"A> EVAL <release> 1 resource:lock",
		"ALARM: B still acts as holder after A deleted its key, and C holds the lock now",
		"properties: mutual exclusion held",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "[no text:") || strings.Contains(text, "%!") {
		t.Errorf("transcript has a missing text or a bad verb:\n%s", text)
	}
}

// storyRandomPlay presses random scene keys (steps, back, select, enter,
// pause, crash, wait and the knobs) and checks that every screen is
// 24 rows and that every sentence was filled: no missing section, no bad
// fmt verb. It is how learner-made schedules get exercised.
func storyRandomPlay(t *testing.T, id, pool string, seed uint64) {
	t.Helper()
	a := storyOpen(t, embedded(t), id, 80, 24, "")
	r := rand.New(rand.NewPCG(seed, 7))
	pressed := ""
	for range 150 {
		k := string(pool[r.IntN(len(pool))])
		if k == "e" {
			k = "[enter]"
		}
		pressed += k
		drive(t, a, keys(k)...)
		for sel := -1; sel < len(a.pl.snap.Actors); sel++ {
			a.pl.sel = sel
			v := a.View()
			if strings.Contains(v, "[no text:") || strings.Contains(v, "%!") {
				t.Fatalf("after %q (selected %d) the screen has an unfilled sentence:\n%s", pressed, sel, v)
			}
			if n := strings.Count(v, "\n") + 1; n != 24 {
				t.Fatalf("after %q the screen has %d rows:\n%s", pressed, n, v)
			}
		}
	}
}

func TestReleaseRandomPlay(t *testing.T) {
	for seed := range uint64(3) {
		storyRandomPlay(t, "release", "nnnnbb123eeepxwmo", seed)
	}
}

// lastStep is the story's latest event taken by an actor on stage (not a
// clock move, not the scene's setup); ok is false if there is none, or if
// the clock moved after it.
func lastStep(s sim.Snapshot) (sim.Event, bool) {
	if len(s.Events) == 0 || s.Events[len(s.Events)-1].Kind == sim.Clock {
		return sim.Event{}, false
	}
	e := s.Events[len(s.Events)-1]
	for _, a := range s.Actors {
		if a.Name == e.Actor {
			return e, true
		}
	}
	return sim.Event{}, false
}

// checkStoryScreenText explains every point of scene id for every
// selection: no text is missing, a readout fits the three rows it gets at
// 80 columns, and on the story as written the verdict and alarm fit their
// row and the card lines their card.
func checkStoryScreenText(t *testing.T, id string) {
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sc := Find(id)
	for _, pt := range storyPoints(t, id) {
		edited := strings.Contains(pt.where, "inserted")
		for sel := -1; sel < len(pt.snap.Actors); sel++ {
			ex := sc.Explain(View{Snap: pt.snap, P: pt.p, Sel: sel, Text: text})
			where := fmt.Sprintf("%s, selected %d", pt.where, sel)
			all := ex.Readout + ex.Verdict + ex.Alarm
			if ex.Readout == "" || strings.Contains(all, "[no text") || strings.Contains(all, "%!") {
				t.Fatalf("%s: readout %q, verdict %q, alarm %q", where, ex.Readout, ex.Verdict, ex.Alarm)
			}
			if rows := strings.Count(lipgloss.NewStyle().Width(80).Render(ex.Readout), "\n") + 1; rows > 3 {
				t.Errorf("%s: readout takes %d rows at 80 columns: %s", where, rows, ex.Readout)
			}
			if edited {
				continue
			}
			if w := ansi.StringWidth("verdict " + ex.Verdict); w > 80 {
				t.Errorf("%s: verdict is %d columns: %s", where, w, ex.Verdict)
			}
			if w := ansi.StringWidth("⚠ " + ex.Alarm); w > 80 {
				t.Errorf("%s: alarm is %d columns: %s", where, w, ex.Alarm)
			}
			inner := 80/len(ex.Cards) - 4
			for _, c := range ex.Cards {
				for _, l := range c.Lines {
					if w := ansi.StringWidth(l); w > inner {
						t.Errorf("%s: %s's card line %q is cut at 80 columns", where, c.Name, l)
					}
				}
			}
		}
	}
}

// checkReadoutFollowsStory: with nothing selected, the readout explains the
// latest step, exactly as it would with that step's actor selected; at the
// end of every schedule it opens with that actor's name. With an actor
// selected it explains that actor's own latest event, whatever came after.
func checkReadoutFollowsStory(t *testing.T, id string) {
	text, err := content.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sc := Find(id)
	for _, pt := range storyPoints(t, id) {
		e, ok := lastStep(pt.snap)
		if !ok || pt.snap.Pos == 0 {
			continue
		}
		sel := -1
		for i, a := range pt.snap.Actors {
			if a.Name == e.Actor {
				sel = i
			}
		}
		none := sc.Explain(View{Snap: pt.snap, P: pt.p, Sel: -1, Text: text}).Readout
		mine := sc.Explain(View{Snap: pt.snap, P: pt.p, Sel: sel, Text: text}).Readout
		if none != mine {
			t.Errorf("%s: the latest step is %s's (%s), but with nothing selected the readout says\n  %s\nand with %s selected\n  %s",
				pt.where, e.Actor, plainEvent(e), none, e.Actor, mine)
		}
		if pt.final && !strings.HasPrefix(none, e.Actor+" ") && !strings.HasPrefix(none, e.Actor+"'s ") {
			t.Errorf("%s: the story ends with %s's step (%s), yet the readout is about something else:\n  %s",
				pt.where, e.Actor, plainEvent(e), none)
		}
	}
}

func TestReleaseScreenText(t *testing.T) { checkStoryScreenText(t, "release") }

func TestReleaseReadoutFollowsStory(t *testing.T) { checkReadoutFollowsStory(t, "release") }

// TestReleaseAlarmNamesTheKeyHolder: the server never holds two tokens in
// one key, so the alarm must not claim two live leases. It says who holds
// the key (read back) and who only believes it does.
func TestReleaseAlarmNamesTheKeyHolder(t *testing.T) {
	text, err := content.Load("release")
	if err != nil {
		t.Fatal(err)
	}
	alarms := 0
	for _, pt := range storyPoints(t, "release") {
		ex := Find("release").Explain(View{Snap: pt.snap, P: pt.p, Sel: -1, Text: text})
		if ex.Alarm == "" {
			continue
		}
		alarms++
		if strings.Contains(ex.Alarm, "both hold") || strings.Contains(ex.Alarm, "live lease") || strings.Contains(ex.Alarm, "two holders") {
			t.Errorf("%s: the key holds one token at most, yet the alarm claims two holders: %q", pt.where, ex.Alarm)
		}
		owner, _, exists := lockKeyState(pt.snap)
		if strings.Contains(ex.Alarm, "holds the lock now") && (!exists || !strings.Contains(ex.Alarm, owner+" holds the lock now")) {
			t.Errorf("%s: the alarm names a holder the key read back does not show (key: %q, exists %v): %q", pt.where, owner, exists, ex.Alarm)
		}
	}
	if alarms == 0 {
		t.Fatal("no alarm anywhere: the blind DEL story should raise one")
	}
	for _, p := range []Params{relBlindP, relGetDelP} {
		_, snap := storyRun(t, embedded(t), "release", p, -1)
		ex := explainAs(t, "release", p, snap, -1)
		if !strings.Contains(ex.Alarm, "B still acts as holder after A deleted its key, and C holds the lock now") {
			t.Errorf("%v: B only believes it holds the lock, C holds the key: %q", p, ex.Alarm)
		}
	}
}

// TestReleaseAfterCrash: once A has crashed before releasing, its release
// will never run, and the verdict says so.
func TestReleaseAfterCrash(t *testing.T) {
	ctx := context.Background()
	run := sim.NewRun(embedded(t), Find("release").Build(relScriptP), 1)
	t.Cleanup(run.Close)
	if err := run.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := run.Seek(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := run.Insert(ctx, sim.Crash("A")); err != nil {
		t.Fatal(err)
	}
	for pos := 2; pos <= len(run.Moves()); pos++ {
		if err := run.Seek(ctx, pos); err != nil {
			t.Fatal(err)
		}
		ex := explainAs(t, "release", relScriptP, run.Snapshot(ctx), -1)
		if !strings.Contains(ex.Verdict, "A's release → never") {
			t.Errorf("move %d: A crashed before releasing, the verdict should say its release never runs: %q", pos, ex.Verdict)
		}
	}
	if start := explainAs(t, "release", relScriptP, sim.Snapshot{}, -1).Readout; strings.Contains(start, "below") {
		t.Errorf("the settings line is above the log: %q", start)
	}
}
