package sim_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"locksim/sim"
)

const queue = sim.Queue("emq:{q}:")

// claimRun is a queue of three jobs and four workers, each of whose
// programs is one step: claim, reap or complete, named by the move.
func claimRun(t *testing.T, b *sim.Backend, moves ...sim.Move) *sim.Run {
	t.Helper()
	claim := sim.Step{Label: "claim", Run: func(x *sim.Exec) { x.Claim(queue, 30*time.Second) }}
	reap := sim.Step{Label: "reap", Run: func(x *sim.Exec) { x.Reap(queue) }}
	complete := sim.Step{Label: "complete", Run: func(x *sim.Exec) { x.Complete(queue) }}
	worker := []sim.Step{claim, complete}
	keys := []string{queue.Pending(), queue.Active(), queue.Job("j1"), queue.Job("j2"), queue.Job("j3")}
	r := sim.NewRun(b, sim.Script{
		Actors: []sim.ActorSpec{{Name: "w1", Program: worker}, {Name: "w2", Program: worker}, {Name: "w3", Program: worker},
			{Name: "reaper", Program: []sim.Step{reap, reap}}},
		Keys: keys, Watch: keys,
		Setup: func(x *sim.Exec) {
			for i, id := range []string{"j1", "j2", "j3"} {
				x.Enqueue(queue, id, "payload-"+id, i+1)
			}
		},
		Moves: moves,
	}, 1)
	t.Cleanup(r.Close)
	if err := r.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(context.Background(), len(moves)); err != nil {
		t.Fatal(err)
	}
	return r
}

// claimsOf lists each claim's reply as id/attempts, in order.
func claimsOf(r *sim.Run) []string {
	var out []string
	for _, e := range r.Events {
		if e.Op != nil && e.Op.Form == sim.FormClaim {
			if id, _, att, ok := sim.Claimed(e.Val, e.Err); ok {
				out = append(out, e.Actor+":"+id+"/"+strconv.FormatInt(att, 10))
			} else {
				out = append(out, e.Actor+":"+e.Reply)
			}
		}
	}
	return out
}

func lastReply(r *sim.Run, actor string) string {
	for i := len(r.Events) - 1; i >= 0; i-- {
		if e := r.Events[i]; e.Actor == actor && e.Kind == sim.Command {
			return e.Reply
		}
	}
	return ""
}

// TestClaimLease: the claim pops the oldest job and leases it on the
// server's clock; a reap before the deadline returns nothing, after it
// the job goes back at its old place in line, and the next claim gets it
// with attempts 2. The first worker's completion with attempts 1 is
// refused (0); the current claim's is done (1), and once done, nothing is
// active. The first claim misses the script cache (NOSCRIPT) and falls
// back to EVAL; the second hits it.
func claimLease(t *testing.T, b *sim.Backend) {
	r := claimRun(t, b,
		sim.StepOf("w1"), sim.StepOf("w2"), sim.Pause("w1"), sim.StepOf("w2"),
		// the reaps 5 s either side of the 30 s deadline: 250 ms of wire at
		// ÷20, which a loaded machine's round trips do not cross
		sim.Advance(25*time.Second), sim.StepOf("reaper"), sim.Advance(10*time.Second), sim.StepOf("reaper"),
		sim.StepOf("w3"), sim.Resume("w1"), sim.StepOf("w1"), sim.StepOf("w3"))
	got := claimsOf(r)
	if len(got) != 3 || got[0] != "w1:j1/1" || got[1] != "w2:j2/1" || got[2] != "w3:j1/2" {
		t.Fatalf("claims: %q", got)
	}
	var cmds []string
	for _, e := range r.Events {
		if e.Actor == "w1" || e.Actor == "w2" {
			if e.Kind == sim.Command && e.Step == "claim" {
				cmds = append(cmds, e.Args[0]+" "+strings.Fields(e.Reply)[min(1, len(strings.Fields(e.Reply))-1)])
			}
		}
	}
	if len(cmds) != 3 || cmds[0] != "EVALSHA NOSCRIPT" || cmds[1] != `EVAL "j1"` || cmds[2] != `EVALSHA "j2"` {
		t.Errorf("the claims sent %q, want EVALSHA → NOSCRIPT, EVAL, then EVALSHA", cmds)
	}
	var reaps []string
	for _, e := range r.Events {
		if e.Actor == "reaper" && e.Kind == sim.Command {
			reaps = append(reaps, e.Reply)
		}
	}
	if len(reaps) != 2 || reaps[0] != "(empty array)" || reaps[1] != `1) "j1"` {
		t.Errorf("reaps: %q, want nothing before the deadline, j1 after", reaps)
	}
	if got := lastReply(r, "w1"); got != "(integer) 0" {
		t.Errorf("w1's completion with attempts 1 answered %s, want (integer) 0", got)
	}
	if got := lastReply(r, "w3"); got != "(integer) 1" {
		t.Errorf("w3's completion answered %s, want (integer) 1", got)
	}
	snap := r.Snapshot(context.Background())
	want := map[string]string{
		b.Key(queue.Pending()): "j3=3",
		b.Key(queue.Active()):  "",
		b.Key(queue.Job("j1")): "attempts=2 payload=payload-j1 queued=1 state=done",
		b.Key(queue.Job("j2")): "attempts=1 payload=payload-j2 queued=2 state=done",
	}
	for _, k := range snap.Keys {
		if w, ok := want[k.Name]; ok && k.Value != w {
			t.Errorf("%s reads back %q, want %q", k.Name, k.Value, w)
		}
	}
}

func TestClaimLeaseEmbedded(t *testing.T) { claimLease(t, embedded(t)) }
func TestClaimLeaseLive(t *testing.T)     { t.Parallel(); claimLease(t, live(t)) }

// TestClaimScoreIsServerClock: on the embedded server the active score is
// the story's clock (the server's) plus the lease, in epoch ms.
func TestClaimScoreIsServerClock(t *testing.T) {
	b := embedded(t)
	r := claimRun(t, b, sim.Advance(7*time.Second), sim.StepOf("w1"))
	snap := r.Snapshot(context.Background())
	want := strconv.FormatInt(sim.Epoch().Add(37*time.Second).UnixMilli(), 10)
	for _, k := range snap.Keys {
		if k.Name == b.Key(queue.Active()) && (len(k.Fields) != 1 || k.Fields[0].Name != "j1" || k.Fields[0].Value != want) {
			t.Fatalf("active reads back %+v, want j1 scored %s", k.Fields, want)
		}
	}
}

// TestClaimsAtOnce: claims fired at the same moment on separate
// connections never return the same job, and together they take each job
// once.
func claimsAtOnce(t *testing.T, b *sim.Backend) {
	ctx := context.Background()
	const n = 8
	c := b.Admin()
	pending, active := b.Key("q:pending"), b.Key("q:active")
	prefix := b.Key("q:job:")
	var ids []any
	for i := range n {
		id := "j" + strconv.Itoa(i)
		ids = append(ids, id)
		c.HSet(ctx, prefix+id, "payload", "p", "queued", i, "attempts", 0)
		c.ZAdd(ctx, pending, redisZ(id, float64(i)))
	}
	defer func() {
		c.Del(ctx, pending, active)
		for _, id := range ids {
			c.Del(ctx, prefix+id.(string))
		}
	}()
	var wg sync.WaitGroup
	start := make(chan struct{})
	got := make([]any, n+2)
	for i := range got {
		conn := b.NewConn()
		defer conn.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i], _ = conn.Do(ctx, "EVAL", sim.ClaimLua.Src, 2, pending, active, prefix, 30000, 60000).Result()
		}()
	}
	close(start)
	wg.Wait()
	seen := map[string]bool{}
	empty := 0
	for _, v := range got {
		id, _, att, ok := sim.Claimed(v, nil)
		switch {
		case !ok:
			empty++
		case seen[id] || att != 1:
			t.Errorf("job %s claimed twice, or with attempts %d: %v", id, att, got)
		default:
			seen[id] = true
		}
	}
	if len(seen) != n || empty != 2 {
		t.Errorf("%d jobs claimed and %d empty replies, want %d and 2: %v", len(seen), empty, n, got)
	}
}

func TestClaimsAtOnceEmbedded(t *testing.T) { claimsAtOnce(t, embedded(t)) }
func TestClaimsAtOnceLive(t *testing.T)     { t.Parallel(); claimsAtOnce(t, live(t)) }
