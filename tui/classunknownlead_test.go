package tui

import (
	"context"
	"strings"
	"testing"

	"locksim/class"
	"locksim/play"
	"locksim/views"
)

// TestUnknownLeadStaysPut: a follower handed a class place this locksim
// cannot open (a mixed-version class: a newer locksim's position form, a
// scene this build has not, or a contents lead in a form it does not know,
// whose place is the zero Position) stays where it is, its scene drawn as
// before, with one line saying so; nothing panics. A place it can open
// moves it as before.
func TestUnknownLeadStaysPut(t *testing.T) {
	ctx := context.Background()
	hub := class.NewMemory(nil)
	info, err := hub.Open(ctx, "teacher")
	if err != nil {
		t.Fatal(err)
	}
	ann := joinAs(t, hub, info.Code, class.Student, "k-ann", "ann", Options{Seed: 1, Scene: "gc-pause"}, 80, 24)
	drive(t, ann.a, keys("[right][right]")...)
	before := ann.a.session.pl.Position()
	for i, pos := range []play.Position{
		{Version: play.PositionVersion + 1, Scene: "gc-pause", Step: 4},  // a newer locksim's form
		{Version: play.PositionVersion, Scene: "no-such-scene", Step: 1}, // a scene this build has not
		{}, // a contents lead whose flag this locksim does not read
	} {
		lead := &class.Lead{Pos: pos, Follow: true, Version: int64(i + 1), Seq: int64(i + 1), By: "other"}
		drive(t, ann.a, ClassMsg{Events: []class.Event{{Kind: class.KindLead, Lead: lead}}})
		if i == 0 {
			drive(t, ann.a, keys("F")...)
		}
		screen := views.Strip(ann.a.View())
		if !strings.Contains(screen, class.UnknownLeadNote) {
			t.Errorf("lead %+v: no note that the follower stays:\n%s", pos, screen)
		}
		if got := ann.a.session.pl.Position(); got.Scene != before.Scene || got.Step != before.Step {
			t.Errorf("lead %+v: the follower went to %s at %d, want to stay at %s at %d", pos, got.Scene, got.Step, before.Scene, before.Step)
		}
	}
	good := &class.Lead{Pos: play.Position{Version: play.PositionVersion, Scene: "fencing", Step: 1}, Follow: true, Version: 9, Seq: 9, By: "other"}
	drive(t, ann.a, ClassMsg{Events: []class.Event{{Kind: class.KindLead, Lead: good}}})
	if got := ann.a.session.pl.Position(); got.Scene != "fencing" {
		t.Errorf("a place it can open after them: the follower is at %s, want fencing", got.Scene)
	}
}
