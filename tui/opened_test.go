package tui

import (
	"context"
	"testing"

	"locksim/content"
	"locksim/play"
	"locksim/scenes"
	"locksim/sim"
	"locksim/sim/ledger"
)

// openedWith is a session of sc opened through the door (play.Open) with
// no run started, showing snap (folded as led, or afresh when led is nil)
// under params, as a screen test draws a story's point without playing it.
func openedWith(tb testing.TB, sc *scenes.Scene, text content.Text, params scenes.Params, snap sim.Snapshot, led *ledger.Ledger) *play.Session {
	tb.Helper()
	return openedOn(tb, embedded(tb), sc, text, params, snap, led)
}

// openedOn is openedWith on backend b, which no run uses: a walk that
// draws hundreds of points opens one server for them all, not one each
// (each kept until the test's end).
func openedOn(tb testing.TB, b *sim.Backend, sc *scenes.Scene, text content.Text, params scenes.Params, snap sim.Snapshot, led *ledger.Ledger) *play.Session {
	tb.Helper()
	s, err := play.Open(context.Background(), play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: map[string]int(params)}, play.Env{Backend: b})
	if err != nil {
		tb.Fatal(err)
	}
	if led == nil {
		led = scenes.Fold(snap)
	}
	if text.Has("title") {
		s.Text = text
	}
	s.Snap, s.Ledger = snap, led
	return s
}
