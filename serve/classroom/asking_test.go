package classroom

import (
	"context"
	"maps"
	"slices"
	"testing"

	"locksim/class"
	"locksim/play"
	"locksim/scenes"
	"locksim/serve"
)

// TestAskingIsTheSeatedClassesOpenQuestion: the scenes a server's pages
// hold back (serve.Asker) are those whose question a class seated there
// is asked: none before the instructor leads anywhere, fencing while the
// instructor stands in it at or before its question, none once past it
// (the class has seen it answered) or on the contents; a class no
// session here sits in is not read.
func TestAskingIsTheSeatedClassesOpenQuestion(t *testing.T) {
	ctx := context.Background()
	hub := class.NewMemory(nil)
	info, err := hub.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	other, err := hub.Open(ctx, "another")
	if err != nil {
		t.Fatal(err)
	}
	seat, err := class.Sit(ctx, hub, info.Code, class.Member{ID: "k-ann", Name: "ann", Role: class.Student}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer seat.Leave(ctx)
	c := New(hub, "ssh CODE@host", nil)
	c.seats[&serve.Session{}] = &seated{seat: seat}
	if got := c.Asking(ctx); len(got) != 0 {
		t.Errorf("no place led yet: asking %v", got)
	}
	at := play.QuestionAt(scenes.Find("fencing"), nil, nil)
	version := int64(0)
	for _, c2 := range []struct {
		code string
		lead class.Lead
		want []string
	}{
		{info.Code, class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1}}, []string{"fencing"}},
		{info.Code, class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1, Step: at}}, []string{"fencing"}},
		{info.Code, class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Seed: 1, Step: at + 1}}, nil},
		{info.Code, class.Lead{Contents: true}, nil},
		// another class, with no session here, asked gc-pause
		{other.Code, class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "gc-pause", Seed: 1}}, nil},
	} {
		prev := version
		if c2.code != info.Code {
			prev = 0
		}
		cur, won, err := hub.SwapLead(ctx, c2.code, prev, c2.lead)
		if err != nil || !won {
			t.Fatalf("lead %+v: won %v, %v", c2.lead, won, err)
		}
		if c2.code == info.Code {
			version = cur.Version
		}
		if got := slices.Sorted(maps.Keys(c.Asking(ctx))); !slices.Equal(got, c2.want) {
			t.Errorf("class %s led to %+v: asking %v, want %v", c2.code, c2.lead.Pos, got, c2.want)
		}
	}
}
