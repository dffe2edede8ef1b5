package scenes

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"locksim/sim"
	"locksim/views"
)

func TestFencingStaleTokenRejected(t *testing.T) {
	storyBackends(t, func(t *testing.T, b *sim.Backend) {
		run, snap := storyRun(t, b, "fencing", Params{}, -1)
		r := snap.Resource
		if r == nil || r.Accepted != 1 || r.Rejected != 1 || r.MaxToken != 34 || r.Writer != "B" {
			t.Fatalf("want B's 34 accepted and A's 33 rejected, got %+v", r)
		}
		var got []string
		for _, e := range snap.Events {
			if w, _ := isWrite(e); w {
				got = append(got, e.Actor+" "+e.Args[len(e.Args)-1]+" "+e.Reply)
			}
		}
		if len(got) != 2 || got[0] != "B 34 (integer) 1" || !strings.HasPrefix(got[1], "A 33 (error) STALE") {
			t.Fatalf("the resource's replies: %q", got)
		}
		ex := explainAs(t, "fencing", Params{}, snap, -1)
		if ex.Props[0] != views.Held || ex.Alarm != "" {
			t.Errorf("the resource refused the stale write: want held, no alarm; got %v %q", ex.Props, ex.Alarm)
		}
		if o := findWriteOverlap(snap); !o.found || o.rejected != 1 || len(o.writers) != 1 {
			t.Errorf("both believed they held the lock, yet one write landed: %+v", o)
		}
		if ex := explainAs(t, "fencing", Params{}, snap, 0); !strings.Contains(ex.Readout, "already accepted 34") {
			t.Errorf("A's readout should name the token the resource had accepted:\n%s", ex.Readout)
		}
		if b.Live() {
			// Reset runs the setup again (the counter at 32); Clear removes it all.
			if err := run.Clear(context.Background()); err != nil {
				t.Fatal(err)
			}
			if n, err := b.Admin().DBSize(context.Background()).Result(); err != nil || n != 0 {
				t.Fatalf("keys left on the server: %d (%v)", n, err)
			}
		}
	})
}

func TestFencingTokensFromIncr(t *testing.T) {
	_, snap := storyRun(t, embedded(t), "fencing", Params{}, 4)
	var incr []string
	for _, e := range commands(snap.Events, "", "acquire") {
		if e.Args[0] == "INCR" {
			incr = append(incr, e.Actor+" "+e.Reply)
		}
	}
	if strings.Join(incr, ", ") != "A (integer) 33, B (integer) 34" {
		t.Fatalf("the counter starts at 32: want A 33 then B 34, got %q", incr)
	}
	if snap.Actors[0].Vars["fence"] != "33" || snap.Actors[1].Vars["fence"] != "34" {
		t.Errorf("each holder keeps its token: %v %v", snap.Actors[0].Vars, snap.Actors[1].Vars)
	}
}

func TestFencingGolden(t *testing.T) {
	a := storyOpen(t, embedded(t), "fencing", 80, 24, "nnnnnn")
	golden(t, "fencing-80x24", a.View())
	drive(t, a, keys("n")...)
	drive(t, a, keys("n")...)
	golden(t, "fencing-80x24-rejected", a.View())
	for range 2 {
		drive(t, a, keys("n")...)
	}
	golden(t, "fencing-80x24-end", a.View())
}

func TestFencingPlain(t *testing.T) {
	var out bytes.Buffer
	if err := Plain(context.Background(), &out, embedded(t), "fencing", 1); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"scene> SET resource:fence 32 → OK",
		"A> INCR resource:fence → (integer) 33",
		"B→resource> EVAL <fenced-write> 1 resource:state B edit-B 34 → (integer) 1",
		"A→resource> EVAL <fenced-write> 1 resource:state A edit-A 33 → (error) STALE",
		"accepted 1 · rejected 1 · largest token 34",
		"properties: mutual exclusion held",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "ALARM") || strings.Contains(text, "[no text:") || strings.Contains(text, "%!") {
		t.Errorf("transcript has an alarm, a missing text or a bad verb:\n%s", text)
	}
}

func TestFencingRandomPlay(t *testing.T) {
	for seed := range uint64(3) {
		storyRandomPlay(t, "fencing", "nnnnbb12eeepxw", seed)
	}
}

func TestFencingScreenText(t *testing.T) { checkStoryScreenText(t, "fencing") }

func TestFencingReadoutFollowsStory(t *testing.T) { checkReadoutFollowsStory(t, "fencing") }

func TestFencingBeliefIsNotHolding(t *testing.T) { checkBeliefIsNotHolding(t, "fencing") }
