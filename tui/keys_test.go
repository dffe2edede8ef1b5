package tui

import (
	"testing"

	"locksim/play"

	tea "github.com/charmbracelet/bubbletea"
)

// TestKeyTable: the key map's table sends the session the Action each
// binding stands for, numbers taken from the key.
func TestKeyTable(t *testing.T) {
	a := openScene(t, embedded(t), "redlock", 1, 80, 24, "")
	run := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	for _, c := range []struct {
		key  tea.KeyMsg
		want play.Action
		says bool
	}{
		{run("3"), play.DoN(play.Select, 2), false},
		{run("C"), play.DoN(play.Node, 2), false},
		{run("x"), play.Do(play.Crash), true},
		{run("u"), play.Do(play.Cut), true},
		{run("k"), play.DoN(play.Knob, 0), false},
		{tea.KeyMsg{Type: tea.KeyRight}, play.Do(play.Step), true},
		{tea.KeyMsg{Type: tea.KeyEnter}, play.Do(play.Move), false},
	} {
		act, says, ok := a.actionOf(c.key)
		if !ok || act != c.want || says != c.says {
			t.Errorf("%s: %v (says %v, bound %v), want %v (says %v)", c.key, act, says, ok, c.want, c.says)
		}
	}
	if act, _, ok := a.actionOf(run("e")); ok {
		t.Errorf("e outside the quiz sent %v", act)
	}
}
