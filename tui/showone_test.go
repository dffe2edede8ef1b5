package tui

import (
	"locksim/sim/simtest"
	"locksim/views"
	"strings"
	"testing"
	"time"

	checker "locksim/check"
	"locksim/race"
	"locksim/scenes"
	"locksim/sim"
	"locksim/transcript"
)

// getDelEvents is a GET-then-DEL trial as the trials record it: w1's
// 10 ms lease runs out between its GET and its DEL, w2 gets the lock in
// the gap, and w1's DEL deletes w2's lock.
func getDelEvents() []sim.Event {
	op := func(k sim.OpKind, form string, nx bool, ttl time.Duration) *sim.Op {
		return &sim.Op{Kind: k, Form: form, Lock: "lock", Key: "lane0", NX: nx, TTL: ttl}
	}
	us := func(n int) time.Duration { return time.Duration(n) * time.Microsecond }
	ev := []sim.Event{
		{At: 0, Actor: "w1", Cmd: "SET lane0 t1 NX PX 10", Reply: "OK", Val: "OK", Op: op(sim.OpAcquire, sim.FormSET, true, 10*time.Millisecond)},
		{At: us(200), Actor: "w2", Cmd: "SET lane0 t2 NX PX 10", Reply: "(nil)", Op: op(sim.OpAcquire, sim.FormSET, true, 10*time.Millisecond)},
		{At: us(9500), Actor: "w1", Cmd: "GET lane0", Reply: `"t1"`, Op: op(sim.OpCheck, "", false, 0)},
		{At: us(11500), Actor: "w2", Cmd: "SET lane0 t2 NX PX 10", Reply: "OK", Val: "OK", Op: op(sim.OpAcquire, sim.FormSET, true, 10*time.Millisecond)},
		{At: us(11700), Actor: "w1", Cmd: "DEL lane0", Reply: "(integer) 1", Op: op(sim.OpRelease, sim.FormGetDel, false, 0)},
	}
	for i := range ev {
		ev[i].Seq, ev[i].Kind = i, sim.Command
	}
	return ev
}

// trialsWithExample is a finished trials page of the race scene whose
// GET-then-DEL variant counted one release of another's lock, kept as its
// smallest example.
func trialsWithExample(t *testing.T, a *App) *Trials {
	t.Helper()
	tr, err := NewTrials(a.b, 10, race.DefaultConfig(1), a.com)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range race.Variants() {
		c := race.Counts{Variant: v, Trials: 10}
		c.Holders[1], c.Wins = 10, [4]int{3, 3, 2, 2}
		tr.all = append(tr.all, c)
	}
	c := &tr.all[race.GetDel]
	c.Holders[1], c.Holders[2], c.Wins, c.Foreign = 9, 1, [4]int{0, 4, 3, 3}, 1
	ex := &race.Example{Variant: race.GetDel, Trial: 7, Events: getDelEvents()}
	c.Anomalies[checker.ForeignRelease], c.Anomalies[checker.LeaseRanOut] = 1, 1
	c.Examples[checker.ForeignRelease], c.Examples[checker.LeaseRanOut] = ex, ex
	tr.show = int(race.GetDel)
	tr.SetSize(a.com.Width, a.com.Height)
	return tr
}

// openTrials puts tr on screen as t does in the race scene.
func openTrials(a *App, tr *Trials) {
	a.lastTrials = tr
	a.openPage(trialsPage{tr})
}

// TestShowMeOne: the trials page counts the anomalies by kind; picking
// one and pressing enter opens the smallest trial of it as a story of the
// race scene, through a position that carries it; stepping it through
// replays the trial's commands, the history page checks it, and r goes
// back to the race. From the race scene, o opens it again.
func TestShowMeOne(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 80, 24, "")
	openTrials(a, trialsWithExample(t, a))
	drive(t, a, keys("[tab]")...)
	page := views.Strip(a.View())
	for _, want := range []string{"anomalies the checker found: GET, then DEL", "▸ two holders at once", "release deleted another's lock",
		"smallest: trial 7, 5 commands", "enter show me one"} {
		if !strings.Contains(page, want) {
			t.Errorf("the trials page lacks %q:\n%s", want, page)
		}
	}
	// the first kind has no example: enter says so and stays
	drive(t, a, keys("[enter]")...)
	if a.pages.find(isTrials) < 0 || !strings.Contains(views.Strip(a.View()), "no trial of GET, then DEL showed two holders at once") {
		t.Fatalf("enter on a kind with no trial:\n%s", a.View())
	}
	drive(t, a, keys("[down][down][down][enter]")...)
	if a.pages.find(isTrials) >= 0 || a.pl.Trial() == nil || a.pl.Scene.Kind != scenes.Story {
		t.Fatalf("show me one left the trials page open (%v) or opened no trial story (%v)", a.pages.find(isTrials) >= 0, a.pl.Trial())
	}
	if pos := a.pl.Position(); pos.Scene != "race" || pos.Trial == nil || pos.Trial.Trial != 7 || len(pos.Trial.Moves) != 5 {
		t.Errorf("the trial's position is %+v", pos)
	}
	if !strings.Contains(views.Strip(a.View()), "trial 7 of GET, then DEL: release deleted another's lock") {
		t.Errorf("the story does not say which trial it is:\n%s", a.View())
	}
	for a.pl.Snap.Pos < len(a.pl.Snap.Moves) {
		before := a.pl.Snap.Pos
		drive(t, a, keys("n")...)
		if a.pl.Snap.Pos == before {
			t.Fatalf("n did not step the trial at %d: %s", before, a.View())
		}
	}
	log := views.Strip(a.View())
	if !strings.Contains(log, "w1> DEL resource:lock") || a.pl.Ledger.ForeignDeletes() != 1 {
		t.Errorf("stepped to its end, the trial did not delete w2's lock (%d foreign deletes):\n%s", a.pl.Ledger.ForeignDeletes(), log)
	}
	drive(t, a, keys("v")...)
	if page := views.Strip(a.View()); !strings.Contains(page, "client's mutex: not linearizable at w2's acquire") {
		t.Errorf("the trial's history page:\n%s", page)
	}
	drive(t, a, keys("vr")...)
	if a.pl.Trial() != nil || a.pl.Scene.Kind != scenes.Race || !a.com.Keys.Trials.Enabled() {
		t.Fatalf("r in the trial did not go back to the race: kind %v, trial %v", a.pl.Scene.Kind, a.pl.Trial())
	}
	drive(t, a, keys("o")...)
	if a.pl.Trial() == nil || a.pl.Trial().Trial != 7 {
		t.Errorf("o in the race scene did not open the trial again: %s", a.View())
	}
}

// TestShowMeOneFirst: o before any trials ran says what to do.
func TestShowMeOneFirst(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 80, 24, "o")
	if a.pl.Trial() != nil || !strings.Contains(a.View(), "t runs the trials first") {
		t.Errorf("o with no trials run:\n%s", a.View())
	}
}

// TestTrialsAnomaliesGoldens draws the trials page with the anomalies the
// checker counted: at 80x24 in place of the histogram (tab), at 120x40
// with it.
func TestTrialsAnomaliesGoldens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		a := openScene(t, embedded(t), "race", 1, size.w, size.h, "")
		openTrials(a, trialsWithExample(t, a))
		if size.h < 34 {
			drive(t, a, keys("[tab]")...)
		}
		drive(t, a, keys("[down]")...)
		golden(t, "trials-anomalies-"+itoa(int64(size.w))+"x"+itoa(int64(size.h)), a.View())
	}
}

// TestTrialsExplainTheirCounts: at 80x24 the trials page reads its notes
// whole, in both panes: under the histogram the variant's note (its "two
// or more workers believing they hold the lock" against the table), under
// the anomalies how a second holder is counted (two holders, or lease ran
// out), which is why the two columns differ.
func TestTrialsExplainTheirCounts(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 80, 24, "")
	tr := trialsWithExample(t, a)
	openTrials(a, tr)
	flat := func(s string) string { return strings.Join(strings.Fields(views.Strip(s)), " ") }
	holders := a.View()
	golden(t, "trials-holders-80x24", holders)
	note := flat(transcript.TrialsNote(tr.text, tr.all[tr.show], tr.cfg))
	if !strings.Contains(flat(holders), note) {
		t.Errorf("the histogram's note should read whole at 80x24: %q\n%s", note, holders)
	}
	drive(t, a, keys("[tab]")...)
	anomalies := a.View()
	how := flat(tr.text.Get("trials-anomalies"))
	if !strings.Contains(flat(anomalies), how) || !strings.Contains(how, `"two holders"`) || !strings.Contains(how, `"lease ran out"`) {
		t.Errorf("the anomalies' note should say how the two counts differ, whole, at 80x24: %q\n%s", how, anomalies)
	}
	for _, v := range []string{holders, anomalies} {
		for _, l := range strings.Split(views.Strip(v), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
				t.Errorf("a line of the trials page is cut: %q", l)
			}
		}
	}
}
