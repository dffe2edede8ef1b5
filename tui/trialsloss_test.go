package tui

import (
	"strings"
	"testing"

	checker "locksim/check"
	"locksim/race"
	"locksim/sim"
	"locksim/transcript"
	"locksim/views"
)

// trialsWithLoss is a finished trials page run with replies lost: every
// variant, the two of a retried release among them, with blind DEL on
// show, whose retry deleted w2's lock in 3 of its trials.
func trialsWithLoss(t *testing.T, a *App) *Trials {
	t.Helper()
	cfg := race.DefaultConfig(1)
	cfg.Loss = 0.3
	tr, err := NewTrials(a.b, 10, cfg, a.com)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range race.VariantsFor(cfg) {
		c := race.Counts{Variant: v, Trials: 10}
		c.Holders[1], c.Wins = 10, [4]int{3, 3, 2, 2}
		tr.all = append(tr.all, c)
	}
	c := &tr.all[race.BlindDel]
	c.Holders[0], c.Holders[1], c.Wins = 4, 6, [4]int{0, 6, 0, 0}
	c.Lost, c.Wasted, c.RetryDeletes = 17, 4, 3
	ev := []sim.Event{
		{Kind: sim.Command, Actor: "w1", Cmd: "SET lane0 t1 NX PX 30000", Reply: "OK", Val: "OK"},
		{Kind: sim.Command, Actor: "w1", Cmd: "DEL lane0", Lost: true, Note: "the server ran it and answered (integer) 1; locksim dropped the reply"},
		{Kind: sim.Command, Actor: "w2", Cmd: "SET lane0 t2 NX PX 30000", Reply: "OK", Val: "OK"},
		{Kind: sim.Command, Actor: "w1", Cmd: "DEL lane0", Reply: "(integer) 1"},
	}
	c.Anomalies[checker.ForeignRelease] = 3
	c.Examples[checker.ForeignRelease] = &race.Example{Variant: race.BlindDel, Trial: 2, Events: ev}
	tr.show = int(race.BlindDel)
	tr.SetSize(a.com.Width, a.com.Height)
	return tr
}

// TestTrialsLossAtSizes: run with replies lost, the trials page cuts no
// line at any size a terminal brings, from 80x24 to 160x50, whichever
// variant is on show, and says, where it has room for its intro, that the
// trials of a retried release ran.
func TestTrialsLossAtSizes(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {100, 30}, {120, 40}, {160, 50}} {
		a := openScene(t, embedded(t), "race", 1, size.w, size.h, "")
		tr := trialsWithLoss(t, a)
		openTrials(a, tr)
		for show := range tr.all {
			tr.show = show
			page := views.Strip(a.View())
			for _, l := range strings.Split(page, "\n") {
				if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
					t.Errorf("%dx%d, %s: a line is cut: %q", size.w, size.h, tr.all[show].Variant, l)
				}
			}
			if size.h >= 40 && !strings.Contains(strings.Join(strings.Fields(page), " "), "after its reply was lost (the workers in turn)") {
				t.Errorf("%dx%d: the intro does not name the retried release's trials:\n%s", size.w, size.h, page)
			}
		}
	}
}

// TestTrialsShowLosses: run with replies lost, the trials page counts six
// variants and shows, for the variant on show, the replies lost, the
// workers that gave up holding the key and the locks a retry deleted, with
// its note, whole at 80x24; a trial with a lost reply is not offered as a
// story of the race scene (which cannot lose a reply), and enter says so.
func TestTrialsShowLosses(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 80, 24, "")
	tr := trialsWithLoss(t, a)
	openTrials(a, tr)
	flat := func(s string) string { return strings.Join(strings.Fields(views.Strip(s)), " ") }
	page := a.View()
	if want := "blind DEL: 17 replies lost · 4 leases wasted · 3 deleted by a retry"; !strings.Contains(flat(page), want) {
		t.Errorf("the trials page lacks %q:\n%s", want, page)
	}
	for _, v := range []race.Variant{race.Atomic, race.BlindDel, race.CompareDel} {
		tr.show = int(v)
		page := a.View()
		if want := flat(transcript.TrialsNote(tr.text, tr.all[v], tr.cfg)); !strings.Contains(flat(page), want) || !strings.Contains(page, "compare+DEL") {
			t.Errorf("the trials page lacks %q:\n%s", want, page)
		}
		for _, l := range strings.Split(views.Strip(page), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
				t.Errorf("a line of the trials page is cut: %q", l)
			}
		}
	}
	tr.show = int(race.BlindDel)
	drive(t, a, keys("[tab][down][down][down][enter]")...)
	if a.pages.find(isTrials) < 0 || a.pl.Trial() != nil || !strings.Contains(flat(a.View()), "a trial with a lost reply cannot be stepped through") {
		t.Errorf("enter on a trial with a lost reply:\n%s", a.View())
	}
	// with no reply lost, the row of the variant on show says nothing of losses
	tr.cfg.Loss, tr.show = 0, int(race.Atomic)
	if strings.Contains(views.Strip(a.View()), "replies lost") {
		t.Errorf("with no loss the page counts lost replies:\n%s", a.View())
	}
}
