package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestZeroSizeDrawsAt80x24: a terminal that says its size is 0x0 (the
// program started in a tmux pane just created detached) gets the screen
// drawn at 80x24, not the too-small notice of a 0x0 screen (which drew
// nothing until a key); the size that comes later redraws it at that
// size. The waits end on what is drawn; their bound only ends a hang.
func TestZeroSizeDrawsAt80x24(t *testing.T) {
	b := embedded(t)
	a, err := NewApp(b, "race", 1)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, a) // no size: teatest sends none
	tm.Send(tea.WindowSizeMsg{Width: 0, Height: 0})
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		return bytes.Contains(out, []byte("holders 1"))
	}, teatest.WithDuration(60*time.Second))
	wide := strings.Repeat("─", 100) // a rule across 120 columns, more than 80 hold
	tm.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		return bytes.Contains(out, []byte(wide))
	}, teatest.WithDuration(60*time.Second))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(60*time.Second))
	final := tm.FinalModel(t).(*App)
	a.Shutdown(context.Background())
	if final.com.Width != 120 || final.com.Height != 40 {
		t.Errorf("after the later size the screen is %dx%d, want 120x40", final.com.Width, final.com.Height)
	}
}

// TestZeroSizeKeepsAKnownSize: a 0x0 after a real size keeps that size,
// and a 0x0 first draws at 80x24 (drive: the app's own Update).
func TestZeroSizeKeepsAKnownSize(t *testing.T) {
	a, err := NewApp(embedded(t), "race", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(context.Background())
	a.Update(tea.WindowSizeMsg{Width: 0, Height: 0})
	if a.com.Width != MinWidth || a.com.Height != MinHeight {
		t.Errorf("after 0x0 the screen is %dx%d, want %dx%d", a.com.Width, a.com.Height, MinWidth, MinHeight)
	}
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 0})
	if a.com.Width != 100 || a.com.Height != 30 {
		t.Errorf("a size of no rows after 100x30 left the screen %dx%d", a.com.Width, a.com.Height)
	}
}
