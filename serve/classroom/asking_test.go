package classroom

import (
	"context"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
)

// TestAskingIsTheStoresOpenQuestion: the scenes a server's pages hold
// back (serve.Asker) are those whose question a class of its class store
// is asked, seated on this server or not: two servers' hooks over one
// store, the instructor seated through neither, both hold fencing while
// the instructor stands in it at or before its question, neither past it
// or on the contents, and neither Gone after the instructor's seat has
// left (no hold outlives the class).
func TestAskingIsTheStoresOpenQuestion(t *testing.T) {
	ctx := context.Background()
	var clock atomic.Int64
	clock.Store(time.Date(2026, 12, 6, 22, 0, 0, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	hub := class.NewMemory(now)
	info, err := hub.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := class.Sit(ctx, hub, info.Code, class.Member{ID: info.Lead, Name: "teacher", Role: class.Instructor}, now)
	if err != nil {
		t.Fatal(err)
	}
	// its first beat, as its seat's loop puts it at once (the clock stands)
	if err := hub.Beat(ctx, info.Code, info.Lead, class.Instructor, now()); err != nil {
		t.Fatal(err)
	}
	a, b := New(hub, "ssh CODE@host", nil), New(hub, "ssh CODE@other", nil)
	asking := func(what string, want ...string) {
		t.Helper()
		for i, c := range []*Classes{a, b} {
			if got := slices.Sorted(maps.Keys(c.Asking(ctx))); !slices.Equal(got, want) {
				t.Errorf("%s: server %d asking %v, want %v", what, i+1, got, want)
			}
		}
	}
	asking("no place led yet")
	at := play.QuestionAt(scenes.Find("fencing"), nil, nil)
	version := int64(0)
	for _, c := range []struct {
		lead class.Lead
		want []string
	}{
		{class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1}}, []string{"fencing"}},
		{class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1, Step: at}}, []string{"fencing"}},
		{class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1, Step: at + 1}}, nil},
		{class.Lead{Contents: true}, nil},
		{class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1, Step: at}}, []string{"fencing"}},
	} {
		cur, won, err := hub.SwapLead(ctx, info.Code, version, c.lead)
		if err != nil || !won {
			t.Fatalf("lead %+v: won %v, %v", c.lead, won, err)
		}
		version = cur.Version
		asking("led to "+c.lead.Pos.Scene, c.want...)
	}
	teacher.Leave(ctx)
	asking("the instructor just left, the class at the question", "fencing")
	clock.Add(int64(class.Gone))
	asking("Gone after the instructor left")
}
