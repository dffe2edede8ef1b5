package tui

import (
	"bytes"
	"context"
	"locksim/sim/simtest"
	"strings"
	"testing"
	"time"

	"locksim/scenes"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// raceWonBy opens the race until the given worker wins. Who wins is up to
// the real race; the tokens come from the seed, so once the winner matches,
// the screen is the same every time.
func raceWonBy(t *testing.T, winner string, w, h int) *App {
	t.Helper()
	b := embedded(t)
	for range 200 {
		a := openScene(t, b, "race", 1, w, h, "")
		if e, ok := lastOf(a.pl.Snap.Events, winner, "acquire"); ok && e.Reply == "OK" {
			return a
		}
	}
	t.Fatalf("%s never won in 200 races", winner)
	return nil
}

func TestRaceGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		if !simtest.InTier(size.w == 80) {
			continue // 120x40's goldens run in the slow tier, 80x24's in the quick
		}
		a := raceWonBy(t, "w1", size.w, size.h)
		name := "race-" + itoa(int64(size.w)) + "x" + itoa(int64(size.h))
		golden(t, name, a.View())
		drive(t, a, keys("3")...)
		golden(t, name+"-w3", a.View())
	}
}

func TestRaceScreenFromReplies(t *testing.T) {
	a := openScene(t, embedded(t), "race", 7, 80, 24, "")
	view := a.View()
	if n := strings.Count(view, "OK · holder"); n != 1 {
		t.Errorf("cards show %d holders, want 1:\n%s", n, view)
	}
	if n := strings.Count(view, "(nil) · refused"); n != 3 {
		t.Errorf("cards show %d refusals, want 3:\n%s", n, view)
	}
	if !strings.Contains(view, "holders 1 · double-acquired no") {
		t.Errorf("no verdict line:\n%s", view)
	}
	// the key inspector shows the value read back from the server
	val, err := a.b.Admin().Get(context.Background(), "resource:lock").Result()
	if err != nil || !strings.Contains(view, scenes.ShortToken(val)) {
		t.Errorf("key holds %q (%v) but the screen does not show it:\n%s", val, err, view)
	}
}

func TestRaceTooSmall(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 60, 20, "")
	if v := a.View(); !strings.Contains(v, "at least 80x24") || strings.Contains(v, "w1") {
		t.Errorf("a 60x20 terminal should get the size message only:\n%s", v)
	}
	// the first View comes before any size: it must still be sane
	b, _ := NewApp(embedded(t), "race", 1)
	defer b.Shutdown(context.Background())
	if v := b.View(); !strings.Contains(v, "at least 80x24") {
		t.Errorf("width 0 view: %q", v)
	}
}

func TestRaceSelectAndReplay(t *testing.T) {
	a := openScene(t, embedded(t), "race", 1, 80, 24, "[right][right]")
	if a.Selected() != 1 {
		t.Fatalf("two → from no selection should select w2, got index %d", a.Selected())
	}
	drive(t, a, keys("4")...)
	if a.Selected() != 3 || !strings.Contains(a.View(), "w4's SET") {
		t.Fatalf("4 should select w4 and explain it:\n%s", a.View())
	}
	before := a.pl.Snap.Actors[0].Token
	drive(t, a, keys("r")...)
	after := a.pl.Snap.Actors[0].Token
	if before == after || len(commands(a.pl.Snap.Events, "", "acquire")) != 4 {
		t.Fatalf("r should fire again with fresh tokens: %s then %s", before, after)
	}
	drive(t, a, tea.MouseMsg{X: 70, Y: 2, Action: tea.MouseActionMotion})
	if a.Selected() != 3 {
		t.Fatalf("hovering the fourth card should select w4, got %d", a.Selected())
	}
}

// TestRaceTeatest runs the real program loop: pressing 3 must change the
// readout to w3's outcome.
func TestRaceTeatest(t *testing.T) {
	b := embedded(t)
	a, err := NewApp(b, "race", 1)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		return bytes.Contains(out, []byte("holders 1"))
	}, teatest.WithDuration(5*time.Second))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("3")})
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		return bytes.Contains(out, []byte("w3's SET"))
	}, teatest.WithDuration(5*time.Second))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	final := tm.FinalModel(t).(*App)
	a.Shutdown(context.Background())
	v := final.View()
	e, _ := lastOf(final.pl.Snap.Events, "w3", "acquire")
	want := map[string]string{"OK": "w3's SET is the one the server ran first", "(nil)": "w3's SET ran after"}[e.Reply]
	if want == "" || !strings.Contains(strings.ReplaceAll(v, "\n", " "), want) {
		t.Fatalf("w3 got %s; the readout should say %q:\n%s", e.Reply, want, v)
	}
}

// TestVerdictWithAWorkerPicked: a worker picked before the answer does not
// hide whether the prediction came true: the verdict on it comes first in
// the readout, the worker's own lines after it.
func TestVerdictWithAWorkerPicked(t *testing.T) {
	a, _ := openCourse(t, Options{Seed: 1, Scene: "race"}, "")
	drive(t, a, keys("[right]")...)
	if a.Selected() != 0 || !a.pl.Asking {
		t.Fatalf("→ at the question should pick w1 (picked %d, asking %v):\n%s", a.Selected(), a.pl.Asking, a.View())
	}
	drive(t, a, keys("2")...)
	v := a.View()
	if a.pl.Asking || a.Selected() != 0 || !strings.Contains(v, "You predicted") || !strings.Contains(v, "w1's SET") {
		t.Fatalf("the answer's verdict is not on screen with w1 picked:\n%s", v)
	}
}
