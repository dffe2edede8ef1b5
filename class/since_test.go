package class

import (
	"context"
	"testing"
	"time"
)

// TestSinceIsTheClasss: the age of the instructor's place (an open
// question's) is the class's, kept with the place in the store (Lead.At):
// a second session of the instructor's, joining ninety seconds later,
// gives the time the class came there, not its own sight of it; a move
// away and back is a new arrival at once, before its echoes are heard,
// and the other session hears that too.
func TestSinceIsTheClasss(t *testing.T) {
	clk := &clock{t: t0}
	hub := NewMemory(clk.now)
	info, err := hub.Open(context.Background(), "teacher")
	if err != nil {
		t.Fatal(err)
	}
	join := func(seed uint64) *session {
		t.Helper()
		p, err := Join(context.Background(), hub, info.Code, Member{ID: "teacher", Name: "Prof", Role: Instructor, OnContents: true}, clk.now)
		if err != nil {
			t.Fatal(err)
		}
		w, err := p.Seat().Watch()
		if err != nil {
			t.Fatal(err)
		}
		s := &session{t: t, name: "Prof", p: p, w: w, seed: seed, actual: -1}
		t.Cleanup(s.leave)
		return s
	}
	leadAt := func(step int, at time.Time) func(*session) bool {
		return func(s *session) bool {
			return s.p.lead != nil && s.p.lead.Pos.Step == step && s.p.lead.At.Equal(at)
		}
	}
	first := join(1)
	first.goTo(gcPause(3))
	first.hear("the class at step 3", leadAt(3, t0))
	clk.advance(90 * time.Second)
	if got := first.p.Since(gcPause(3)); !got.Equal(t0) {
		t.Errorf("the first session's place since %v, want %v", got, t0)
	}
	second := join(2)
	second.hear("the class's place, on joining", leadAt(3, t0))
	if second.pos.Step != 3 {
		t.Fatalf("the second session is at step %d, want the class's 3", second.pos.Step)
	}
	if got := second.p.Since(gcPause(3)); !got.Equal(t0) {
		t.Errorf("the second session's place since %v, want the class's %v", got, t0)
	}

	clk.advance(10 * time.Second)
	back := clk.now()
	first.goTo(gcPause(4))
	first.goTo(gcPause(3))
	if got := first.p.Since(gcPause(3)); !got.Equal(back) {
		t.Errorf("back at step 3 the first session's place since %v, want %v", got, back)
	}
	second.hear("the class back at step 3", leadAt(3, back))
	if got := second.p.Since(gcPause(3)); !got.Equal(back) {
		t.Errorf("the second session's place since %v, want %v", got, back)
	}
}
