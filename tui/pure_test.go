package tui

import (
	"encoding/json"
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// screenState is what View could be tempted to write: the position, the
// selection, the layout the mouse and the scroll go by, the contents' size.
func screenState(a *App) string {
	pos, _ := json.Marshal(a.Position())
	menu := "none"
	if a.toc != nil {
		menu = fmt.Sprintf("%dx%d", a.toc.list().Width(), a.toc.list().Height())
	}
	return fmt.Sprintf("%s sel=%d node=%d zones=%v rows=%d scroll=%d menu=%s explained=%d",
		pos, a.pl.Sel, a.pl.Node, a.pl.zones, a.pl.logRows, a.pl.scroll, menu, a.pl.Explained())
}

// TestViewIsPure: drawing changes nothing, and drawing again gives the same
// bytes, on a story with a selection, a question, the help page, a quiz and
// the contents.
func TestViewIsPure(t *testing.T) {
	for _, c := range []struct{ id, presses string }{
		{"gc-pause", "nn2"},
		{"gc-pause", "nnnnnn"},
		{"redlock", "nnA"},
		{"crash-gap", "n?"},
		{"choose", "1n"},
		{"race", ""},
	} {
		t.Run(c.id+c.presses, func(t *testing.T) {
			a := openScene(t, embedded(t), c.id, 1, 100, 32, c.presses)
			check(t, a)
		})
	}
	t.Run("contents", func(t *testing.T) {
		a, _ := openCourse(t, Options{Seed: 1}, "")
		drive(t, a, tea.WindowSizeMsg{Width: 90, Height: 30})
		check(t, a)
	})
}

func check(t *testing.T, a *App) {
	t.Helper()
	before := screenState(a)
	first := a.View()
	second := a.View()
	if first != second {
		t.Errorf("a second View differs:\n%s\nfirst:\n%s", second, first)
	}
	if after := screenState(a); after != before {
		t.Errorf("View changed the state:\n%s\nwas\n%s", after, before)
	}
	if first == "" {
		t.Error("nothing drawn")
	}
}

// TestMotionReadsNoLedger: moving the mouse over a screen that does not
// change, and drawing it, makes no new explanation.
func TestMotionReadsNoLedger(t *testing.T) {
	t.Parallel()
	a := openScene(t, embedded(t), "gc-pause", 1, 100, 32, "nnn")
	n := a.pl.Explained()
	for x := range 100 {
		a.Update(tea.MouseMsg{X: x, Y: 31, Action: tea.MouseActionMotion, Button: tea.MouseButtonNone})
		_ = a.View()
	}
	if got := a.pl.Explained(); got != n || n == 0 {
		t.Errorf("explained %d times after the motion, %d before", got, n)
	}
}
