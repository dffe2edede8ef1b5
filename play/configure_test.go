package play

import (
	"context"
	"testing"
)

// TestActSaysWhatItWants: a move refused for want of an actor says so in
// Wants, and the next action, made, says it wants nothing.
func TestActSaysWhatItWants(t *testing.T) {
	s, err := Open(context.Background(), Position{Version: PositionVersion, Scene: "crash-gap", Seed: 1}, Env{Backend: embedded(t), ID: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	d := Driver{S: s}
	d.Run(s.Start(nil))
	cmd, _ := s.Act(Do(Crash))
	d.Run(cmd)
	if s.Wants != WantActor || s.Err == "" {
		t.Fatalf("crash with no actor selected: wants %v, err %q; want an actor and an error", s.Wants, s.Err)
	}
	cmd, _ = s.Act(DoN(Select, 0))
	d.Run(cmd)
	if s.Wants != WantNothing || s.Sel != 0 {
		t.Fatalf("after selecting actor 0: wants %v, selected %d", s.Wants, s.Sel)
	}
}

// TestConfigureRoundTrips: the options set are the options read back.
func TestConfigureRoundTrips(t *testing.T) {
	var s Session
	answered := 0
	s.Configure(Options{Predict: true, Present: true, Answered: func(string, int, bool) { answered++ }})
	o := s.Options()
	if !o.Predict || !o.Present || o.Answered == nil || o.Scored != nil {
		t.Fatalf("options read back %+v", o)
	}
	o.Answered("x", 0, true)
	if answered != 1 {
		t.Fatal("the Answered read back is not the one set")
	}
}
