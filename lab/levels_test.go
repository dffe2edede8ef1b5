package lab

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/simtest"
)

// shortest is each level's shortest break as the adversary finds it: the
// fewest faults, then the fewest moves, within the level's bound.
var shortest = map[string]string{
	"get-then-set":     "A acquire: GET, B acquire: GET, A acquire: SET, B acquire: SET",
	"get-then-del":     "A acquire, A write, A release: GET, A pauses until just past the TTL, B acquire, A release: DEL",
	"blind-release":    "A acquire, A write, A pauses until just past the TTL, B acquire, A release: DEL",
	"constant-token":   "A acquire, A write, A pauses until just past the TTL, B acquire, A release",
	"setnx-expire":     "A acquire: SETNX, B acquire: SETNX, A crashes, then a new client, twice the TTL later, is refused",
	"extend-recreates": "A acquire, B acquire, A pauses until just past the TTL, A extend, A crashes, then a new client, twice the TTL later, is refused",
	"no-fencing":       "A acquire, A pauses until just past the TTL, B acquire, B write, A write",
}

// teaches is what a level's shortest break must use: its title's fault,
// or none at all ("") for a race.
var teaches = map[string]Fault{
	"get-then-set": "",
	"setnx-expire": Crash,
}

// teachesIt: b's faults are exactly f (none for ""), and no wait in b
// lets the clock run past the lease.
func teachesIt(b *Break, f Fault) bool {
	for _, m := range b.Moves {
		if m.Fault != "" && m.Fault != f || strings.HasPrefix(m.Label, "retry") {
			return false
		}
	}
	return f == "" && b.Faults == 0 || f != "" && slices.ContainsFunc(b.Moves, func(m Move) bool { return m.Fault == f })
}

// TestEveryLevelBreaks: the adversary breaks every level's flawed lock,
// its shortest break is the one recorded above, and the ledger, reading
// that break played as a story, sees the same property broken.
func TestEveryLevelBreaks(t *testing.T) {
	for _, lv := range Levels() {
		rep, err := levelReport(lv.ID)
		if err != nil {
			t.Fatalf("%s: %v", lv.ID, err)
		}
		if !lv.Passed(BreakIt, rep) || lv.Passed(FixIt, rep) {
			t.Errorf("%s: the flawed lock was not broken: %+v", lv.ID, rep.Judgements)
			continue
		}
		for _, p := range lv.Properties {
			v, _ := rep.Judgement(p)
			if v.Status != Fail || v.Break == nil {
				t.Errorf("%s: %s: %s %s", lv.ID, p, v.Status, v.Message)
				continue
			}
			t.Logf("%s: %s: %s", lv.ID, p, v.Break)
			if !v.Ledger {
				t.Errorf("%s: %s: the ledger does not see the break in its story", lv.ID, p)
			}
			if f, ok := teaches[lv.ID]; ok && !teachesIt(v.Break, f) {
				t.Errorf("%s: the shortest break %s does not use what the level teaches (%q)", lv.ID, v.Break, f)
			}
			if want := shortest[lv.ID]; v.Break.String() != want {
				t.Errorf("%s: shortest break\n got %s\nwant %s", lv.ID, v.Break, want)
			}
		}
	}
}

func TestEveryLevelFixPasses(t *testing.T) {
	for _, lv := range Levels() {
		fix, err := Load("testdata/fixes/" + lv.ID)
		if err != nil {
			t.Fatal(err)
		}
		fix.Policy = lv.Lock.Policy
		rep, err := Check(context.Background(), fix, Options{})
		if err != nil {
			t.Fatalf("%s: %v", lv.ID, err)
		}
		if !lv.Passed(FixIt, rep) {
			t.Errorf("%s: the reference fix did not pass: grants %v, %+v", lv.ID, rep.Grants, rep.Judgements)
		}
		if rep.Explored == 0 {
			t.Errorf("%s: nothing explored", lv.ID)
		}
	}
}

// TestFixLevelNeedsAFreeingRelease: in every level to fix, the reference
// fix with a release that never frees the lock (a script that returns 0,
// or 1, and deletes nothing) does not pass, and the report says the
// release does not free the lock, with the schedule that shows it, as the
// default grade's deadlock-freedom does.
func TestFixLevelNeedsAFreeingRelease(t *testing.T) {
	for _, lv := range Levels() {
		for _, src := range []string{"return 0\n", "return 1\n"} {
			fix, err := Load("testdata/fixes/" + lv.ID)
			if err != nil {
				t.Fatal(err)
			}
			fix.Policy = lv.Lock.Policy
			fix.Release = luaPart(PartRelease, src)
			rep, err := Check(context.Background(), fix, Options{})
			if err != nil {
				t.Fatalf("%s: %v", lv.ID, err)
			}
			if lv.Passed(FixIt, rep) || rep.Grants {
				t.Errorf("%s: a release %q passed the level (grants %v): %+v", lv.ID, src, rep.Grants, rep.Judgements)
			}
			want := "A acquire, A write, A release, B acquire: "
			if !lv.Lock.Extend.Empty() {
				want = "A acquire, A extend, A write, A release, B acquire: "
			}
			if !strings.HasPrefix(rep.NoGrant, want) ||
				!strings.HasSuffix(rep.NoGrant, "the release does not free the lock") {
				t.Errorf("%s: a release %q: the report should say the release does not free the lock after %q: %q", lv.ID, src, want, rep.NoGrant)
			}
		}
	}
}

// TestBreakScene: the scene of a break asks its question before the
// breaking move, answers "none" from the ledger before it and the break's
// property once the move has run, and says so in its verdict.
func TestBreakScene(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	rep, err := levelReport("get-then-del")
	if err != nil {
		t.Fatal(err)
	}
	brk := rep.First()
	sc := brk.Scene()
	script := sc.Script(nil)
	at := -1
	for i, m := range script.Moves {
		if m.Label == sc.Predict.Before[0] && at < 0 {
			at = i
		}
	}
	if at != len(script.Moves)-1 || sc.Predict.Before[0] != "A release: DEL" {
		t.Fatalf("the question comes before move %d (%q) of %d", at, sc.Predict.Before, len(script.Moves))
	}
	r := sim.NewRun(b, script, 7)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	frame := func() scenes.Frame {
		snap := r.Snapshot(ctx)
		return scenes.Frame{Snap: snap, L: scenes.Fold(snap)}
	}
	if err := r.Seek(ctx, at); err != nil {
		t.Fatal(err)
	}
	q := brk.Question(ctx)
	none, breaks := len(q.Choices), slices.Index(q.Choices, brk.Property)
	if breaks < 0 || none < 2 {
		t.Fatalf("the question offers %v, want %s among two or more", q.Choices, brk.Property)
	}
	if got := sc.Predict.Answer(frame()); got != none {
		t.Errorf("before the breaking move the answer reads %d, want %d (none: it still holds)", got, none)
	}
	if err := r.Seek(ctx, at+1); err != nil {
		t.Fatal(err)
	}
	f := frame()
	if got := sc.Predict.Answer(f); got != breaks {
		t.Errorf("after the breaking move the answer reads %d, want %d (%s breaks)", got, breaks, brk.Property)
	}
	said := &scenes.Said{Vars: map[string]string{}}
	sc.Say(f, said)
	if said.Verdict != "no-foreign-release broken: A's release: DEL deleted B's lock" {
		t.Errorf("verdict %q", said.Verdict)
	}
	// a step back replays to the same place
	if err := r.Seek(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, at+1); err != nil {
		t.Fatal(err)
	}
	if got := BrokenIn(frame().L); !slices.Contains(got, NoForeignRelease) {
		t.Errorf("after stepping back and forward again: %v", got)
	}
}

// TestHandScene: in "break this lock" the learner makes every move; the
// ledger's verdict names the property once the moves break it.
func TestHandScene(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	lv, _ := FindLevel("blind-release")
	sc := HandScene(&lv.Lock, 2)
	script := sc.Script(nil)
	if len(script.Moves) != 0 || len(script.Actors) != 2 || !reflect.DeepEqual(script.Actors[0].Program[2].Label, "release: DEL") {
		t.Fatalf("script %+v", script)
	}
	r := sim.NewRun(b, script, 3)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	verdict := func() string {
		snap := r.Snapshot(ctx)
		said := &scenes.Said{Vars: map[string]string{}}
		sc.Say(scenes.Frame{Snap: snap, L: scenes.Fold(snap)}, said)
		return said.Verdict
	}
	for i, m := range []sim.Move{sim.StepOf("A"), sim.Advance(lv.Lock.Policy.TTL + time.Millisecond), sim.StepOf("B"), sim.StepOf("A"), sim.StepOf("A")} {
		if v := verdict(); i < 3 && v != "" {
			t.Fatalf("before move %d: %q", i, v)
		}
		if err := r.Insert(ctx, m); err != nil {
			t.Fatal(err)
		}
		if v := verdict(); i == 2 && v != "broken: mutual-exclusion" {
			t.Errorf("once B is granted while A still works: %q", v)
		}
	}
	if v := verdict(); v != "broken: mutual-exclusion, no-foreign-release" {
		t.Errorf("verdict %q", v)
	}
}

// TestStoriesReplayTheSearch: for the breaks of every level under every
// fault, three clients and a retry, the story sends the same commands in
// the same order and gets the same replies as the search did on its own
// server: the story the learner steps through is the schedule found.
func TestStoriesReplayTheSearch(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	n, depth := 0, 10
	for _, lv := range Levels() {
		if !simtest.Slow {
			// the quick tier: two levels, shallower
			if lv.ID != "get-then-del" && lv.ID != "setnx-expire" {
				continue
			}
			depth = 8
		}
		l := lv.Lock
		l.Policy.Faults, l.Policy.Properties = AllFaults(), DefaultProperties()
		l.Policy.Bound = Bound{Clients: 2, Faults: 1, Depth: depth, MaxSchedules: 50_000}
		l.Policy.Retries = 1
		rep, err := Check(ctx, &l, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Refused {
			t.Fatalf("%s: %s", lv.ID, rep.Summary())
		}
		for _, v := range rep.Judgements {
			if v.Break == nil {
				continue
			}
			n++
			t.Logf("%s %s: %s", lv.ID, v.Property, v.Break)
			if !v.Ledger {
				t.Errorf("%s %s: the ledger does not see the break in its story", lv.ID, v.Property)
			}
			script := v.Break.Script()
			r := sim.NewRun(b, script, uint64(n))
			if err := r.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			if err := r.Seek(ctx, len(script.Moves)); err != nil {
				t.Fatal(err)
			}
			var got []sim.Event
			for _, e := range r.Events {
				if e.Kind == sim.Command {
					got = append(got, e)
				}
			}
			k := 0
			for _, m := range v.Break.Moves {
				if !m.IsStep() {
					continue
				}
				if k >= len(got) {
					t.Errorf("%s %s: the story ran out of commands at %s", lv.ID, v.Property, m)
					break
				}
				e := got[k]
				k++
				want := m.Reply
				for _, a := range r.Actors {
					want = strings.ReplaceAll(want, "token-"+a.Name, a.Token)
				}
				switch {
				case e.Actor != m.Client:
					t.Errorf("%s %s: move %s ran as %s's %s", lv.ID, v.Property, m, e.Actor, e.Cmd)
				case m.Fault == LostReply:
					if !e.Unknown() {
						t.Errorf("%s %s: %s: the client heard %s", lv.ID, v.Property, m, e.Reply)
					}
				case e.Reply != want:
					t.Errorf("%s %s: %s: story %s → %s, search %s", lv.ID, v.Property, m, e.Cmd, e.Reply, want)
				}
			}
			r.Close()
		}
	}
	if n < 5 {
		t.Errorf("only %d breaks compared", n)
	}
}

// TestStoryFaults: a schedule with every kind of fault plays the same in
// the story as in the search.
func TestStoryFaults(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	l := Starter()
	l.Acquire = Part{Name: PartAcquire, Lang: Lua, Src: `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[1] .. ':fence')
end
return false`}
	l.Extend = Part{Name: PartExtend, Lang: Lua, Src: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return redis.call('EXISTS', KEYS[1]) - 1`}
	l.Policy.Retries = 1
	moves := []Move{
		{Client: "A"}, {Client: "A", Fault: PauseHalf}, {Client: "A"}, {Client: "B"}, {Fault: ClockJump},
		{Client: "B"}, {Client: "C", Fault: LostReply}, {Fault: Restart}, {Client: "B"}, {Client: "A"},
		{Client: "C"}, {Client: "C", Fault: Crash}, {Client: "A"},
	}
	played, broken, err := play(ctx, &l, 3, moves)
	if err != nil {
		t.Fatalf("%v after %v", err, played)
	}
	brk := &Break{Lock: l, Clients: 3, Moves: played}
	t.Logf("%s; broken: %v", brk, broken)
	script := brk.Script()
	r := sim.NewRun(b, script, 5)
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Seek(ctx, len(script.Moves)); err != nil {
		t.Fatal(err)
	}
	var got []sim.Event
	for _, e := range r.Events {
		if e.Kind == sim.Command {
			got = append(got, e)
		}
	}
	k := 0
	for _, m := range played {
		if !m.IsStep() {
			continue
		}
		e := got[k]
		k++
		want := m.Reply
		for _, a := range r.Actors {
			want = strings.ReplaceAll(want, "token-"+a.Name, a.Token)
		}
		if m.Fault == LostReply && !e.Unknown() || m.Fault != LostReply && e.Reply != want || e.Actor != m.Client {
			t.Errorf("%s: story %s %s → %s, search %s", m, e.Actor, e.Cmd, e.Reply, want)
		}
	}
	if k != len(got) {
		t.Errorf("the story sent %d commands, the search %d", len(got), k)
	}
}
