package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"locksim/scenes"

	tea "github.com/charmbracelet/bubbletea"
)

// TestControls drives a story scene through the shared controls and checks
// the position and the schedule after each.
func TestControls(t *testing.T) {
	a := openScene(t, embedded(t), "crash-gap", 1, 80, 24, "nnn")
	if a.pl.Snap.Pos != 3 {
		t.Fatalf("three steps: pos %d", a.pl.Snap.Pos)
	}
	events := len(a.pl.Snap.Events)
	drive(t, a, keys("b")...)
	drive(t, a, keys("n")...)
	if a.pl.Snap.Pos != 3 || len(a.pl.Snap.Events) != events {
		t.Fatalf("back and forward should land on the same events: pos %d, %d events (want %d)", a.pl.Snap.Pos, len(a.pl.Snap.Events), events)
	}
	// a burst of typed keys arrives as one message: each is a step
	drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("nn")})
	if a.pl.Snap.Pos != 5 {
		t.Fatalf("a burst of two n: pos %d, want 5", a.pl.Snap.Pos)
	}
	// keys pressed while a move runs are kept: press n twice with the
	// player busy, then deliver the running move's result
	cmd := a.pl.seekTo(a.pl.Snap.Pos + 1)
	drive(t, a, keys("bb")...)
	drive(t, a, cmd())
	if a.pl.Snap.Pos != 4 {
		t.Fatalf("one step forward then two back pressed while busy: pos %d, want 4", a.pl.Snap.Pos)
	}
	drive(t, a, keys("[home]")...)
	if a.pl.Snap.Pos != 0 || len(a.pl.Snap.Events) != 0 {
		t.Fatalf("home: pos %d with %d events", a.pl.Snap.Pos, len(a.pl.Snap.Events))
	}
}

func TestLearnerMoves(t *testing.T) {
	a := openScene(t, embedded(t), "crash-gap", 1, 80, 24, "")
	moves := len(a.pl.Snap.Moves)
	drive(t, a, keys("x")...)
	if !strings.Contains(a.View(), "select an actor first") {
		t.Fatalf("x with nobody selected should say so:\n%s", a.View())
	}
	drive(t, a, keys("3x")...)
	if len(a.pl.Snap.Moves) != moves+1 || a.pl.Snap.Actors[2].Status.String() != "crashed" {
		t.Fatalf("crashing the third actor: %d moves, status %v", len(a.pl.Snap.Moves), a.pl.Snap.Actors[2].Status)
	}
	drive(t, a, keys("p")...)
	if len(a.pl.Snap.Moves) != moves+1 || !strings.Contains(a.View(), "has crashed") {
		t.Fatalf("pausing a crashed actor must be refused, not scheduled:\n%s", a.View())
	}
	drive(t, a, keys("[home]")...)
	if len(a.pl.Snap.Moves) != moves {
		t.Fatalf("home should restore the story as written: %d moves, want %d", len(a.pl.Snap.Moves), moves)
	}
}

func TestTooSmallIgnoresKeys(t *testing.T) {
	a := openScene(t, embedded(t), "crash-gap", 1, 60, 20, "nnn")
	if a.pl.Snap.Pos != 0 {
		t.Fatalf("keys acted on a scene too small to see: pos %d", a.pl.Snap.Pos)
	}
}

// TestKeysDuringAMoveAreKept: a setting, a learner move and a scene switch
// pressed while a move runs all happen once it is done, in order.
func TestKeysDuringAMoveAreKept(t *testing.T) {
	a := openScene(t, embedded(t), "crash-gap", 1, 80, 24, "")
	cmd := a.pl.seekTo(1)
	drive(t, a, keys("c")...)
	drive(t, a, cmd())
	if got := a.pl.Scene.Value(a.pl.Params, "crash point"); got != "after EXPIRE" {
		t.Fatalf("c pressed during a move: crash point %q, want %q", got, "after EXPIRE")
	}
	cmd = a.pl.seekTo(a.pl.Snap.Pos + 1)
	drive(t, a, keys(">")...)
	drive(t, a, cmd())
	next := scenes.All()[slices.IndexFunc(scenes.All(), func(s *scenes.Scene) bool { return s.ID == "crash-gap" })+1].ID
	if a.pl.Scene.ID != next {
		t.Fatalf("> pressed during a move: scene %s, want %s", a.pl.Scene.ID, next)
	}
}

// TestKeysRunInTheOrderTyped: n, a setting, n pressed during a move give
// the settings first (keeping the step), then one step of the new story; n > n steps once here
// and once in the next scene.
func TestKeysRunInTheOrderTyped(t *testing.T) {
	a := openScene(t, embedded(t), "options", 1, 80, 24, "nnn")
	cmd := a.pl.seekTo(a.pl.Snap.Pos + 1)
	drive(t, a, keys("eTn")...)
	drive(t, a, cmd())
	// the settings keep the step (4, after the wait), then n steps once
	if a.pl.Scene.Value(a.pl.Params, "NX") == "on" || a.pl.Snap.Pos != 5 {
		t.Fatalf("e T n during a move: NX %s at pos %d, want off at 5", a.pl.Scene.Value(a.pl.Params, "NX"), a.pl.Snap.Pos)
	}
	cmd = a.pl.seekTo(a.pl.Snap.Pos + 1)
	drive(t, a, keys(">n")...)
	drive(t, a, cmd())
	if a.pl.Scene.ID != "crash-gap" || a.pl.Snap.Pos != 1 {
		t.Fatalf("> n during a move: %s at %d, want crash-gap at 1", a.pl.Scene.ID, a.pl.Snap.Pos)
	}
}

// TestLogScrolls: at 80x24 a long story pushes its first commands off the
// log; [ brings them back, and the next step returns to the newest.
func TestLogScrolls(t *testing.T) {
	a := openScene(t, embedded(t), "options", 1, 80, 24, "nnnnnnnnn")
	first := a.pl.Snap.Events[0]
	line := "w1> " + first.Args[0]
	if strings.Contains(a.View(), line) || !strings.Contains(a.View(), "earlier: [") {
		t.Fatalf("the first command should have scrolled off, with a hint:\n%s", a.View())
	}
	for range 12 {
		drive(t, a, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("[")})
	}
	if !strings.Contains(a.View(), line) || !strings.Contains(a.View(), "newer below") {
		t.Fatalf("[ should bring the first command back:\n%s", a.View())
	}
	drive(t, a, keys("b")...)
	if strings.Contains(a.View(), "newer below") {
		t.Fatalf("a step should return the log to the newest lines:\n%s", a.View())
	}
}

// TestSettingsKeepTheStep: a setting replays the new story to the same
// story time; inserted moves are dropped with a note.
func TestSettingsKeepTheStep(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "nnnn")
	if a.pl.Snap.Now != 32*time.Second || a.pl.Snap.Pos != 4 {
		t.Fatalf("four steps: %v at %d", a.pl.Snap.Now, a.pl.Snap.Pos)
	}
	drive(t, a, keys("t")...) // TTL 60 s: the same moment, B now refused
	if a.pl.Snap.Now != 32*time.Second || a.pl.Snap.Pos != 4 {
		t.Fatalf("after t the story should stand at 32 s again: %v at %d", a.pl.Snap.Now, a.pl.Snap.Pos)
	}
	if r := replies(sent(a.pl.Snap.Events, "B", "SET")); len(r) != 1 || r[0] != "(nil)" {
		t.Errorf("with a 60 s TTL B is refused at 32 s: %v", r)
	}
	drive(t, a, keys("2w")...)
	drive(t, a, keys("g")...)
	if !strings.Contains(a.View(), "inserted moves were dropped") {
		t.Errorf("a setting after a learner's move should say the move was dropped:\n%s", a.View())
	}
}

// TestRefusedMoveNamesTheKeys: a move that needs an actor says so, and the
// screen names its own keys for picking one (the session knows no keys).
func TestRefusedMoveNamesTheKeys(t *testing.T) {
	a := openScene(t, embedded(t), "gc-pause", 1, 80, 24, "x")
	if want := "select an actor first (1-2 or tab/↓)"; a.pl.Err != want {
		t.Errorf("x with nobody selected: %q, want %q", a.pl.Err, want)
	}
}
