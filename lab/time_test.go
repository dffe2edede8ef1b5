package lab

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestWorkAndWatchdog: a TTL shorter than the work is a break with no
// fault; a watchdog renewing the lease every watchdog_ms, each renewal a
// move of its own, keeps it; a watchdog with a lease it cannot renew in
// time (a period longer than the TTL) does not.
func TestWorkAndWatchdog(t *testing.T) {
	ctx := context.Background()
	l, err := Load("testdata/table/watchdog")
	if err != nil {
		t.Fatal(err)
	}
	l.Policy.Faults, l.Policy.Properties = nil, []Property{MutualExclusion}
	rep, err := Check(ctx, l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := rep.Judgement(MutualExclusion); v.Status != Pass || !strings.Contains(v.Message, "moves counted: steps, faults, stretches of work, watchdog renewals") {
		t.Errorf("with its watchdog: %s %s", v.Status, v.Message)
	}
	for _, wd := range []int64{0, 1500} {
		lk := *l
		lk.Policy.Watchdog = durMS(wd)
		rep, err := Check(ctx, &lk, Options{})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := rep.Judgement(MutualExclusion)
		if v.Status != Fail || v.Break.Faults != 0 || !strings.Contains(v.Break.String(), "A work 1500ms, B acquire") {
			t.Errorf("watchdog %d ms: %s %s", wd, v.Status, v.Message)
		}
	}
	// the renewals are in the schedules: A's steps on an empty server
	moves, _, err := play(ctx, l, 1, []Move{{Client: "A"}, {Client: "A"}, {Client: "A"}, {Client: "A"}, {Client: "A"}, {Client: "A"}, {Client: "A"}})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, m := range moves {
		labels = append(labels, m.Label)
	}
	if got := strings.Join(labels, ", "); got != "acquire, work 500ms, watchdog extend, work 500ms, watchdog extend, work 500ms, write" {
		t.Errorf("A's steps: %s", got)
	}
}

// TestReentrantNested: a lock that grants its holder a nested acquire
// and still holds after one release is exercised with nested acquires; a
// SET without NX, which grants again too, is not reentrant.
func TestReentrantNested(t *testing.T) {
	ctx := context.Background()
	for dir, want := range map[string]bool{"testdata/table/reentrant": true, "testdata/table/set-without-nx": false, "testdata/table/compare-and-delete": false} {
		l, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := compileRun(ctx, l)
		if err != nil {
			t.Fatal(err)
		}
		if pr.reentrant != want {
			t.Errorf("%s: reentrant %v", dir, pr.reentrant)
		}
	}
	l, _ := Load("testdata/table/reentrant")
	moves, _, err := play(ctx, l, 2, []Move{{Client: "A"}, {Client: "A"}, {Client: "B"}, {Client: "A"}, {Client: "A"}, {Client: "A"}})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, m := range moves {
		labels = append(labels, m.Client+" "+m.Label+" "+m.Reply)
	}
	if got := strings.Join(labels, ", "); got != "A acquire (integer) 1, A nested acquire (integer) 1, B acquire (integer) 0, A write (integer) 1, A nested release (integer) 1, A release (integer) 1" {
		t.Errorf("the nested run: %s", got)
	}
	if HandsOutFences(ctx, l) {
		t.Error("a reentrant lock's count of 1 read as a fencing token")
	}
}

// TestLostReplyIsAFault: a lost reply counts within the bound's faults,
// so a bound of no faults explores none.
func TestLostReplyIsAFault(t *testing.T) {
	l, _ := Load("testdata/table/setnx-expire")
	l.Policy.Faults, l.Policy.Properties = []Fault{LostReply}, []Property{DeadlockFreedom}
	l.Policy.Bound.Faults = 0
	rep, err := Check(context.Background(), l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := rep.Judgement(DeadlockFreedom); v.Status != Pass {
		t.Errorf("with no fault allowed, a lost reply broke it: %s", v.Message)
	}
}

func durMS(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// TestHandStepsNested: played by hand, a client of a reentrant lock with
// work has a step for each of its moves: the nested acquire and release,
// the stretches of work.
func TestHandStepsNested(t *testing.T) {
	l, _ := Load("testdata/table/reentrant")
	l.Policy.Work = durMS(500)
	script := HandScene(l, 2).Script(nil)
	var labels []string
	for _, st := range script.Actors[0].Program {
		labels = append(labels, st.Label)
	}
	if got := strings.Join(labels, ", "); got != "acquire, nested acquire, work 500ms, write, nested release, release" {
		t.Errorf("A's steps by hand: %s", got)
	}
}

// TestVetRelabels: a break's moves take the labels their play gives
// them, so a forged stretch of work in a story code cannot move the
// story's clock further than the lock's work_ms.
func TestVetRelabels(t *testing.T) {
	l, _ := Load("testdata/table-extra/work-no-watchdog")
	b := &Break{Property: MutualExclusion, Lock: *l, Clients: 2,
		Moves: []Move{{Client: "A", Label: "acquire"}, {Client: "A", Label: "work 99999999ms"}, {Client: "B", Label: "acquire"}}}
	if err := b.Vet(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "A acquire, A work 1500ms, B acquire" {
		t.Errorf("vetted: %s", got)
	}
}
