package serve

import (
	"context"
	"strings"
	"testing"
)

// TestClassSizeFitsTheSeats: with no class size given, a class may take
// every slot not kept for instructors (62 of 64), never more, so a class
// alone on the server fills it and its instructor still gets in; a size
// over that is refused when the server is made, in one line.
func TestClassSizeFitsTheSeats(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.cfg.ClassSize; got != DefaultMaxSessions-InstructorSlots {
		t.Errorf("the default class size is %d on %d sessions, want %d", got, DefaultMaxSessions, DefaultMaxSessions-InstructorSlots)
	}
	s.Close(context.Background())
	if _, err := New(Config{ClassSize: 80}); err == nil || !strings.Contains(err.Error(), "-class-size 80 is more than the server can seat") {
		t.Errorf("a class of 80 on 64 sessions: %v, want refused", err)
	}
	if _, err := New(Config{MaxSessions: 1}); err != nil {
		t.Errorf("one session, its class of 1: %v", err)
	}
}
