package race_test

import (
	"context"
	"testing"

	"locksim/check"
	"locksim/race"
	"locksim/sim"
	"locksim/sim/simtest"
)

// lossRun runs n trials of each of vs with loss on b.
func lossRun(t *testing.T, b *sim.Backend, n int, loss float64, vs ...race.Variant) map[race.Variant]race.Counts {
	t.Helper()
	cfg := race.DefaultConfig(7)
	cfg.Loss = loss
	tr, err := race.New(race.Pool{Lanes: 2, Conn: b.NewConn, Admin: b.Admin(), Key: func(i int) string { return b.Key("trials:" + string(rune('0'+i))) }}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	out := map[race.Variant]race.Counts{}
	for _, v := range vs {
		c, err := tr.Run(context.Background(), v, n, nil)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if c.Trials != n || c.BugCount != 0 {
			t.Fatalf("%s: %d trials, bugs %v", v, c.Trials, c.Bugs)
		}
		out[v] = c
	}
	if k, _ := b.Admin().Exists(context.Background(), b.Key("trials:0"), b.Key("trials:1")).Result(); k != 0 {
		t.Errorf("the trials left their key behind")
	}
	return out
}

// expectedLost is how many replies cfg loses in n trials of a release
// variant, worked out from Config.Lost and the trial's script alone (w1's
// acquire and release, w2 to w4's acquires, w1's retries), without a
// server: what the trials count must match it, whatever the timing.
func expectedLost(cfg race.Config, n int) (lost, wasted, retryDel int) {
	const retries = 2
	for i := range n {
		sent := [race.Workers]int{}
		next := func(w int) bool { k := sent[w]; sent[w]++; return cfg.Lost(i, w, k) }
		// acquire: a lost reply is sent again, up to retries times; the
		// first that comes back tells
		acquire := func(w int) (heard bool, tries int, lastLost bool) {
			for tries = 0; ; tries++ {
				if next(w) {
					lost++
					if tries == retries {
						return false, tries, true
					}
					continue
				}
				return true, tries, false
			}
		}
		// w1 alone: its first SET that ran was granted
		heard1, tries1, _ := acquire(0)
		w1holds := heard1 && tries1 == 0
		if !w1holds {
			wasted++ // its key is on the server: a retry is refused by it
		}
		relLost := false
		if w1holds {
			relLost = next(0)
			if relLost {
				lost++
			}
		}
		// w2: the key is free only when w1 held and released
		w2holds := false
		if w1holds {
			heard2, tries2, _ := acquire(1)
			w2holds = heard2 && tries2 == 0
			if !w2holds {
				wasted++
			}
		} else {
			acquire(1)
		}
		acquire(2)
		acquire(3)
		for try := 0; relLost && try < retries; try++ {
			if w2holds && try == 0 {
				retryDel++ // the first retry that ran deleted w2's lock
			}
			relLost = next(0)
			if relLost {
				lost++
			}
		}
	}
	return lost, wasted, retryDel
}

// checkLoss: with no reply lost, the release variants count nothing lost,
// wasted or deleted by a retry, and w2 ends as the only holder; with a
// fraction lost, the counts are the ones worked out from the seed alone
// (expectedLost), a blind DEL's retry deletes w2's lock and a
// compare-and-delete's never does; with every reply lost, every SET NX PX
// trial's winner gives up not knowing it won.
func checkLoss(t *testing.T, b *sim.Backend) {
	const n = 40
	none := lossRun(t, b, n, 0, race.BlindDel, race.CompareDel, race.Atomic)
	for v, c := range none {
		if c.Lost != 0 || c.Wasted != 0 || c.RetryDeletes != 0 {
			t.Errorf("%s with no loss: lost %d, wasted %d, deleted by a retry %d", v, c.Lost, c.Wasted, c.RetryDeletes)
		}
		if v != race.Atomic && (c.Holders[1] != n || c.Wins[1] != n) {
			t.Errorf("%s with no loss: holders %v, wins %v: w2 should end holding", v, c.Holders, c.Wins)
		}
	}
	cfg := race.DefaultConfig(7)
	cfg.Loss = 0.4
	lost, wasted, del := expectedLost(cfg, n)
	if del == 0 || wasted == 0 {
		t.Fatalf("seed 7 at 0.4 loses no release before w2's grant in %d trials: pick another", n)
	}
	some := lossRun(t, b, n, cfg.Loss, race.BlindDel, race.CompareDel)
	blind, cad := some[race.BlindDel], some[race.CompareDel]
	t.Logf("blind DEL: %d lost, %d wasted, %d deleted by a retry, holders %v; compare+DEL: holders %v", blind.Lost, blind.Wasted, blind.RetryDeletes, blind.Holders, cad.Holders)
	if blind.Lost != lost || blind.Wasted != wasted || blind.RetryDeletes != del {
		t.Errorf("blind DEL: lost %d, wasted %d, deleted by a retry %d; the seed says %d, %d, %d", blind.Lost, blind.Wasted, blind.RetryDeletes, lost, wasted, del)
	}
	if blind.Anomalies[check.ForeignRelease] != del {
		t.Errorf("blind DEL: %d foreign releases found by the checker, %d deletes by a retry", blind.Anomalies[check.ForeignRelease], del)
	}
	if cad.Lost != lost || cad.Wasted != wasted || cad.RetryDeletes != 0 || cad.Anomalies[check.ForeignRelease] != 0 {
		t.Errorf("compare+DEL: lost %d, wasted %d, deleted by a retry %d, foreign releases %d; want %d, %d, 0, 0", cad.Lost, cad.Wasted, cad.RetryDeletes, cad.Anomalies[check.ForeignRelease], lost, wasted)
	}
	all := lossRun(t, b, n, 1, race.Atomic)[race.Atomic]
	if all.Wasted != n || all.Holders[0] != n || all.Lost != n*race.Workers*3 {
		t.Errorf("SET NX PX, every reply lost: wasted %d, holders %v, lost %d", all.Wasted, all.Holders, all.Lost)
	}
}

func TestTrialsLossEmbedded(t *testing.T) {
	t.Parallel()
	b, err := sim.OpenEmbeddedRealClock()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	checkLoss(t, b)
}

// TestTrialsLossLive is checkLoss against a redis-server of its own: the
// replies are dropped by locksim's client after the server ran the
// command.
func TestTrialsLossLive(t *testing.T) {
	t.Parallel()
	b, err := sim.OpenLive(context.Background(), simtest.StartRedis(t), simtest.LiveOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	checkLoss(t, b)
}

// TestLostIsSeeded: which replies are lost depends on the seed, and on
// nothing else; a fraction near the rate is lost.
func TestLostIsSeeded(t *testing.T) {
	a, b := race.DefaultConfig(1), race.DefaultConfig(2)
	a.Loss, b.Loss = 0.25, 0.25
	same, lostA := 0, 0
	const n = 4000
	for i := range n {
		if a.Lost(i, i%4, i%3) == b.Lost(i, i%4, i%3) {
			same++
		}
		if a.Lost(i, i%4, i%3) {
			lostA++
		}
		if a.Lost(i, 1, 2) != a.Lost(i, 1, 2) {
			t.Fatal("the same draw gave two answers")
		}
	}
	if same == n {
		t.Error("two seeds lose the same replies")
	}
	if lostA < n/5 || lostA > n*3/10 {
		t.Errorf("%d of %d lost at 0.25", lostA, n)
	}
}
