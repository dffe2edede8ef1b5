package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestLabRedrawsAtANewSize: a lab resized draws what a lab opened at the
// new size draws, its level's title and goal, the line under the editor,
// the hints, the result and the help line wrapped to the new width (the
// lab keeps what it drew, by text and width: Common.memoRows).
func TestLabRedrawsAtANewSize(t *testing.T) {
	t.Parallel()
	fix := -1
	for i, lv := range labLevels() {
		if !lv.Break() {
			fix = i
			break
		}
	}
	if fix < 0 {
		t.Fatal("no level to fix")
	}
	presses := strings.Repeat("[down]", fix) + "[enter][ctrl+x][ctrl+x][ctrl+r]"
	sizes := [][2]int{{80, 24}, {120, 40}, {100, 30}}
	resized := openLab(t, Options{Seed: 1}, sizes[0][0], sizes[0][1], presses)
	for _, size := range sizes[1:] {
		before := resized.View()
		drive(t, resized, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		fresh := openLab(t, Options{Seed: 1}, size[0], size[1], presses)
		if got, want := resized.View(), fresh.View(); got != want {
			t.Errorf("resized to %dx%d the lab draws\n%s\nopened at that size\n%s\n(before: %s)", size[0], size[1], got, want, before)
		}
	}
}
