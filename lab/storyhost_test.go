package lab

import (
	"context"
	"strings"
	"testing"

	"locksim/sim"
)

// hostile is an acquire that tells miniredis's Lua from the lab's host
// (in miniredis, _G holds redis; in the lab's host, _G is a guard with
// nothing in it) and loops for ever in the first.
const hostile = `if rawget(_G, 'redis') then while true do end end
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
`

// TestHostileLockCannotHangTheStory: the search confirms each break by
// playing it as a story on an embedded server; the story's EVAL runs in
// the lab's host too, so a lock that loops only where it is not searched
// is judged, and its story shows the same break.
func TestHostileLockCannotHangTheStory(t *testing.T) {
	l := Starter()
	l.Acquire.Src = hostile
	l.Policy.Faults = []Fault{PausePast}
	l.Policy.Bound = Bound{Clients: 2, Faults: 1, Depth: 10, MaxSchedules: 200_000}
	l.Policy.Properties = []Property{NoForeignRelease}
	rep, err := Check(context.Background(), &l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := rep.Judgement(NoForeignRelease)
	if !ok || v.Status != Fail || !v.Ledger {
		t.Fatalf("the GET-then-DEL release behind a hostile acquire: %+v", v)
	}
}

// TestStoryScriptsAreBudgeted: a story of a lock whose acquire never
// ends plays through: the EVAL is logged with the budget's error as its
// reply, and the next client's step runs.
func TestStoryScriptsAreBudgeted(t *testing.T) {
	l := Starter()
	l.Acquire.Src = "while true do end"
	be, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = be.Close(context.Background()) }()
	script := StoryOf(&l, 2, []Move{{Client: "A", Label: "acquire"}, {Client: "B", Label: "acquire"}}, false)
	r := sim.NewRun(be, script, 1)
	defer r.Close()
	ctx := context.Background()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, len(script.Moves)); err != nil {
		t.Fatal(err)
	}
	evals := 0
	for _, ev := range r.Events {
		if strings.HasPrefix(ev.Cmd, "EVAL") {
			evals++
			if !strings.Contains(ev.Reply, "budget of instructions") {
				t.Errorf("%s: %s", ev.Cmd, ev.Reply)
			}
		}
	}
	if evals != 2 {
		t.Errorf("%d EVALs logged, want 2: %+v", evals, r.Events)
	}
	// a script that is not the lock's is miniredis's, as before
	c := be.Admin()
	if v, err := c.Eval(ctx, "return 7", nil).Int(); err != nil || v != 7 {
		t.Errorf("another script: %v, %v", v, err)
	}
}

// TestStoryHostLoadedScripts: a part loaded with SCRIPT LOAD and called by
// EVALSHA, or sent with a comment line after it (as sim's EvalSHA tags a
// script with its run), runs in the lab's host too; a SHA nobody loaded
// gets miniredis's NOSCRIPT.
func TestStoryHostLoadedScripts(t *testing.T) {
	l := Starter()
	l.Acquire.Src = "while true do end\n"
	pr, err := compileLock(&l)
	if err != nil {
		t.Fatal(err)
	}
	be, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = be.Close(context.Background()) }()
	hostStory(be, pr)
	ctx := context.Background()
	c := be.Admin()
	sha, err := c.ScriptLoad(ctx, l.Acquire.Src).Result()
	if err != nil || sha != shaOf(l.Acquire.Src) {
		t.Fatalf("SCRIPT LOAD: %q, %v", sha, err)
	}
	for what, err := range map[string]error{
		"EVALSHA":        c.EvalSha(ctx, sha, []string{LockKey}).Err(),
		"EVAL, tagged":   c.Eval(ctx, l.Acquire.Src+"\n-- locksim run 3 replay 1", []string{LockKey}).Err(),
		"EVALSHA tagged": c.EvalSha(ctx, shaOf(l.Acquire.Src+"\n-- locksim run 3 replay 1"), []string{LockKey}).Err(),
	} {
		if err == nil || !strings.Contains(err.Error(), "budget of instructions") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if err := c.EvalSha(ctx, shaOf("return 1"), nil).Err(); err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
		t.Errorf("an unknown SHA: %v", err)
	}
}
