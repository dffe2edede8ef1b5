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
	s, err := play.Open(context.Background(), play.Position{Version: play.PositionVersion, Scene: sc.ID, Settings: map[string]int(params)}, play.Env{Backend: embedded(tb)})
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
