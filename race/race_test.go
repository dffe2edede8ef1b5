package race_test

import (
	"context"
	"testing"

	"locksim/race"
	"locksim/sim"
	"locksim/sim/simtest"

	"github.com/redis/go-redis/v9"
)

// raceMany runs n four-worker races of SET resource:lock <token> NX PX 30000
// and checks every one from the server's replies and the key left behind.
func raceMany(t *testing.T, b *sim.Backend, n int) {
	ctx := context.Background()
	conns := make([]*redis.Client, 4)
	for i := range conns {
		conns[i] = b.NewConn()
		defer conns[i].Close()
	}
	key := b.Key("resource:lock")
	defer b.Delete(ctx, key)
	var tally race.Tally
	for i := range n {
		if err := b.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
		run := sim.NewRun(b, sim.Script{Actors: []sim.ActorSpec{{Name: "w1"}, {Name: "w2"}, {Name: "w3"}, {Name: "w4"}}}, uint64(i))
		if err := run.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		shots := make([]race.Shot, 4)
		for j, a := range run.Actors {
			if seen[a.Token] || len(a.Token) != 32 {
				t.Fatalf("race %d: token %q is repeated or not 128 bits of hex", i, a.Token)
			}
			seen[a.Token] = true
			shots[j] = race.Shot{Client: conns[j], Args: []any{"SET", key, a.Token, "NX", "PX", 30000}}
		}
		run.Close()
		res := race.Fire(ctx, shots)
		winner := -1
		for j, r := range res {
			switch text := sim.FormatReply(r.Val, r.Err); text {
			case "OK":
				if winner >= 0 {
					t.Fatalf("race %d: w%d and w%d both got OK", i, winner+1, j+1)
				}
				winner = j
			case "(nil)":
			default:
				t.Fatalf("race %d: w%d got %s", i, j+1, text)
			}
		}
		if winner < 0 {
			t.Fatalf("race %d: nobody got OK", i)
		}
		val, err := b.Admin().Get(ctx, key).Result()
		if err != nil || val != run.Actors[winner].Token {
			t.Fatalf("race %d: key holds %q (%v), winner w%d's token is %q", i, val, err, winner+1, run.Actors[winner].Token)
		}
		pttl, err := b.Admin().Do(ctx, "PTTL", key).Int64()
		if err != nil || pttl <= 0 || pttl > 30000 {
			t.Fatalf("race %d: PTTL %d (%v), want in (0, 30000]", i, pttl, err)
		}
		tally.Add(res, func(r race.Result) bool { return r.Err == nil && r.Val == "OK" })
	}
	if tally.ByCount[1] != n {
		t.Fatalf("races with exactly one OK: %d of %d (%v)", tally.ByCount[1], n, tally.ByCount)
	}
	t.Logf("wins per worker over %d races: %v", n, tally.Wins)
}

func TestRaceEmbedded(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	raceMany(t, b, 200)
}

func TestRaceLiveRedis(t *testing.T) {
	url := simtest.StartRedis(t)
	b, err := sim.OpenLive(context.Background(), url, simtest.LiveOptions(1))
	if err != nil {
		t.Fatal(err)
	}
	raceMany(t, b, 200)
	if keys := simtest.Keys(t, url); len(keys) != 2 || keys[0] != b.Prefix+"heartbeat" || keys[1] != b.Prefix+"registration" {
		t.Fatalf("keys on the server while the backend is open: %v, want only its heartbeat and registration", keys)
	}
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if keys := simtest.Keys(t, url); len(keys) != 0 {
		t.Fatalf("keys left on the server: %v", keys)
	}
}

func BenchmarkFire(b *testing.B) {
	be, err := sim.OpenEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close(context.Background())
	ctx := context.Background()
	shots := make([]race.Shot, 4)
	for i := range shots {
		c := be.NewConn()
		defer c.Close()
		shots[i] = race.Shot{Client: c, Args: []any{"SET", "resource:lock", i, "NX", "PX", 30000}}
	}
	for b.Loop() {
		be.Delete(ctx, "resource:lock")
		race.Fire(ctx, shots)
	}
}
