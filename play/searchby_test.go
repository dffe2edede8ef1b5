package play

import (
	"context"
	"errors"
	"testing"

	"locksim/lab"
)

// TestCheckLockBy: a search runs by the runner it is given (a served
// session's child process), whose report and errors come back as
// lab.Check's would; Stop cancels the context the runner was given.
func TestCheckLockBy(t *testing.T) {
	want := &lab.Report{Explored: 7}
	var got *lab.Lock
	s, start := CheckLockBy(func(ctx context.Context, l *lab.Lock, o lab.Options) (*lab.Report, error) {
		got = l
		o.Progress(lab.Progress{Explored: 3})
		return want, nil
	}, lab.Starter())
	m := start()
	p, ok := m.(SearchProgress)
	if !ok || p.S != s || p.P.Explored != 3 {
		t.Fatalf("first message: %#v", m)
	}
	if over, ok := p.Next().(SearchOver); !ok || over.Report != want || over.Err != nil {
		t.Fatalf("the end: %#v", over)
	}
	if got == nil || got.Release.Src != lab.Starter().Release.Src {
		t.Errorf("the runner was given %+v", got)
	}

	started := make(chan struct{})
	s, start = CheckLockBy(func(ctx context.Context, l *lab.Lock, o lab.Options) (*lab.Report, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}, lab.Starter())
	done := make(chan Msg, 1)
	go func() { done <- start() }()
	<-started
	s.Stop()
	if over, ok := (<-done).(SearchOver); !ok || !errors.Is(over.Err, context.Canceled) {
		t.Fatalf("a stopped search: %#v", over)
	}
}

// TestSearchKeepsTheNewestCount: a count the receiver is not ready for
// replaces the one still waiting for it, so a receiver that was behind
// reads the newest (a search that waited for a slot stayed at 0 when the
// newer count was dropped instead).
func TestSearchKeepsTheNewestCount(t *testing.T) {
	sent, done := make(chan struct{}), make(chan struct{})
	want := &lab.Report{Explored: 5}
	s, _ := CheckLockBy(func(ctx context.Context, l *lab.Lock, o lab.Options) (*lab.Report, error) {
		o.Progress(lab.Progress{Explored: 3})
		o.Progress(lab.Progress{Explored: 5})
		close(sent)
		<-done
		return want, nil
	}, lab.Starter())
	go s.run()
	<-sent // both counts sent while nobody read
	m := s.next()
	close(done)
	p, ok := m.(SearchProgress)
	if !ok || p.P.Explored != 5 {
		t.Fatalf("the receiver behind read %#v, not the newest count (5)", m)
	}
	if over, ok := p.Next().(SearchOver); !ok || over.Report != want {
		t.Fatalf("the end: %#v", over)
	}
}
