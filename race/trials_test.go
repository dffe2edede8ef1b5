package race_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"locksim/check"
	"locksim/race"
	"locksim/sim"
	"locksim/sim/simtest"
)

// trialsOn runs n trials of each of vs with cfg on b's server.
func trialsOn(t *testing.T, b *sim.Backend, n int, cfg race.Config, vs ...race.Variant) map[race.Variant]race.Counts {
	t.Helper()
	ctx := context.Background()
	tr, err := race.New(race.Pool{Lanes: 2, Conn: b.NewConn, Admin: b.Admin(), Key: func(i int) string { return b.Key(fmt.Sprintf("trials:%d", i)) }}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	out := map[race.Variant]race.Counts{}
	for _, v := range vs {
		c, err := tr.Run(ctx, v, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		out[v] = c
	}
	if n, _ := b.Admin().Exists(ctx, b.Key("trials:0"), b.Key("trials:1")).Result(); n != 0 {
		t.Errorf("the trials left their key behind")
	}
	return out
}

// checkTrials: every atomic trial has exactly one holder; every variant's
// counts add up; a crash rate of 1 leaves every split lock without a TTL
// and nobody holding it; the check-then-set and GET+DEL hazards are
// counted, never as more than the trials.
func checkTrials(t *testing.T, b *sim.Backend) {
	const n = 60
	cfg := race.DefaultConfig(1)
	cfg.CrashRate, cfg.Short, cfg.Gap = 1, 4*time.Millisecond, time.Millisecond
	got := trialsOn(t, b, n, cfg, race.Variants()...)
	for v, c := range got {
		sum, wins := 0, 0
		for k, x := range c.Holders {
			sum += x
			wins += k * x
		}
		w := 0
		for _, x := range c.Wins {
			w += x
		}
		if c.Trials != n || sum+c.BugCount != n || w != wins || c.Commands < int64(n*race.Workers) {
			t.Errorf("%s: %+v", v, c)
		}
	}
	if a := got[race.Atomic]; a.Holders[1] != n || a.BugCount != 0 {
		t.Errorf("SET NX PX must give exactly one holder in every trial: %+v, bugs %v", a.Holders, a.Bugs)
	}
	if s := got[race.SplitCrash]; s.NoTTL != n || s.Holders[0] != n {
		t.Errorf("every SETNX winner crashed: %d keys without a TTL, holders %v", s.NoTTL, s.Holders)
	}
	cfg.CrashRate = 0
	if s := trialsOn(t, b, n, cfg, race.SplitCrash)[race.SplitCrash]; s.NoTTL != 0 || s.Holders[1] != n {
		t.Errorf("no crash: %d keys without a TTL, holders %v", s.NoTTL, s.Holders)
	}
	if g := got[race.GetDel]; g.Foreign > n {
		t.Errorf("GET+DEL: %d foreign deletes in %d trials", g.Foreign, n)
	}
	checkAnomalies(t, got)
}

// checkAnomalies: the counts by kind agree with the counts the ledger
// keeps (a key left with no TTL, a foreign delete, trials that ended with
// two holders or more), an atomic trial shows none, and the example kept
// for a kind is the smallest trial that showed it and shows it again when
// its events are checked anew.
func checkAnomalies(t *testing.T, got map[race.Variant]race.Counts) {
	t.Helper()
	if a := got[race.Atomic]; a.Anomalies != [check.NumAnomalies]int{} || a.Unknown != 0 {
		t.Errorf("SET NX PX: anomalies %v, %d unknown", a.Anomalies, a.Unknown)
	}
	if s := got[race.SplitCrash]; s.Anomalies[check.NoTTL] != s.NoTTL || s.Anomalies[check.TwoHolders]+s.Anomalies[check.LeaseRanOut] != 0 {
		t.Errorf("SETNX+EXPIRE: anomalies %v, %d keys with no TTL", s.Anomalies, s.NoTTL)
	}
	c := got[race.CheckThenSet]
	if two := c.Holders[2] + c.Holders[3] + c.Holders[4]; c.Anomalies[check.TwoHolders] != two {
		t.Errorf("GET, then SET: %d trials of two holders or more, %d counted by the mutex model", two, c.Anomalies[check.TwoHolders])
	}
	if g := got[race.GetDel]; g.Anomalies[check.ForeignRelease] != g.Foreign {
		t.Errorf("GET, then DEL: %d foreign deletes, %d counted", g.Foreign, g.Anomalies[check.ForeignRelease])
	}
	for v, c := range got {
		for _, k := range check.Anomalies() {
			ex := c.Examples[k]
			if (ex != nil) != (c.Anomalies[k] > 0) {
				t.Errorf("%s, %s: %d counted, example %v", v, k, c.Anomalies[k], ex)
				continue
			}
			if ex == nil {
				continue
			}
			if ex.Variant != v || ex.Trial < 1 || ex.Trial > c.Trials || !ex.Found[k] {
				t.Errorf("%s, %s: the example is %+v", v, k, ex)
			}
			h := ex.History()
			if again := check.CheckModel(h, check.Mutex(), 0); again.Result != ex.Finding.Result {
				t.Errorf("%s, %s: the example checks %s again, %s when kept", v, k, again.Short(), ex.Finding.Short())
			}
		}
	}
}

func TestTrialsEmbedded(t *testing.T) {
	t.Parallel()
	b, err := sim.OpenEmbeddedRealClock()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	checkTrials(t, b)
}

func TestTrialsLive(t *testing.T) {
	t.Parallel()
	b, err := sim.OpenLive(context.Background(), simtest.StartRedis(t), simtest.LiveOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	checkTrials(t, b)
}

// TestTrialsStopCleanly: a cancelled run returns the counts of the trials
// that finished, and the key is gone.
func TestTrialsStopCleanly(t *testing.T) {
	b, err := sim.OpenEmbeddedRealClock()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	tr, _ := race.New(race.Pool{Lanes: 1, Conn: b.NewConn, Admin: b.Admin(), Key: func(int) string { return "trials:lock" }}, race.DefaultConfig(1))
	defer tr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := tr.Run(ctx, race.Atomic, 1000000, func(c race.Counts) {
		if c.Trials == 25 {
			cancel()
		}
	})
	if err != context.Canceled || c.Trials != 25 || c.Holders[1] != 25 {
		t.Fatalf("stopped with %v after %d trials (%v)", err, c.Trials, c.Holders)
	}
	if n, _ := b.Admin().Exists(context.Background(), "trials:lock").Result(); n != 0 {
		t.Errorf("the key is left behind")
	}
}
