package lab

import (
	"context"
	"slices"
	"testing"

	"locksim/scenes"
	"locksim/sim"
)

// shortest is each level's shortest break as the adversary finds it: the
// fewest faults, then the fewest moves, within the level's bound.
var shortest = map[string]string{}

func TestEveryLevelBreaks(t *testing.T) {
	for _, lv := range Levels() {
		rep, err := Check(context.Background(), &lv.Lock, Options{})
		if err != nil {
			t.Fatalf("%s: %v", lv.ID, err)
		}
		if !lv.Passed(BreakIt, rep) || lv.Passed(FixIt, rep) {
			t.Errorf("%s: the flawed lock was not broken: %+v", lv.ID, rep.Verdicts)
			continue
		}
		for _, p := range lv.Properties {
			v, _ := rep.Verdict(p)
			if v.Status != Fail || v.Break == nil {
				t.Errorf("%s: %s: %s %s", lv.ID, p, v.Status, v.Message)
				continue
			}
			t.Logf("%s: %s: %s", lv.ID, p, v.Break)
			if want, ok := shortest[lv.ID]; ok && v.Break.String() != want {
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
			t.Errorf("%s: the reference fix did not pass: grants %v, %+v", lv.ID, rep.Grants, rep.Verdicts)
		}
		if rep.Explored == 0 {
			t.Errorf("%s: nothing explored", lv.ID)
		}
	}
}

// TestBreaksReplayAsStories plays each level's shrunk break as a story on
// the embedded server, through the engine every scene uses, and asks the
// ledger: it must see the same property broken.
func TestBreaksReplayAsStories(t *testing.T) {
	b, err := sim.OpenEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	ctx := context.Background()
	for _, lv := range Levels() {
		rep, err := Check(ctx, &lv.Lock, Options{})
		if err != nil {
			t.Fatal(err)
		}
		brk := rep.First()
		if brk == nil {
			t.Fatalf("%s: no break", lv.ID)
		}
		script := brk.Script()
		r := sim.NewRun(b, script, 1)
		if err := r.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		if err := r.Seek(ctx, len(script.Moves)); err != nil {
			t.Fatal(err)
		}
		led := scenes.Fold(r.Snapshot(ctx))
		if got := BrokenIn(led); !slices.Contains(got, brk.Property) {
			var log []string
			for _, e := range r.Events {
				log = append(log, e.Actor+" "+e.Cmd+" -> "+e.Reply+" "+e.Note)
			}
			t.Errorf("%s: the ledger sees %v in the story of %s; want %s\n%s", lv.ID, got, brk, brk.Property, joinLines(log))
		}
		r.Close()
	}
}

func joinLines(s []string) string {
	out := ""
	for _, l := range s {
		out += l + "\n"
	}
	return out
}
