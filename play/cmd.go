package play

import "time"

// Msg is what a command reports back to the session that started it (a
// snapshot, a read-back of a live server's keys, a tick of playback).
type Msg any

// Cmd is a session's asynchronous work: run it (on any goroutine) and hand
// its Msg back to Session.Update. A screen wraps it in its own runtime's
// command; a headless Driver runs it in place.
type Cmd func() Msg

// After is a command that reports msg once d has passed.
func After(d time.Duration, msg Msg) Cmd {
	return func() Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		<-t.C
		return msg
	}
}
